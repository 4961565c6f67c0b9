import type { PartChannel, PartsChannel } from './channels';
import type { DataSourceIterator, DataSourceIteratorCallback } from './data-source';
import { AttachmentStateError, AttachmentStreamError } from './errors';
import { SingleAttachmentReader } from './single-attachment-reader';

/** What an {@link AttachmentReader} tells its consumer (brief, "AttachmentReaderCallback"). */
export interface AttachmentReaderCallback {
  /** The next attachment: the first after registration, each later one after the previous finished. */
  onNewAttachment(reader: SingleAttachmentReader): void;
  /** Every attachment was consumed. */
  onFinished(): void;
  /** After `drainAllAttachments()`: everything left was discarded. */
  onDrainComplete(): void;
  onStreamError(error: Error): void;
}

type State = 'new' | 'reading' | 'draining' | 'finished' | 'drained' | 'errored';

/** The identifier of an attachment part: its Content-ID, read with or without angle brackets. */
export function attachmentIdOf(part: PartChannel): string | undefined {
  const raw = part.headers.get('content-id');
  if (raw === undefined) return undefined;
  const id = raw.trim();
  return id.length >= 2 && id.startsWith('<') && id.endsWith('>') ? id.slice(1, -1) : id;
}

/**
 * The attachments of an incoming message, one at a time (the reference's `RestLiAttachmentReader`): a new
 * attachment is offered once the previous one finished, because the parts of a stream come in order. It is
 * a {@link DataSourceIterator}, so all of a request's attachments can be appended to an outgoing request or
 * response as they arrive.
 */
export class AttachmentReader implements DataSourceIterator {
  readonly #parts: PartsChannel;
  #callback: AttachmentReaderCallback | undefined;
  #state: State = 'new';
  #current: SingleAttachmentReader | undefined;
  #error: Error | undefined;

  constructor(parts: PartsChannel) {
    this.#parts = parts;
    parts.setListener({
      onPart: (part) => this.#onPart(part),
      onEnd: () => this.#onEnd(),
      onError: (error) => this.#onError(error),
    });
  }

  /** Registers the consumer (once) and asks for the first attachment. */
  registerAttachmentReaderCallback(callback: AttachmentReaderCallback): void {
    if (this.#callback !== undefined)
      throw new AttachmentStateError('the attachment reader already has a callback');
    this.#callback = callback;
    if (this.#state === 'new') {
      this.#state = 'reading';
      this.#parts.request();
    } else if (this.#state === 'errored') {
      // the stream failed before anyone listened: the consumer still hears of it
      callback.onStreamError(this.#error!);
    } else if (this.#state === 'drained') {
      callback.onDrainComplete();
    }
  }

  /** Discards every attachment not yet read (the current one's rest included); `onDrainComplete` follows. */
  drainAllAttachments(): void {
    if (
      this.#state === 'draining' ||
      this.#state === 'finished' ||
      this.#state === 'drained' ||
      this.#state === 'errored'
    )
      return;
    const started = this.#state !== 'new';
    this.#state = 'draining';
    const current = this.#current;
    // otherwise a request for the next part is outstanding already (made when the last one ended)
    if (!started) this.#parts.request();
    else if (current !== undefined && !current.isFinished()) current.drainAttachment();
  }

  /** True once a consumer registered (a callback, or as a data source iterator). */
  isRegistered(): boolean {
    return this.#callback !== undefined;
  }

  /** True once every attachment was read or drained (or the stream failed). */
  haveAllAttachmentsFinished(): boolean {
    return this.#state === 'finished' || this.#state === 'drained' || this.#state === 'errored';
  }

  registerDataSourceReaderCallback(callback: DataSourceIteratorCallback): void {
    this.registerAttachmentReaderCallback({
      onNewAttachment: (reader) => callback.onNewDataSource(reader),
      onFinished: () => callback.onFinished(),
      onDrainComplete: () => callback.onAbandonComplete(),
      onStreamError: (error) => callback.onStreamError(error),
    });
  }

  abandonAllDataSources(): void {
    this.drainAllAttachments();
  }

  #onPart(part: PartChannel): void {
    const id = attachmentIdOf(part);
    if (id === undefined) {
      const error = new AttachmentStreamError(
        'Illegally formed multipart mime envelope. RestLi attachment is missing the ContentID!',
      );
      part.body.cancel(error);
      this.#parts.cancel(error);
      this.#onError(error);
      return;
    }
    const reader = new SingleAttachmentReader(
      id,
      part.body,
      (error) => {
        if (error !== undefined) {
          // a part that breaks off leaves the rest of the message unreadable
          this.#parts.cancel(error);
          this.#onError(error);
        } else if (this.#state === 'reading' || this.#state === 'draining') this.#parts.request();
      },
      part.headers.get('content-type')?.trim(),
    );
    this.#current = reader;
    if (this.#state === 'draining') {
      reader.registerCallback(DISCARD);
      reader.drainAttachment();
      return;
    }
    this.#callback?.onNewAttachment(reader);
  }

  #onEnd(): void {
    if (this.#state === 'draining') {
      this.#state = 'drained';
      this.#callback?.onDrainComplete();
    } else if (this.#state === 'reading') {
      this.#state = 'finished';
      this.#callback?.onFinished();
    }
  }

  #onError(error: Error): void {
    if (this.haveAllAttachmentsFinished()) return;
    this.#state = 'errored';
    this.#error = error;
    this.#current?.fail(error);
    this.#callback?.onStreamError(error);
  }
}

const DISCARD = Object.freeze({
  onAttachmentDataAvailable: (): void => undefined,
  onFinished: (): void => undefined,
  onDrainComplete: (): void => undefined,
  onAttachmentError: (): void => undefined,
});
