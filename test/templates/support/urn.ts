/**
 * A custom class for the binding tests: an immutable URN (`urn:<namespace>:<rest>`), registered with its
 * coercer when this module loads (the generated code imports it, so it loads before any value is converted).
 */
import { ClassCastException, TemplateOutputCastException, registerCoercer } from '../../../src';

export class Urn {
  readonly namespace: string;
  readonly specific: string;

  constructor(namespace: string, specific: string) {
    this.namespace = namespace;
    this.specific = specific;
    Object.freeze(this);
  }

  static parse(text: string): Urn | undefined {
    const m = /^urn:([a-z0-9][a-z0-9-]*):(.+)$/i.exec(text);
    return m === null ? undefined : new Urn(m[1]!, m[2]!);
  }

  toString(): string {
    return `urn:${this.namespace}:${this.specific}`;
  }
}

registerCoercer(Urn, {
  coerceInput(value: Urn) {
    if (value.specific === '') throw new ClassCastException('empty URN');
    return value.toString();
  },
  coerceOutput(data) {
    const urn = typeof data === 'string' ? Urn.parse(data) : undefined;
    if (urn === undefined) throw new TemplateOutputCastException(`${String(data)} is not a URN`);
    return urn;
  },
});
