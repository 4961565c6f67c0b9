import type { AttachmentReader } from '../streams/attachment-reader';

/**
 * Declaring that a method takes request attachments (brief, "Server API for attachments": one parameter
 * of type AttachmentReader marked as the attachments parameter). Finders, batch finders and actions mark a
 * parameter of their spec with {@link attachmentsParam}; the other methods wrap their handler with
 * {@link withAttachments}, which hands the reader over as the first argument. Either way the
 * value is the request's `AttachmentReader`, or null when the request carried none; a request carrying
 * attachments to a method that takes none is a 400 and its attachments are drained.
 */

/** The attachments parameter of a finder, batch finder or action spec. */
export interface AttachmentsParam {
  readonly paramKind: 'attachments';
  /** Type-level only. */
  readonly __value?: AttachmentReader | null;
}

/** Marks the parameter that receives the request's attachments (`AttachmentReader | null`); at most one. */
export function attachmentsParam(): AttachmentsParam {
  return ATTACHMENTS_PARAM;
}

const ATTACHMENTS_PARAM: AttachmentsParam = Object.freeze({ paramKind: 'attachments' as const });

/** True for an {@link attachmentsParam} spec. */
export function isAttachmentsParam(spec: unknown): spec is AttachmentsParam {
  return (
    typeof spec === 'object' && spec !== null && (spec as { paramKind?: unknown }).paramKind === 'attachments'
  );
}

const TAKES_ATTACHMENTS = Symbol.for('svc.takesAttachments');

/**
 * Marks a function-style handler (get, create, update, partialUpdate, delete and the batch methods) as taking
 * the request's attachments: it is called with the `AttachmentReader` (or null) first, then the method's
 * usual arguments. The result has the method's usual signature.
 *
 * @example
 * ```ts
 * create: withAttachments(async (attachments, photo: Photo, ctx) => {
 *   const id = await store.addWithImage(photo, attachments);
 *   return { id };
 * }),
 * ```
 */
export function withAttachments<P extends unknown[], R>(
  handler: (attachments: AttachmentReader | null, ...args: P) => R,
): (...args: P) => R {
  if (typeof handler !== 'function') throw new TypeError('withAttachments takes a handler function');
  // the framework calls the inner handler with the reader; a direct call (a test) gets null
  const marked = (...args: P): R => handler(null, ...args);
  Object.defineProperty(marked, TAKES_ATTACHMENTS, { value: handler });
  return marked;
}

/** The handler a {@link withAttachments} wrapper holds (called by the framework with the reader), or undefined. */
export function attachmentsHandler(handler: unknown): ((...args: unknown[]) => unknown) | undefined {
  return typeof handler === 'function'
    ? (handler as { [TAKES_ATTACHMENTS]?: (...args: unknown[]) => unknown })[TAKES_ATTACHMENTS]
    : undefined;
}
