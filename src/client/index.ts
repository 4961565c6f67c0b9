/**
 * The client core: request descriptions → HTTP requests (pure), a fetch transport with timeouts and abort
 * signals, and typed decoding of every response shape. See README.md in this folder.
 *
 * This is the Node face: importing it installs the Node platform (`node:http` transport, Node-stream
 * multipart bodies) as the client's default. `browser.ts` is the face without Node built-ins.
 */
import './node-platform';

export * from './portable';
// every resource client has its `rx` forms (the browser entry's are opt-in: web-resource-client.ts)
export { createResourceClient, resourceClient } from './resource-client';
export { nodeHttpFetch } from './node-http-fetch';
