// The node-server jest project (jest.config.js): the resource tests run on createSvcServer.
process.env.SVC_TEST_SERVER = 'node';
