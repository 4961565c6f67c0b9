-- wrk's figures of one run as one JSON line after its own report, for bench/load-generator.ts: times in µs
-- (wrk keeps each request's latency to the µs), errors by kind (`status`: responses other than 2xx or 3xx).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'SVC-WRK {"requests":%d,"durationUs":%d,"p99Us":%.1f,"meanUs":%.1f,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\n',
    summary.requests, summary.duration, latency:percentile(99), latency.mean,
    e.status, e.connect, e.read, e.write, e.timeout))
end
