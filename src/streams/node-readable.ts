/**
 * Node's `stream.Readable`, as declarations that `svc-framework/client` reaches name it (a fetch
 * implementation's stream body, a request's body stream, the multipart encoder's output), so that a browser
 * project type-checks against the client's `.d.ts` files without Node's types (`"types": []`, no
 * `@types/node`): there it is an empty interface. Wherever the package root is in the program (Node), the
 * augmentation in `streams/index.ts` makes it extend Node's `Readable`, so Node code sees the full type.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in on Node (streams/index.ts)
export interface NodeReadable {}
