/**
 * processUniqueId (src/runtime/request-id.ts): a v4 UUID's first 24 characters drawn once per process, then
 * a 12-digit hexadecimal counter; made from a cached head and a table of the last two digits, so the
 * counter is checked across the 256-id runs the head is made for.
 */
import { processUniqueId } from '../../src';
import { isLastProcessUniqueId } from '../../src/runtime/request-id';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('processUniqueId', () => {
  it('counts up by one in its last 12 hex digits, across runs of 256, under one prefix, in a UUID’s shape', () => {
    const ids = Array.from({ length: 1_300 }, () => processUniqueId());
    const prefix = ids[0]!.slice(0, 24);
    let previous = Number.parseInt(ids[0]!.slice(24), 16);
    for (const id of ids.slice(1)) {
      expect(id).toMatch(UUID_SHAPE);
      expect(id.slice(0, 24)).toBe(prefix);
      const counter = Number.parseInt(id.slice(24), 16);
      expect(counter).toBe(previous + 1);
      previous = counter;
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('knows the id it made last, and only that one', () => {
    const first = processUniqueId();
    const last = processUniqueId();
    expect(isLastProcessUniqueId(last)).toBe(true);
    expect(isLastProcessUniqueId([...last].join(''))).toBe(true);
    expect(isLastProcessUniqueId(first)).toBe(false);
  });
});
