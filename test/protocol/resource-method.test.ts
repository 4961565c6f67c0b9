import {
  MethodRoutingError,
  RESOURCE_METHODS,
  type ResourceMethod,
  methodHeaderValue,
  parseQueryParams,
  parseResourceMethod,
  routeResourceMethod,
  unsupportedOperationError,
} from '../../src';

function route(http: string, query: string, entity: boolean, header?: string): ResourceMethod {
  return routeResourceMethod({
    httpMethod: http,
    methodHeader: header,
    query: parseQueryParams(query),
    entity,
    requestUri: `/r${entity ? '/1' : ''}${query === '' ? '' : `?${query}`}`,
  });
}

function routingError(http: string, query: string, entity: boolean, header?: string): MethodRoutingError {
  try {
    route(http, query, entity, header);
  } catch (err) {
    if (err instanceof MethodRoutingError) return err;
    throw err;
  }
  throw new Error('routed');
}

describe('resource method names', () => {
  it('lists the fourteen methods by their lower-case wire names', () => {
    expect(RESOURCE_METHODS).toEqual([
      'get',
      'batch_get',
      'create',
      'batch_create',
      'update',
      'batch_update',
      'partial_update',
      'batch_partial_update',
      'delete',
      'batch_delete',
      'get_all',
      'finder',
      'batch_finder',
      'action',
    ]);
  });

  it('reads a method name in any case', () => {
    expect(parseResourceMethod('BATCH_PARTIAL_UPDATE')).toBe('batch_partial_update');
    expect(parseResourceMethod('Batch_Create')).toBe('batch_create');
    expect(parseResourceMethod('patch')).toBeUndefined();
  });

  it('writes the header value in lower case', () => {
    expect(methodHeaderValue('batch_create')).toBe('batch_create');
  });
});

describe('routing by HTTP method, header and flags (wire facts §3.3)', () => {
  const table: Array<[string, string, boolean, string | undefined, ResourceMethod]> = [
    ['GET', '', true, undefined, 'get'],
    ['GET', 'q=search', false, undefined, 'finder'],
    ['GET', '', false, undefined, 'get_all'],
    ['GET', 'ids=List(1,2)', false, undefined, 'batch_get'],
    ['GET', 'bq=search&criteria=List((a:1))', false, undefined, 'batch_finder'],
    ['PUT', '', true, undefined, 'update'],
    ['PUT', 'ids=List(1)', false, undefined, 'batch_update'],
    ['POST', '', true, undefined, 'partial_update'],
    ['POST', 'ids=List(1)', false, undefined, 'batch_partial_update'],
    ['POST', '', false, undefined, 'create'],
    ['POST', 'action=purge', false, undefined, 'action'],
    ['POST', 'action=purge', true, undefined, 'action'],
    ['DELETE', '', true, undefined, 'delete'],
    ['DELETE', 'ids=List(1)', false, undefined, 'batch_delete'],
    // with the method header, any case
    ['POST', '', false, 'batch_create', 'batch_create'],
    ['POST', '', false, 'BATCH_CREATE', 'batch_create'],
    ['POST', '', false, 'create', 'create'],
    ['POST', 'ids=List(1)', false, 'BATCH_PARTIAL_UPDATE', 'batch_partial_update'],
    ['POST', '', true, 'partial_update', 'partial_update'],
    ['POST', 'action=a', false, 'action', 'action'],
    ['PUT', 'ids=List(1)', false, 'batch_update', 'batch_update'],
    ['GET', '', true, 'get', 'get'],
    ['GET', 'ids=List(1)', false, 'batch_get', 'batch_get'],
    ['GET', 'q=x', false, 'FINDER', 'finder'],
    ['GET', 'bq=x', false, 'batch_finder', 'batch_finder'],
    ['GET', '', false, 'get_all', 'get_all'],
    ['DELETE', '', true, 'delete', 'delete'],
    ['DELETE', 'ids=List(1)', false, 'batch_delete', 'batch_delete'],
    // name clashes: on GET q or bq wins over action (q and bq together are refused, below); on POST action wins
    ['GET', 'q=search&action=x', false, undefined, 'finder'],
    ['GET', 'bq=search&action=x', false, undefined, 'batch_finder'],
    ['POST', 'action=purge&q=x&bq=y', false, undefined, 'action'],
    // lower-case HTTP methods
    ['get', '', true, undefined, 'get'],
  ];
  for (const [http, query, entity, header, expected] of table) {
    it(`routes ${http} ${entity ? '/r/1' : '/r'}${query === '' ? '' : `?${query}`}${header === undefined ? '' : ` [${header}]`} to ${expected}`, () => {
      expect(route(http, query, entity, header)).toBe(expected);
    });
  }

  it('needs the header to tell batch_create from create', () => {
    expect(route('POST', '', false)).toBe('create');
    expect(route('POST', '', false, 'batch_create')).toBe('batch_create');
  });

  it('rejects an action sent with GET', () => {
    const err = routingError('GET', 'action=purge', false);
    expect(err.message).toBe(
      "All action methods (specified via 'action' in URI) must be submitted as a POST (was GET)",
    );
    expect(err.code).toBe('SVC_ERR_PROTOCOL_ACTION_NOT_POST');
    expect(err.statusCode).toBe(400);
    expect(routingError('PUT', 'action=purge', true).message).toMatch(
      /must be submitted as a POST \(was PUT\)$/,
    );
  });

  it('refuses a GET naming both a finder (q) and a batch finder (bq): ambiguous, where the reference lets q win', () => {
    for (const [query, header] of [
      ['q=search&bq=other', undefined],
      ['q=search&bq=other&action=x', undefined],
      ['bq=other&q=search', 'batch_finder'],
    ] as const) {
      const err = routingError('GET', query, false, header);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_AMBIGUOUS_METHOD');
      expect(err.statusCode).toBe(400);
      expect(err.message).toBe(
        "Ambiguous method selection: a request names a finder ('q') or a batch finder ('bq'), not both",
      );
    }
    // on POST, an action's query may hold anything
    expect(route('POST', 'action=purge&q=x&bq=y', false)).toBe('action');
  });

  it('rejects combinations the table lacks', () => {
    const cases: Array<[string, string, boolean, string | undefined]> = [
      ['POST', 'q=search', false, undefined],
      ['PATCH', '', true, undefined],
      ['POST', 'ids=List(1)', false, 'batch_create'],
      ['POST', '', true, 'create'],
      ['GET', '', true, 'update'],
      ['PUT', '', false, undefined],
      ['DELETE', 'q=x', false, undefined],
      ['GET', 'ids=List(1)', true, undefined],
    ];
    for (const [http, query, entity, header] of cases) {
      const err = routingError(http, query, entity, header);
      expect(err.code).toBe('SVC_ERR_PROTOCOL_METHOD_NOT_SUPPORTED');
      expect(err.statusCode).toBe(400);
    }
    expect(routingError('PATCH', '', true).message).toBe("Method 'PATCH' is not supported for URI '/r/1'");
  });

  it('words the error for a method the resource lacks as the reference does', () => {
    expect(
      unsupportedOperationError({
        httpMethod: 'POST',
        requestUri: '/r',
        methodHeaderName: 'X-Svc-Method',
        methodHeader: 'batch_create',
      }).message,
    ).toBe("POST operation not supported for URI: '/r' with X-Svc-Method: 'batch_create'");
    expect(
      unsupportedOperationError({ httpMethod: 'GET', requestUri: '/r', methodHeaderName: 'X-Svc-Method' })
        .message,
    ).toBe("GET operation not supported for URI: '/r' with X-Svc-Method: ''");
    const named = unsupportedOperationError({
      httpMethod: 'GET',
      requestUri: '/greetings?q=nope',
      methodHeaderName: 'X-Svc-Method',
      methodName: 'nope',
      resourceName: 'greetings',
    });
    expect(named.message).toBe(
      "GET operation named nope not supported on resource 'greetings' URI: '/greetings?q=nope'",
    );
    expect(named.statusCode).toBe(400);
  });
});
