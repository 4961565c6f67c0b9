import { RELAYED_SIGNAL_MS, StopSignals } from '../../src/runtime/stop-signals';

/** Each case: what happened (a stop begun otherwise, or a signal) at which millisecond, and what each signal means. */
const CASES: ReadonlyArray<{
  readonly name: string;
  readonly events: ReadonlyArray<readonly ['begin' | 'signal', number]>;
  readonly kinds: readonly string[];
}> = [
  { name: 'the first signal begins the stop', events: [['signal', 0]], kinds: ['first'] },
  {
    name: 'the same stop relayed a few milliseconds later is ignored (npm passing on a Ctrl-C)',
    events: [
      ['signal', 1000],
      ['signal', 1003],
    ],
    kinds: ['first', 'relayed'],
  },
  {
    name: 'a signal after the window cuts the shutdown short',
    events: [
      ['signal', 1000],
      ['signal', 1000 + RELAYED_SIGNAL_MS],
    ],
    kinds: ['first', 'again'],
  },
  {
    name: 'the window runs from the first signal, not from the last relay',
    events: [
      ['signal', 0],
      ['signal', RELAYED_SIGNAL_MS - 1],
      ['signal', RELAYED_SIGNAL_MS + 1],
    ],
    kinds: ['first', 'relayed', 'again'],
  },
  {
    name: "a signal just after a stop begun otherwise (a worker's runner asking) is that stop relayed",
    events: [
      ['begin', 50],
      ['signal', 60],
    ],
    kinds: ['relayed'],
  },
  {
    name: 'a signal long after a stop begun otherwise is a second one',
    events: [
      ['begin', 50],
      ['signal', 50 + 10 * RELAYED_SIGNAL_MS],
    ],
    kinds: ['again'],
  },
  {
    name: 'a later begin does not move the window',
    events: [
      ['signal', 0],
      ['begin', RELAYED_SIGNAL_MS],
      ['signal', RELAYED_SIGNAL_MS + 10],
    ],
    kinds: ['first', 'again'],
  },
];

describe('StopSignals', () => {
  it.each(CASES)('$name', ({ events, kinds }) => {
    const signals = new StopSignals();
    const seen: string[] = [];
    for (const [what, at] of events) {
      if (what === 'begin') signals.begin(at);
      else seen.push(signals.classify(at));
    }
    expect(seen).toEqual(kinds);
  });

  it('takes a window of its own', () => {
    const signals = new StopSignals(10);
    expect([signals.classify(0), signals.classify(9), signals.classify(10)]).toEqual([
      'first',
      'relayed',
      'again',
    ]);
  });
});
