/**
 * Running a service in production (issue 24; docs/deploying.md): the multi-process runner, graceful
 * shutdown, health and readiness, load shedding, metrics, traces, request ids and access logs. This layer
 * wraps `resources/`, `server/` and `queue/` through their seams (observers, the `node:http` server's
 * request event); nothing below it knows it exists. See README.md in this folder.
 */
export { CrashLoopError, ServiceOverloadedError, ShuttingDownError } from './errors';
export {
  type CheckResult,
  DEFAULT_HEALTH_OPTIONS,
  Health,
  type HealthOptions,
  type ReadinessCheck,
  type ReadinessReport,
  SHUTDOWN_CHECK,
  queueReadinessChecks,
  readinessBody,
} from './health';
export {
  DEFAULT_LOAD_SHEDDING,
  LoadShedder,
  type LoadShedderStats,
  type LoadSheddingOptions,
  type ShedDecision,
} from './load-shedding';
export {
  DEFAULT_SHUTDOWN_DEADLINE_MS,
  GracefulShutdown,
  type GracefulShutdownOptions,
  type ShutdownHook,
  type ShutdownMode,
  type ShutdownReport,
  type ShutdownState,
} from './shutdown';
export { type FrontDoor, type FrontDoorOptions, createFrontDoor, installFrontDoor } from './front-door';
export {
  DEFAULT_RUNNER_OPTIONS,
  type RunnerMessage,
  type RunnerOptions,
  isRunnerMessage,
  runPrimary,
  workerCount,
} from './runner';
export {
  type AppFactory,
  type ListeningInfo,
  type ServeOptions,
  type ServedApp,
  type ServiceContext,
  serve,
} from './serve';
export { type ExcludeOption } from './exclude';
export { type MetricsOptions, type SvcMetrics, DEFAULT_METRICS_OPTIONS, createMetrics } from './metrics';
export {
  type ClusterMetricsOptions,
  type ClusterMetricsServer,
  DEFAULT_CLUSTER_METRICS_OPTIONS,
  CLUSTER_SCRAPE_ENV,
  ClusterScrapeError,
  answerWorkerScrapes,
  scrapeThroughPrimary,
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
  processUniqueId,
  requestIdOf,
  requestIds,
} from './request-id';
export { type FastifyChildLoggerFactory, lazyChildLoggerFactory, lazyChildren } from './lazy-child-logger';
export {
  type AccessLog,
  type AccessLogOptions,
  DEFAULT_ACCESS_LOG_OPTIONS,
  createAccessLog,
} from './access-log';
export { type LineWriterOptions, LineWriter } from './line-writer';
