// The http2 jest project (jest.config.js): the wire tests again over TLS and HTTP/2 (ALPN h2), on fastify
// (svcSecureServerOptions) unless a file's own project picks the standalone server.
process.env.SVC_TEST_PROTOCOL = 'h2';
