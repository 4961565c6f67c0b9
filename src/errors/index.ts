export { ERROR_CODES, type ErrorCode, type ErrorCodeInfo } from './error-codes';
export { SvcError, isSvcError } from './svc-error';
