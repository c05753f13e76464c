/**
 * The step replayer on its own: what it answers for input that is not an array, and which replay it keeps. Its use
 * by the hooks is tested in to-stop-when.test.ts and to-agent-settings.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createStepReplayer } from '../../src/adapters/step-replayer.js';
import { createGuard } from '../../src/guard/create-guard.js';

const repeat = { toolCalls: [{ toolCallId: 'a', toolName: 'search', input: { query: 'same' } }] };

describe('createStepReplayer', () => {
  it('answers undefined for anything that is not a readable array, without creating a guard', () => {
    const factory = vi.fn(() => createGuard());
    const replayer = createStepReplayer(factory, {}, 'test');
    const { proxy, revoke } = Proxy.revocable([repeat], {});
    revoke();
    for (const given of [undefined, null, 'steps', 1, { 0: repeat, length: 1 }, proxy]) {
      expect(replayer.replay(given)).toBeUndefined();
    }
    expect(factory).not.toHaveBeenCalled();
    // Nothing was replayed, so the state to save is a new guard's.
    expect(replayer.snapshot()).toMatchObject({ steps: 0 });
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('keeps the replay of an array that goes on growing, and the verdict of each step', () => {
    const replayer = createStepReplayer({}, {}, 'test');
    const steps = [repeat, repeat];
    const first = replayer.replay(steps);
    steps.push(repeat);
    const second = replayer.replay(steps);
    expect(second).toBe(first);
    expect(second?.verdicts.map((verdict) => verdict.stop)).toEqual([false, false, true]);
    expect(second?.seen).toEqual(steps);
    expect(second?.broken).toBe(false);
    expect(replayer.snapshot()).toMatchObject({ steps: 3, stops: 1 });
  });
});
