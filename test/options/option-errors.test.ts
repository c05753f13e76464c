import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import type { GuardOptions } from '../../src/index.js';

function attempt(options: unknown): string {
  try {
    createGuard(options as GuardOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
  return 'no error';
}

describe('option messages', () => {
  it('describes a revoked proxy as an object, not an array', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(attempt(proxy)).toBe('agent-loopguard: option "options" must be an object, got a value of type object.');
  });

  it('describes a revoked array proxy as an object too: it can no longer be told from one', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(attempt({ budget: proxy })).toBe('agent-loopguard: option "budget" must be an object, got a value of type object.');
  });

  it('names an option whose keys cannot be listed', () => {
    const unlistable = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    expect(attempt({ noProgress: unlistable })).toBe('agent-loopguard: option "noProgress" must be an object, got a value of type object.');
  });

  it('rejects warning ratios that only compare like numbers', () => {
    expect(attempt({ budget: { warnAt: '0.5' } })).toBe(
      'agent-loopguard: option "budget.warnAt" must be a number greater than 0 and at most 1, got "0.5".',
    );
    expect(attempt({ budget: { maxCostUsd: { limit: 1, warnAt: [0.5] } } })).toBe(
      'agent-loopguard: option "budget.maxCostUsd.warnAt" must be a number greater than 0 and at most 1, got an array.',
    );
    expect(attempt({ budget: { warnAt: true } })).toBe(
      'agent-loopguard: option "budget.warnAt" must be a number greater than 0 and at most 1, got true.',
    );
  });

  it('accepts the ratio bounds it documents', () => {
    expect(attempt({ budget: { warnAt: 1, maxCostUsd: { limit: 1, warnAt: Number.MIN_VALUE } } })).toBe('no error');
  });

  it('names an option whose getter throws, with the full path', () => {
    const options = {
      budget: Object.defineProperty({}, 'maxCostUsd', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      }),
    };
    expect(attempt(options)).toBe('agent-loopguard: option "budget.maxCostUsd" could not be read: reading it threw.');
  });
});

describe('warnBefore', () => {
  it.each(['repeatedToolCall', 'oscillation', 'noProgress', 'stagnation'])('of %s is an integer from 1 to 1,000, or false', (detector) => {
    for (const value of [0, 1_001, 1.5, true, '1', null]) {
      expect(attempt({ [detector]: { warnBefore: value } })).toMatch(new RegExp(`^agent-loopguard: option "${detector}\\.warnBefore" must be an integer from 1 to 1000, got `));
    }
    for (const value of [1, 1_000, false, undefined]) expect(attempt({ [detector]: { warnBefore: value } })).toBe('no error');
  });
});
