import {
  Data,
  DataMap,
  ErrorResponseFormat,
  type ErrorResponsePart,
  IllegalDataValueException,
  ResponseFormatError,
  ServiceError,
  UriElementParseError,
  buildErrorResponse,
  errorResponseToDataMap,
  isServiceError,
  parseElement,
  readErrorResponse,
  serviceErrorFromResponse,
  toServiceError,
} from '../../src';

function body(r: { body: DataMap | undefined }): Record<string, unknown> {
  return Data.toJS(r.body!) as Record<string, unknown>;
}

function rich(): ServiceError {
  return new ServiceError(409, 'conflict', {
    code: 'CONFLICT',
    serviceErrorCode: 7,
    details: Data.fromJS({ field: 'name' }) as DataMap,
    docUrl: 'https://docs/x',
    requestId: 'req-1',
    cause: new Error('underneath'),
  });
}

describe('ServiceError', () => {
  it('carries a status, a message and the optional ErrorResponse fields', () => {
    const e = rich();
    expect(e.name).toBe('ServiceError');
    expect(e.status).toBe(409);
    expect(e.message).toBe('conflict');
    expect(e.code).toBe('CONFLICT');
    expect(e.errorDetailType).toBe('com.linkedin.restli.common.ErrorDetails');
    expect((e.cause as Error).message).toBe('underneath');
    expect(isServiceError(e)).toBe(true);
    expect(isServiceError(new Error('x'))).toBe(false);
  });

  it('turns a status that is not an HTTP status into 500', () => {
    expect(new ServiceError(42).status).toBe(500);
    expect(new ServiceError(404.5).status).toBe(500);
  });
});

describe('ErrorResponse formats (wire facts §4.1)', () => {
  const cases: Array<[string, ErrorResponseFormat, Record<string, unknown>, boolean]> = [
    [
      'FULL',
      ErrorResponseFormat.FULL,
      {
        status: 409,
        code: 'CONFLICT',
        serviceErrorCode: 7,
        message: 'conflict',
        docUrl: 'https://docs/x',
        requestId: 'req-1',
        errorDetails: { field: 'name' },
        errorDetailType: 'com.linkedin.restli.common.ErrorDetails',
      },
      true,
    ],
    [
      'MESSAGE_AND_DETAILS',
      ErrorResponseFormat.MESSAGE_AND_DETAILS,
      {
        message: 'conflict',
        errorDetails: { field: 'name' },
        errorDetailType: 'com.linkedin.restli.common.ErrorDetails',
      },
      true,
    ],
    [
      'MESSAGE_AND_SERVICECODE',
      ErrorResponseFormat.MESSAGE_AND_SERVICECODE,
      { status: 409, code: 'CONFLICT', serviceErrorCode: 7, message: 'conflict' },
      true,
    ],
    [
      'MESSAGE_AND_SERVICECODE_AND_EXCEPTIONCLASS',
      ErrorResponseFormat.MESSAGE_AND_SERVICECODE_AND_EXCEPTIONCLASS,
      { status: 409, code: 'CONFLICT', serviceErrorCode: 7, message: 'conflict' },
      true,
    ],
    ['MESSAGE_ONLY', ErrorResponseFormat.MESSAGE_ONLY, { message: 'conflict' }, true],
    ['MINIMAL', ErrorResponseFormat.MINIMAL, {}, true],
    ['a custom format without HEADERS', new ErrorResponseFormat(['MESSAGE']), { message: 'conflict' }, false],
  ];
  for (const [name, format, expected, header] of cases) {
    it(`shows what ${name} includes, in production mode`, () => {
      const r = buildErrorResponse(rich(), { format });
      expect(r.status).toBe(409);
      expect(body(r)).toEqual(expected);
      expect(r.errorHeader).toBe(header);
    });
  }

  it('lists the parts of each format', () => {
    expect(ErrorResponseFormat.FULL.parts).toHaveLength(9);
    expect(ErrorResponseFormat.MINIMAL.parts).toEqual(['HEADERS']);
    expect(() => new ErrorResponseFormat(['NOPE' as ErrorResponsePart])).toThrow(TypeError);
  });

  it('lets one error override the format', () => {
    const e = new ServiceError(400, 'terse', { code: 'X', format: ErrorResponseFormat.MESSAGE_ONLY });
    expect(body(buildErrorResponse(e))).toEqual({ message: 'terse' });
  });
});

describe('production and development modes', () => {
  it('never shows stack traces or exception classes in production, even with FULL', () => {
    const r = buildErrorResponse(rich());
    expect(body(r)).not.toHaveProperty('stackTrace');
    expect(body(r)).not.toHaveProperty('exceptionClass');
  });

  it('shows them in development mode with FULL, the causes included', () => {
    const r = body(buildErrorResponse(rich(), { mode: 'development' }));
    expect(r.exceptionClass).toBe('ServiceError');
    expect(r.stackTrace).toMatch(/^ServiceError: conflict\n/);
    expect(r.stackTrace).toMatch(/\nCaused by: Error: underneath\n/);
  });

  it('shows the exception class alone with MESSAGE_AND_SERVICECODE_AND_EXCEPTIONCLASS in development', () => {
    const r = body(
      buildErrorResponse(rich(), {
        mode: 'development',
        format: ErrorResponseFormat.MESSAGE_AND_SERVICECODE_AND_EXCEPTIONCLASS,
      }),
    );
    expect(r.exceptionClass).toBe('ServiceError');
    expect(r).not.toHaveProperty('stackTrace');
  });

  it('hides the message of an unexpected error in production (INTERNAL SERVER ERROR)', () => {
    const r = buildErrorResponse(new TypeError('secret detail'));
    expect(r.status).toBe(500);
    expect(body(r)).toEqual({ status: 500, message: 'INTERNAL SERVER ERROR' });
    expect(body(buildErrorResponse(new TypeError('x'), { internalErrorMessage: 'oops' })).message).toBe(
      'oops',
    );
  });

  it('names the unexpected error in development', () => {
    const r = body(buildErrorResponse(new TypeError('secret detail'), { mode: 'development' }));
    expect(r.message).toBe('TypeError: secret detail');
    expect(r.exceptionClass).toBe('TypeError');
    expect(r.stackTrace).toMatch(/^TypeError: secret detail\n/);
  });

  it('maps a framework error to its registry status, message and code', () => {
    let parseError: unknown;
    try {
      parseElement('(a,b)');
    } catch (e) {
      parseError = e;
    }
    expect(parseError).toBeInstanceOf(UriElementParseError);
    const r = buildErrorResponse(parseError);
    expect(r.status).toBe(400);
    expect(body(r)).toEqual({
      status: 400,
      code: 'SVC_ERR_PROTOCOL_URI_SYNTAX',
      message: "expected ':' but found ',' (column 2)",
    });
    expect(body(buildErrorResponse(parseError, { mode: 'development' })).exceptionClass).toBe(
      'UriElementParseError',
    );
  });

  it('hides the message of a framework 5xx in production', () => {
    const e = new IllegalDataValueException('internal detail');
    expect(body(buildErrorResponse(e))).toEqual({
      status: 500,
      code: 'SVC_ERR_DATA_ILLEGAL_VALUE',
      message: 'INTERNAL SERVER ERROR',
    });
    expect(body(buildErrorResponse(e, { mode: 'development' })).message).toBe('internal detail');
  });

  it('sends no body for a 204 error', () => {
    const r = buildErrorResponse(new ServiceError(204, 'nothing'));
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
  });

  it('keeps a success status used as an error as it is', () => {
    expect(buildErrorResponse(new ServiceError(200, 'odd')).status).toBe(200);
  });

  it('leaves an empty message out', () => {
    expect(body(buildErrorResponse(new ServiceError(404)))).toEqual({ status: 404 });
  });

  it('normalizes errors to ServiceErrors with the original as cause', () => {
    const e = new Error('x');
    const s = toServiceError(e);
    expect(s.status).toBe(500);
    expect(s.cause).toBe(e);
    const same = new ServiceError(418, 'teapot');
    expect(toServiceError(same)).toBe(same);
    expect(toServiceError('a string').message).toBe('INTERNAL SERVER ERROR');
    expect(body(buildErrorResponse({ weird: true }, { mode: 'development' })).stackTrace).toBe(
      '{"weird":true}',
    );
  });
});

describe('reading error responses (client side)', () => {
  it('reads every field and ignores unknown ones', () => {
    const m = Data.fromJS({
      status: 400,
      code: 'BAD',
      serviceErrorCode: 3,
      message: 'm',
      docUrl: 'd',
      requestId: 'r',
      exceptionClass: 'E',
      stackTrace: 's',
      errorDetailType: 't',
      errorDetails: { a: 1 },
      extra: 'ignored',
    }) as DataMap;
    const er = readErrorResponse(m);
    expect({ ...er, errorDetails: Data.toJS(er.errorDetails!) }).toEqual({
      status: 400,
      code: 'BAD',
      serviceErrorCode: 3,
      message: 'm',
      docUrl: 'd',
      requestId: 'r',
      exceptionClass: 'E',
      stackTrace: 's',
      errorDetailType: 't',
      errorDetails: { a: 1 },
    });
    expect(Data.toJS(errorResponseToDataMap(er))).toEqual(
      Data.toJS(new DataMap([...m].filter(([k]) => k !== 'extra'))),
    );
  });

  it('rejects fields of the wrong type', () => {
    expect(() => readErrorResponse(Data.fromJS({ status: '400' }))).toThrow(ResponseFormatError);
    expect(() => readErrorResponse(Data.fromJS({ errorDetails: 'x' }))).toThrow(
      "'errorDetails' must be a map (at /errorDetails)",
    );
    expect(() => readErrorResponse('x')).toThrow(ResponseFormatError);
  });

  it('turns an error response back into a ServiceError', () => {
    const built = buildErrorResponse(rich());
    const e = serviceErrorFromResponse(built.status, built.body);
    expect(e.status).toBe(409);
    expect(e.message).toBe('conflict');
    expect(e.code).toBe('CONFLICT');
    expect(e.serviceErrorCode).toBe(7);
    expect(Data.toJS(e.details!)).toEqual({ field: 'name' });
    expect(e.docUrl).toBe('https://docs/x');
    expect(serviceErrorFromResponse(503, undefined).status).toBe(503);
    expect(serviceErrorFromResponse(0, Data.fromJS({ status: 404 }) as DataMap).status).toBe(404);
  });
});
