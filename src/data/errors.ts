import { SvcError, registerErrorCodes } from '../errors/svc-error';
import { DATA_ERRORS_CODES } from '../errors/error-table';

// this module's error codes, registered where its classes are (src/errors/error-table.ts)
registerErrorCodes(DATA_ERRORS_CODES);

/** Thrown when a read-only `DataMap`/`DataList` or an unmodifiable view is mutated. */
export class UnsupportedOperationException extends SvcError {
  constructor(
    message: string,
    code: 'SVC_ERR_DATA_READ_ONLY' | 'SVC_ERR_DATA_UNMODIFIABLE_VIEW' = 'SVC_ERR_DATA_READ_ONLY',
  ) {
    super(code, message);
  }
}

/** Thrown when a value the data layer cannot hold is inserted, or an insertion would create a cycle. */
export class IllegalDataValueException extends SvcError {
  constructor(
    message: string,
    code:
      | 'SVC_ERR_DATA_ILLEGAL_VALUE'
      | 'SVC_ERR_DATA_CYCLE'
      | 'SVC_ERR_DATA_INVALID_BYTES_STRING' = 'SVC_ERR_DATA_ILLEGAL_VALUE',
  ) {
    super(code, message);
  }
}

/** Thrown when an index is outside a `DataList` or `ByteString`. */
export class IndexOutOfBoundsException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_DATA_INDEX_OUT_OF_BOUNDS', message);
  }
}

/** Thrown by typed accessors (`getDataMap`, `getString`...) when the stored value has another type. */
export class ClassCastException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_DATA_CLASS_CAST', message);
  }
}

/** Thrown by decoders on malformed input. `offset` is the byte offset where the problem was found. */
export class DataDecodingException extends SvcError {
  readonly offset: number;
  constructor(
    message: string,
    offset: number,
    code: 'SVC_ERR_DATA_JSON_DECODE' | 'SVC_ERR_DATA_PSON_DECODE' = 'SVC_ERR_DATA_JSON_DECODE',
    options?: { cause?: unknown },
  ) {
    super(code, `${message} (at byte offset ${offset})`, options);
    this.offset = offset;
  }
}

/** Thrown by encoders when a value cannot be written. */
export class DataEncodingException extends SvcError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SVC_ERR_DATA_ENCODE', message, options);
  }
}

/** Thrown when a codec is configured with an option value it cannot use. */
export class InvalidOptionException extends SvcError {
  constructor(message: string) {
    super('SVC_ERR_DATA_INVALID_OPTION', message);
  }
}

/** Thrown by the codec registry when no codec serves a content type. */
export class UnsupportedContentTypeException extends SvcError {
  readonly contentType: string;
  constructor(contentType: string) {
    super('SVC_ERR_DATA_UNKNOWN_CONTENT_TYPE', `No codec is registered for content type '${contentType}'`);
    this.contentType = contentType;
  }
}
