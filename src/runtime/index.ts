/**
 * Running a service in production (issue 24): the multi-process runner, graceful shutdown, health and
 * readiness, load shedding. See README.md in this folder and docs/deploying.md.
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
