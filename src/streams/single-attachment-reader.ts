import type { ChunkChannel } from './channels';
import type { AttachmentDataSourceWriter } from './data-source';
import { AttachmentStateError } from './errors';
import type { WriteHandle } from './write-handle';

/** What a {@link SingleAttachmentReader} tells its consumer (brief, "SingleAttachmentReaderCallback"). */
export interface SingleAttachmentReaderCallback {
  /** The chunk asked for with `requestAttachmentData()`. */
  onAttachmentDataAvailable(chunk: Uint8Array): void;
  /** The attachment was read to its end. */
  onFinished(): void;
  /** After `drainAttachment()`: the rest was discarded. */
  onDrainComplete(): void;
  onAttachmentError(error: Error): void;
}

type State = 'idle' | 'reading' | 'draining' | 'finished' | 'drained' | 'errored' | 'aborted';

/**
 * One incoming attachment, read one chunk per `requestAttachmentData()` (the reference's
 * `SingleRestLiAttachmentReader`): demand goes back to the source, so a consumer that does not ask holds
 * the socket still. It is also a writer, so an incoming attachment can be appended to an outgoing request
 * or response as it is and stream through without buffering (wire facts §6.6: Rest.li keeps only the
 * Content-ID of a forwarded part; Svc keeps its Content-Type as well).
 */
export class SingleAttachmentReader implements AttachmentDataSourceWriter {
  readonly #id: string;
  readonly #contentType: string | undefined;
  readonly #channel: ChunkChannel;
  /** Called once when this attachment's stream has ended (read, drained, failed): the next one may come. */
  readonly #settled: (error?: Error) => void;
  #callback: SingleAttachmentReaderCallback | undefined;
  #state: State = 'idle';
  /** Set while forwarded as a writer. */
  #handle: WriteHandle | undefined;
  /** Why the attachment failed, kept until its consumer has heard of it. */
  #error: Error | undefined;
  #errorReported = false;

  /** @internal made by the attachment reader (or the multipart layer) for each attachment part */
  constructor(
    id: string,
    channel: ChunkChannel,
    settled: (error?: Error) => void = () => undefined,
    contentType?: string,
  ) {
    this.#id = id;
    this.#contentType = contentType;
    this.#channel = channel;
    this.#settled = settled;
    channel.setListener({
      onChunk: (chunk) => this.#onChunk(chunk),
      onDone: () => this.#onEnd(),
      onError: (error) => this.#onError(error),
    });
  }

  /** The attachment's identifier (its part's Content-ID, without angle brackets). */
  getAttachmentID(): string {
    return this.#id;
  }

  /**
   * The part's `Content-Type`, if it had one (Rest.li's writers send none). Kept when the attachment is
   * forwarded, unlike Rest.li, which re-emits a forwarded part with its Content-ID alone.
   */
  getContentType(): string | undefined {
    return this.#contentType;
  }

  /** Registers the consumer; once only, before reading. */
  registerCallback(callback: SingleAttachmentReaderCallback): void {
    if (this.#callback !== undefined) {
      throw new AttachmentStateError(`attachment '${this.#id}' already has a reader callback`);
    }
    this.#callback = callback;
  }

  /** Asks for the next chunk: `onAttachmentDataAvailable`, or `onFinished` at the end. One request at a time. */
  requestAttachmentData(): void {
    if (this.#callback === undefined) {
      throw new AttachmentStateError(`register a callback on attachment '${this.#id}' before reading it`);
    }
    if (this.#state === 'reading') {
      throw new AttachmentStateError(`attachment '${this.#id}' already has a request for data outstanding`);
    }
    // a failure that came before anyone asked (the exchange broke off while the consumer was getting ready,
    // opening a file, say) is the answer to the first request, so that no consumer waits forever
    if (this.#reportError()) return;
    if (this.#state !== 'idle') {
      throw new AttachmentStateError(`attachment '${this.#id}' is ${this.#state}: no more data to read`);
    }
    this.#state = 'reading';
    this.#channel.request();
  }

  /** Discards the rest of the attachment; `onDrainComplete` follows. */
  drainAttachment(): void {
    if (this.#state === 'draining' || this.#state === 'finished' || this.#state === 'drained') return;
    if (this.#state === 'errored' || this.#state === 'aborted') return;
    const outstanding = this.#state === 'reading';
    this.#state = 'draining';
    if (!outstanding) this.#channel.request();
  }

  /** True once the attachment was read to its end, drained, or failed. */
  isFinished(): boolean {
    return this.#state !== 'idle' && this.#state !== 'reading' && this.#state !== 'draining';
  }

  // --- as a writer: forwarding this attachment onward ---------------------------------------------------

  onInit(handle: WriteHandle): void {
    this.#handle = handle;
    this.registerCallback({
      onAttachmentDataAvailable: (chunk) => {
        handle.write(chunk);
        if (handle.remaining() > 0) this.requestAttachmentData();
      },
      onFinished: () => handle.done(),
      onDrainComplete: () => handle.done(),
      onAttachmentError: (error) => handle.error(error),
    });
    // failed before it was forwarded: the outgoing stream fails now rather than waiting for data
    this.#reportError();
  }

  onWritePossible(): void {
    if (this.#state === 'idle' && this.#handle !== undefined && this.#handle.remaining() > 0) {
      this.requestAttachmentData();
    }
  }

  /** The outgoing side went away: the rest of this attachment is discarded (the source is not stalled). */
  onAbort(reason: Error): void {
    void reason;
    this.drainAttachment();
  }

  // --- from the channel ------------------------------------------------------------------------------------

  #onChunk(chunk: Uint8Array): void {
    if (this.#state === 'draining') {
      this.#channel.request();
      return;
    }
    if (this.#state !== 'reading') return;
    this.#state = 'idle';
    this.#callback!.onAttachmentDataAvailable(chunk);
  }

  #onEnd(): void {
    const draining = this.#state === 'draining';
    if (!draining && this.#state !== 'reading' && this.#state !== 'idle') return;
    this.#state = draining ? 'drained' : 'finished';
    // the consumer hears of the end before the next attachment is asked for (it may come synchronously)
    if (draining) this.#callback?.onDrainComplete();
    else this.#callback!.onFinished();
    this.#settled();
  }

  #onError(error: Error): void {
    if (this.isFinished()) return;
    this.#state = 'errored';
    this.#error = error;
    this.#reportError();
    this.#settled(error);
  }

  /** @internal the whole message failed or was abandoned: this attachment fails with it */
  fail(error: Error): void {
    if (this.isFinished()) return;
    this.#state = 'aborted';
    this.#error = error;
    this.#channel.cancel(error);
    this.#reportError();
  }

  /** Tells the registered consumer of the failure, once; true when there was one to tell. */
  #reportError(): boolean {
    if (this.#error === undefined || this.#errorReported || this.#callback === undefined) return false;
    this.#errorReported = true;
    this.#callback.onAttachmentError(this.#error);
    return true;
  }
}
