-- wrk's figures of one run as one JSON line after its own report, for bench/load-generator.ts: times in µs
-- (wrk keeps each request's latency to the µs), errors by kind (`status`: responses other than 2xx or 3xx).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'SVC-WRK {"requests":%d,"durationUs":%d,"p99Us":%.1f,"meanUs":%.1f,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\n',
    summary.requests, summary.duration, latency:percentile(99), latency.mean,
    e.status, e.connect, e.read, e.write, e.timeout))
end

-- wrk's own request format, but with the headers in one fixed order (by name: Host first): wrk writes them
-- in the order of a Lua table's pairs(), which changed from one wrk process to the next (Host first in one
-- run, last in the next), and a server that learns the order its clients send (src/server/incoming-headers.ts
-- builds a request's headers in one step for a list of names seen before) met a new one in a measured run
-- half the time: a new shape of its headers objects, and the code reading them deoptimized within the run.
function wrk.format(method, path, headers, body)
  method = method or wrk.method
  path = path or wrk.path
  headers = headers or wrk.headers
  body = body or wrk.body
  if not headers['Host'] then headers['Host'] = wrk.headers['Host'] end
  headers['Content-Length'] = body and string.len(body)
  local names = {}
  for name in pairs(headers) do names[#names + 1] = name end
  table.sort(names)
  local s = { string.format('%s %s HTTP/1.1', method, path) }
  for _, name in ipairs(names) do s[#s + 1] = string.format('%s: %s', name, headers[name]) end
  s[#s + 1] = ''
  s[#s + 1] = body or ''
  return table.concat(s, '\r\n')
end

-- SVC_WRK_PATHS (paths, one per line): sent in turn, request by request, instead of the URL's own path
-- (bench/load-generator.ts `warmUp`)
local paths = {}
for p in string.gmatch(os.getenv('SVC_WRK_PATHS') or '', '[^\n]+') do paths[#paths + 1] = p end
if #paths > 0 then
  local i = 0
  request = function()
    i = i % #paths + 1
    return wrk.format(nil, paths[i])
  end
end
