import { describe, expect, it } from 'vitest';
import { MAX_REPLAY_STEPS } from '../../src/adapters/to-stop-when.js';
import { toStopWhen } from '../../src/index.js';
import type { AiSdkStepLike } from '../../src/index.js';

const STOP_STEP: AiSdkStepLike = { text: 'Done.', finishReason: 'stop' };

function stepsClaimingLength(length: unknown): AiSdkStepLike[] {
  return new Proxy([STOP_STEP], {
    get(target, key, receiver) {
      return key === 'length' ? length : (Reflect.get(target, key, receiver) as unknown);
    },
  });
}

function sparseSteps(length: number): AiSdkStepLike[] {
  const steps: AiSdkStepLike[] = [];
  steps.length = length;
  steps[length - 1] = STOP_STEP;
  return steps;
}

describe('toStopWhen on a steps array that cannot be read', () => {
  it('answers false for array proxies whose length or items throw, instead of throwing', () => {
    const condition = toStopWhen();
    expect(condition({ steps: stepsClaimingLength(Symbol('length')) })).toBe(false);
    expect(condition({ steps: stepsClaimingLength({ valueOf: () => { throw new Error('no'); } }) })).toBe(false);
    const { proxy, revoke } = Proxy.revocable([STOP_STEP], {});
    revoke();
    expect(condition({ steps: proxy })).toBe(false);
    const throwingItem = new Proxy([STOP_STEP], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('no');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(condition({ steps: throwingItem })).toBe(false);
    // The condition still works afterwards.
    expect(condition({ steps: [STOP_STEP] })).toBe(true);
  });

  it('does not read a steps array longer than the cap (a sparse array of 2^32 - 1 slots answers at once)', () => {
    const condition = toStopWhen();
    expect(condition({ steps: sparseSteps(2 ** 32 - 1) })).toBe(false);
    expect(condition({ steps: stepsClaimingLength(Infinity) })).toBe(false);
    expect(condition({ steps: sparseSteps(MAX_REPLAY_STEPS + 1) })).toBe(false);
  });

  it('reads a steps array of exactly the cap', () => {
    const cheap = toStopWhen({ maxSteps: false, repeatedToolCall: false, oscillation: false, noProgress: false });
    expect(cheap({ steps: sparseSteps(MAX_REPLAY_STEPS) })).toBe(true);
  });

  it('hands onStop the array it was given, not its copy', () => {
    const steps = [STOP_STEP];
    let received: unknown;
    toStopWhen({}, { onStop: (_verdict, given) => (received = given) })({ steps });
    expect(received).toBe(steps);
  });
});
