/**
 * Running a service in production (docs/deploying.md): metrics, traces, request ids and access logs
 * (this part); the runner, graceful shutdown, health and load shedding live beside them. This layer wraps
 * `resources/` and `queue/` through their observer seams; nothing below it knows it exists.
 */
export { type ExcludeOption } from './exclude';
export { type MetricsOptions, type SvcMetrics, DEFAULT_METRICS_OPTIONS, createMetrics } from './metrics';
export {
  type ClusterMetricsOptions,
  type ClusterMetricsServer,
  DEFAULT_CLUSTER_METRICS_OPTIONS,
  serveClusterMetrics,
} from './metrics-cluster';
export {
  type TracingOptions,
  TRACER_NAME,
  activeTracer,
  tracingClientFilter,
  tracingJobObserver,
  tracingObserver,
} from './tracing';
export {
  type RequestIdOptions,
  DEFAULT_REQUEST_ID_HEADER,
  fastifyRequestIdOptions,
  requestIdOf,
  requestIds,
} from './request-id';
export {
  type AccessLog,
  type AccessLogOptions,
  DEFAULT_ACCESS_LOG_OPTIONS,
  createAccessLog,
} from './access-log';
export { type LineWriterOptions, LineWriter } from './line-writer';
