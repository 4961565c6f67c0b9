import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { RUNTIME_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(RUNTIME_ERRORS_CODES);

/** The request was refused by load shedding (503 with `Retry-After`). */
export class ServiceOverloadedError extends SvcError {
  override readonly publicMessage = true;
  /** Seconds the client is asked to wait (`Retry-After`). */
  readonly retryAfterSeconds: number;
  constructor(reason: string, retryAfterSeconds: number) {
    super('SVC_ERR_RUNTIME_OVERLOADED', `The service is overloaded (${reason}); retry later`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The request arrived after the process began shutting down (503, `Connection: close`). */
export class ShuttingDownError extends SvcError {
  override readonly publicMessage = true;
  constructor() {
    super('SVC_ERR_RUNTIME_SHUTTING_DOWN', 'The service is shutting down; retry the request');
  }
}

/** Workers of the runner died more often than the crash-loop limit allows. */
export class CrashLoopError extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_RUNTIME_CRASH_LOOP', message);
  }
}
