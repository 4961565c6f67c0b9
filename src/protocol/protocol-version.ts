import { ProtocolVersionError } from './errors';

/**
 * Protocol versions (wire facts §3.1): `major.minor.patch`, compared numerically. Only 1.0.0 and 2.0.0
 * exist; Svc speaks the 2.0.0 URI grammar.
 */
export class ProtocolVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;

  constructor(major: number, minor: number, patch: number) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
  }

  /**
   * Parses `x.y.z`: exactly three dot-separated decimal integers; a `-suffix` on the patch part is ignored
   * (`2.0.0-SNAPSHOT` is 2.0.0). Stricter than the reference's `Version`, which also takes `+1` and a
   * trailing dot: in doubt, the strict behaviour.
   *
   * @throws ProtocolVersionError `SVC_ERR_PROTOCOL_VERSION_MALFORMED` (400) `Illegal version <text> specified. Supported versions: 1.0.0 to 2.0.0.`
   */
  static parse(text: string): ProtocolVersion {
    const m = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-.*)?$/s.exec(text);
    if (m === null) {
      throw new ProtocolVersionError(
        'SVC_ERR_PROTOCOL_VERSION_MALFORMED',
        `Illegal version ${text} specified. ${SUPPORTED_VERSIONS_TEXT}`,
        BASELINE_PROTOCOL_VERSION.toString(),
      );
    }
    return new ProtocolVersion(Number(m[1]), Number(m[2]), Number(m[3]));
  }

  /** Negative, zero or positive as this version is lower than, equal to or higher than `other`. */
  compareTo(other: ProtocolVersion): number {
    return this.major !== other.major
      ? Math.sign(this.major - other.major)
      : this.minor !== other.minor
        ? Math.sign(this.minor - other.minor)
        : Math.sign(this.patch - other.patch);
  }

  equals(other: unknown): boolean {
    return other instanceof ProtocolVersion && this.compareTo(other) === 0;
  }

  /** `major.minor.patch` (a parsed suffix is not kept). */
  toString(): string {
    return `${this.major}.${this.minor}.${this.patch}`;
  }
}

/** 1.0.0: assumed when a request carries no version header. */
export const BASELINE_PROTOCOL_VERSION = new ProtocolVersion(1, 0, 0);
/** 2.0.0: what Svc clients send, and the newest version a server accepts. */
export const LATEST_PROTOCOL_VERSION = new ProtocolVersion(2, 0, 0);
/** Lowest version a server accepts. */
export const OLDEST_SUPPORTED_PROTOCOL_VERSION = BASELINE_PROTOCOL_VERSION;
/** Highest version a server accepts (the reference's "next" version, equal to the latest). */
export const NEXT_PROTOCOL_VERSION = LATEST_PROTOCOL_VERSION;

/** The sentence error messages end with. */
const SUPPORTED_VERSIONS_TEXT = `Supported versions: ${OLDEST_SUPPORTED_PROTOCOL_VERSION.toString()} to ${NEXT_PROTOCOL_VERSION.toString()}.`;

/** A request's protocol version as a server resolves it. */
export interface RequestProtocolVersion {
  readonly version: ProtocolVersion;
  /** What the response's version header says: the version, or `1.0.0` when the request had none. */
  readonly responseValue: string;
}

/**
 * The protocol version of a request from its version header value (wire facts §3.1): absent means 1.0.0;
 * a version outside [1.0.0, 2.0.0] is rejected. Every response, errors included, echoes
 * {@link RequestProtocolVersion.responseValue}; for a rejected header, the error's `responseVersion`.
 *
 * @throws ProtocolVersionError 400 (`SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED`):
 *   `Rest.li protocol version X used by the client is not supported! Supported versions: 1.0.0 to 2.0.0.`
 *   (the reference's sentence, which clients may match on, then the range), answered with the newest
 *   version rather than X: a version the server does not speak is not echoed as if it did; or
 *   `Illegal version X specified.` (malformed; the reference lets that escape as a 500, Svc answers 400 and
 *   echoes `1.0.0`)
 */
export function resolveRequestProtocolVersion(headerValue: string | undefined): RequestProtocolVersion {
  if (headerValue === undefined) {
    return { version: BASELINE_PROTOCOL_VERSION, responseValue: BASELINE_PROTOCOL_VERSION.toString() };
  }
  const version = ProtocolVersion.parse(headerValue);
  const text = version.toString();
  if (
    version.compareTo(OLDEST_SUPPORTED_PROTOCOL_VERSION) < 0 ||
    version.compareTo(NEXT_PROTOCOL_VERSION) > 0
  ) {
    throw new ProtocolVersionError(
      'SVC_ERR_PROTOCOL_VERSION_UNSUPPORTED',
      `Rest.li protocol version ${text} used by the client is not supported! ${SUPPORTED_VERSIONS_TEXT}`,
      LATEST_PROTOCOL_VERSION.toString(),
    );
  }
  return { version, responseValue: text };
}
