import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_REPLAY_STEPS, toStopWhen } from '../../src/adapters/to-stop-when.js';
import type { AiSdkStepLike } from '../../src/adapters/to-guard-step.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { Guard, GuardOptions, StopVerdict } from '../../src/types.js';

/** An AI SDK-shaped step calling `tool` with `input`. */
function callStep(tool: string, input: unknown, finishReason = 'tool-calls'): AiSdkStepLike {
  return { finishReason, toolCalls: [{ toolCallId: `${tool}-${JSON.stringify(input)}`, toolName: tool, input }] };
}

/** A factory whose guards count their checks, to measure the work a condition does. */
function countingFactory(options?: GuardOptions): { factory: () => Guard; checks: () => number; guards: () => number } {
  let checks = 0;
  let guards = 0;
  const factory = (): Guard => {
    guards++;
    const guard = createGuard(options);
    return {
      check: (step) => {
        checks++;
        return guard.check(step);
      },
      peek: (step) => guard.peek(step),
      judgeCall: (call, earlier) => guard.judgeCall(call, earlier),
      screen: () => guard.screen(),
      reset: () => {
        guard.reset();
      },
      summary: () => guard.summary(),
      snapshot: () => guard.snapshot(),
      get history() {
        return guard.history;
      },
    };
  };
  return { factory, checks: () => checks, guards: () => guards };
}

/** The reference answer: a brand-new condition, so a fresh guard replays every step. */
const freshAnswer = (steps: readonly AiSdkStepLike[], options?: GuardOptions): boolean =>
  toStopWhen(() => createGuard(options))({ steps });

const repeat = callStep('search', { query: 'same' });

afterEach(() => {
  vi.useRealTimers();
});

describe('toStopWhen', () => {
  it('stops on the step where the guard says stop, not before', () => {
    const condition = toStopWhen();
    expect(condition({ steps: [repeat] })).toBe(false);
    expect(condition({ steps: [repeat, repeat] })).toBe(false);
    expect(condition({ steps: [repeat, repeat, repeat] })).toBe(true);
  });

  it('answers false for no steps or unusable input, without creating a guard', () => {
    const { factory, guards } = countingFactory();
    const condition = toStopWhen(factory);
    expect(condition({ steps: [] })).toBe(false);
    expect(condition(undefined as unknown as { steps: [] })).toBe(false);
    expect(condition({ steps: 'steps' } as unknown as { steps: [] })).toBe(false);
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(condition({ steps: proxy })).toBe(false);
    expect(guards()).toBe(0);
  });

  it('counts only the verdict on the latest step', () => {
    const truncated = { finishReason: 'length', text: 'cut off' };
    const condition = toStopWhen();
    expect(condition({ steps: [truncated] })).toBe(true);
    expect(condition({ steps: [truncated, callStep('read', 1)] })).toBe(false);
  });

  it('calls onStop with the verdict and the steps each time it answers true', () => {
    const onStop = vi.fn<(verdict: StopVerdict, steps: readonly AiSdkStepLike[]) => void>();
    const condition = toStopWhen({}, { onStop });
    const steps = [repeat, repeat];
    condition({ steps });
    expect(onStop).not.toHaveBeenCalled();

    steps.push(repeat);
    condition({ steps });
    condition({ steps });
    expect(onStop).toHaveBeenCalledTimes(2);
    const [verdict, given] = onStop.mock.calls[0] ?? [];
    expect(verdict).toMatchObject({ reason: 'repeated-tool-call', evidence: { count: 3, stepIndexes: [0, 1, 2] } });
    expect(given).toBe(steps);
  });

  it('lets an error thrown by onStop propagate', () => {
    const condition = toStopWhen(
      { maxSteps: 1 },
      {
        onStop: () => {
          throw new Error('logger down');
        },
      },
    );
    expect(() => condition({ steps: [{}] })).toThrow('logger down');
  });

  it('takes GuardOptions and throws their TypeError at once', () => {
    expect(toStopWhen({ maxSteps: 2 })({ steps: [{}, {}] })).toBe(true);
    expect(toStopWhen({ maxSteps: 3 })({ steps: [{}, {}] })).toBe(false);
    expect(() => toStopWhen({ repeatedToolCall: { threshold: 1 } })).toThrow(TypeError);
    expect(() => toStopWhen({ repeatedToolCall: { threshold: 1 } })).toThrow(/repeatedToolCall\.threshold/);
    // Checked as given, before the clock is swapped out.
    expect(() => toStopWhen({ now: 'soon' } as unknown as GuardOptions)).toThrow(/"now"/);
    expect(() => toStopWhen(5 as unknown as GuardOptions)).toThrow(TypeError);
  });

  it('feeds the cost function into the budget', () => {
    const cost = vi.fn((usage: { outputTokens?: number | undefined }) => (usage.outputTokens ?? 0) / 1000);
    const condition = toStopWhen({ budget: { maxCostUsd: 1 } }, { cost });
    const step = { usage: { outputTokens: 500 } };
    expect(condition({ steps: [step] })).toBe(false);
    expect(condition({ steps: [step, step] })).toBe(true);
    expect(cost).toHaveBeenCalledTimes(2);
  });

  describe('idempotence', () => {
    it('answers the same however often it is asked', () => {
      const condition = toStopWhen();
      const steps = [repeat, repeat, repeat];
      const answers = Array.from({ length: 5 }, () => condition({ steps }));
      expect(answers).toEqual([true, true, true, true, true]);
    });

    it('carries nothing from one run over to the next', () => {
      const condition = toStopWhen();
      expect(condition({ steps: [repeat, repeat, repeat] })).toBe(true);
      // A new run with new step objects that look the same: it starts from nothing.
      const other = callStep('search', { query: 'same' });
      expect(condition({ steps: [other] })).toBe(false);
      expect(condition({ steps: [other, other] })).toBe(false);
    });

    it('replays from scratch when an earlier step is replaced', () => {
      const { factory, checks, guards } = countingFactory();
      const condition = toStopWhen(factory);
      const steps = [repeat, repeat];
      expect(condition({ steps })).toBe(false);
      steps[0] = callStep('read', 1);
      steps.push(repeat);
      expect(condition({ steps })).toBe(false);
      expect(freshAnswer(steps)).toBe(false);
      expect(guards()).toBe(2);
      expect(checks()).toBe(2 + 3);
    });

    it('replays a shorter prefix of the steps it has seen from scratch, with the same answers', () => {
      const { factory, checks } = countingFactory();
      const condition = toStopWhen(factory);
      const steps = [repeat, repeat, repeat, callStep('read', 1)];
      expect(condition({ steps })).toBe(false);
      expect(condition({ steps: steps.slice(0, 3) })).toBe(true);
      expect(condition({ steps: steps.slice(0, 2) })).toBe(false);
      expect(checks()).toBe(4 + 3 + 2);
    });

    it('resets the guard a factory hands back, so even a shared guard does not leak between runs', () => {
      const shared = createGuard();
      const condition = toStopWhen(() => shared);
      expect(condition({ steps: [repeat, repeat] })).toBe(false);
      const other = callStep('search', { query: 'same' });
      expect(condition({ steps: [other] })).toBe(false);
      expect(shared.history).toHaveLength(1);
    });

    it('ignores wall-clock time when given options: only step durations count', () => {
      vi.useFakeTimers();
      const options: GuardOptions = { budget: { maxDurationMs: 1000 } };
      const condition = toStopWhen(options);
      const plain = createGuard(options);
      const steps: AiSdkStepLike[] = [{ performance: { stepTimeMs: 400 } }];
      expect(condition({ steps })).toBe(false);
      vi.advanceTimersByTime(60_000);
      // The same minute makes a guard with a running clock stop, which shows the clock really moved.
      expect(plain.check({ durationMs: 400 }).stop).toBe(true);
      expect(condition({ steps })).toBe(false);
      steps.push({ performance: { stepTimeMs: 599 } });
      expect(condition({ steps })).toBe(false);
      steps.push({ performance: { stepTimeMs: 1 } });
      expect(condition({ steps })).toBe(true);
    });

    it('replaces a clock given in the options', () => {
      let time = 0;
      const options: GuardOptions = { budget: { maxDurationMs: 10 }, now: () => (time += 1000) };
      const steps = [{ text: 'one' }, { text: 'two' }, { text: 'three' }];
      expect(toStopWhen(options)({ steps })).toBe(false);
      // The same options stop a guard at once: the clock given really runs.
      expect(createGuard(options).check(steps[0] ?? {})).toMatchObject({ stop: true, code: 'BUDGET_DURATION_MS' });
    });

    it('starts over after a check threw, never reusing a guard left half-way', () => {
      const { factory, checks, guards } = countingFactory({
        custom: (_history, step) => {
          if (step.text === 'explode') throw new Error('detector bug');
          return undefined;
        },
      });
      const condition = toStopWhen(factory);
      const steps: AiSdkStepLike[] = [repeat, repeat];
      expect(condition({ steps })).toBe(false);
      const copy = [...steps, { text: 'explode' }];
      expect(() => condition({ steps: copy })).toThrow('detector bug');
      steps.push(repeat);
      expect(condition({ steps })).toBe(true);
      expect(guards()).toBe(2);
      expect(checks()).toBe(2 + 1 + 3);
    });

    it('starts over after cost threw', () => {
      let failNext = true;
      const condition = toStopWhen(
        { budget: { maxCostUsd: 2 } },
        {
          cost: () => {
            if (failNext) {
              failNext = false;
              throw new Error('price list unavailable');
            }
            return 1;
          },
        },
      );
      const steps: AiSdkStepLike[] = [{}];
      expect(() => condition({ steps })).toThrow('price list unavailable');
      expect(condition({ steps })).toBe(false);
      steps.push({});
      expect(condition({ steps })).toBe(true);
    });

    // 200 runs of up to 60 questions: seconds on a busy machine, so twice the 60 s every test gets.
    it('agrees with a fresh replay for any sequence of questions (property)', () => {
      const stepPool: AiSdkStepLike[] = [
        callStep('search', { query: 'a' }),
        callStep('search', { query: 'a' }),
        callStep('read', { page: 1 }),
        callStep('read', { page: 2 }),
        { text: 'thinking', finishReason: 'other' },
        { text: 'done', finishReason: 'stop' },
        { finishReason: 'length' },
        { toolCalls: [{ toolCallId: 'x', toolName: 'read', input: { page: 1 } }], usage: { totalTokens: 300 } },
      ];
      const options: GuardOptions = { maxSteps: 12, budget: { maxTotalTokens: 1000 } };
      const question = fc.record({
        run: fc.integer({ min: 0, max: 2 }),
        action: fc.constantFrom('grow', 'grow', 'grow', 'ask', 'copy', 'shrink', 'replace'),
        step: fc.integer({ min: 0, max: stepPool.length - 1 }),
        at: fc.nat(),
      });
      const answers = { true: 0, false: 0 };
      fc.assert(
        fc.property(fc.array(question, { minLength: 20, maxLength: 60 }), (questions) => {
          const condition = toStopWhen(options);
          const runs: AiSdkStepLike[][] = [[], [], []];
          for (const { run, action, step, at } of questions) {
            let steps = runs[run] ?? [];
            const chosen = stepPool[step] ?? {};
            if (action === 'grow') steps.push(chosen);
            if (action === 'copy') steps = [...steps];
            if (action === 'shrink') steps = steps.slice(0, at % (steps.length + 1));
            if (action === 'replace' && steps.length > 0) steps[at % steps.length] = chosen;
            runs[run] = steps;
            const expected = freshAnswer(steps, options);
            expect(condition({ steps })).toBe(expected);
            if (expected) answers.true++;
            else answers.false++;
          }
        }),
        { numRuns: 200 },
      );
      // Both answers must have come up often, or the property proves little.
      expect(answers.true).toBeGreaterThan(1000);
      expect(answers.false).toBeGreaterThan(1000);
    }, 120_000);
  });

  describe('linear cost', () => {
    it('checks each step once over a run when the SDK passes the same growing array', () => {
      const { factory, checks, guards } = countingFactory({ maxSteps: false, repeatedToolCall: false, noProgress: false, stagnation: false });
      const condition = toStopWhen(factory);
      const steps: AiSdkStepLike[] = [];
      for (let index = 0; index < 200; index++) {
        steps.push(callStep('read', { page: index % 7 }));
        expect(condition({ steps })).toBe(false);
      }
      // A full replay on every call would cost 200 * 201 / 2 = 20,100 checks.
      expect(checks()).toBe(200);
      steps.push({ finishReason: 'length' });
      expect(condition({ steps })).toBe(true);
      expect(checks()).toBe(201);
      expect(guards()).toBe(1);
    });

    it('stays linear when every call gets a copy of the array', () => {
      const { factory, checks } = countingFactory({ maxSteps: false });
      const condition = toStopWhen(factory);
      let steps: AiSdkStepLike[] = [];
      for (let index = 0; index < 100; index++) {
        steps = [...steps, callStep('read', { page: index })];
        condition({ steps });
      }
      expect(checks()).toBe(100);
    });

    it('stays linear for runs that interleave (one condition shared by concurrent runs)', () => {
      const { factory, checks, guards } = countingFactory({ maxSteps: false });
      const condition = toStopWhen(factory);
      const first: AiSdkStepLike[] = [];
      const second: AiSdkStepLike[] = [];
      for (let index = 0; index < 50; index++) {
        first.push(callStep('read', { page: index }));
        condition({ steps: first });
        second.push(callStep('search', { query: index }));
        condition({ steps: second });
      }
      expect(checks()).toBe(100);
      expect(guards()).toBe(2);
    });
  });
});

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

/** Steps behind an array proxy that logs the items read and claims the lengths it is given, one per read (the last one after that). */
function loggedSteps(steps: readonly AiSdkStepLike[], ...lengths: number[]) {
  const reads: string[] = [];
  const claimed = lengths.length === 0 ? [steps.length] : lengths;
  const proxy = new Proxy([...steps], {
    get(target, key, receiver) {
      if (key === 'length') return claimed.length > 1 ? claimed.shift() : claimed[0];
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.push(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { proxy, reads, claim: (length: number) => claimed.splice(0, claimed.length, length) };
}

describe('toStopWhen reading the steps', () => {
  it('reads each step once per call and none past the length it claims, and nothing of an empty array', () => {
    const { factory, checks } = countingFactory();
    const condition = toStopWhen(factory);
    const logged = loggedSteps([callStep('read', 1), callStep('read', 2), callStep('read', 3)]);
    expect(condition({ steps: logged.proxy })).toBe(false);
    expect(logged.reads).toEqual(['0', '1', '2']);
    expect(checks()).toBe(3);
    // Asked again: the kept replay is known again by one identity comparison per step; nothing is checked again.
    logged.reads.length = 0;
    expect(condition({ steps: logged.proxy })).toBe(false);
    expect(logged.reads).toEqual(['0', '1', '2']);
    expect(checks()).toBe(3);
    // A shorter length is a shorter run: replayed from scratch, without reading past its end.
    logged.reads.length = 0;
    logged.claim(2);
    expect(condition({ steps: logged.proxy })).toBe(false);
    expect(logged.reads).toEqual(['0', '1']);
    expect(checks()).toBe(5);

    const empty = loggedSteps([]);
    expect(condition({ steps: empty.proxy })).toBe(false);
    expect(condition.snapshot(empty.proxy)).toMatchObject({ steps: 0 });
    expect(empty.reads).toEqual([]);
    expect(checks()).toBe(5);
  });

  it('answers false when the length it read first is gone, or shorter, when the steps are replayed', () => {
    const condition = toStopWhen();
    let reads = 0;
    const gone = new Proxy([STOP_STEP], {
      get(target, key, receiver) {
        if (key === 'length' && reads++ > 0) throw new Error('no');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(condition({ steps: gone })).toBe(false);
    expect(reads).toBe(2);
    expect(condition({ steps: loggedSteps([STOP_STEP, STOP_STEP], 2, 1).proxy })).toBe(false);
  });

  it('judges nothing, without creating a guard, when the length cannot be read the first time it asks', () => {
    const { factory, guards } = countingFactory();
    const condition = toStopWhen(factory);
    let lengthReads = 0;
    const late = new Proxy([STOP_STEP], {
      get(target, key, receiver) {
        if (key === 'length' && lengthReads++ === 0) throw new Error('not yet');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(condition({ steps: late })).toBe(false);
    expect(lengthReads).toBe(1);
    expect(guards()).toBe(0);
  });
});

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

  it('refuses, loudly and at once, more new steps than it checks in one call (a sparse array of 2^32 - 1 slots)', () => {
    const condition = toStopWhen();
    expect(() => condition({ steps: sparseSteps(2 ** 32 - 1) })).toThrow(TypeError);
    expect(() => condition({ steps: stepsClaimingLength(Infinity) })).toThrow('checks at most 100000 new steps per call');
    expect(() => condition({ steps: sparseSteps(MAX_REPLAY_STEPS + 1) })).toThrow(
      'toStopWhen was given 100001 steps it had not seen; it checks at most 100000 new steps per call.',
    );
    // Still usable afterwards.
    expect(condition({ steps: [STOP_STEP] })).toBe(true);
  });

  it('checks exactly the cap of new steps in one call', () => {
    const cheap = toStopWhen({ maxSteps: false, repeatedToolCall: false, oscillation: false, noProgress: false });
    expect(cheap({ steps: sparseSteps(MAX_REPLAY_STEPS) })).toBe(true);
  });

  it('keeps judging runs longer than 100,000 steps: a budget spent at step 150,000 stops the run', () => {
    const steps: AiSdkStepLike[] = Array.from({ length: 150_000 }, () => ({ usage: { totalTokens: 1 } }));
    const condition = toStopWhen({ maxSteps: false, noProgress: false, budget: { maxTotalTokens: 150_000 } });
    // The same array, growing, as the AI SDK passes it: each call checks only what is new.
    const given = steps.slice(0, 100_000);
    expect(condition({ steps: given })).toBe(false);
    given.push(...steps.slice(100_000, -1));
    expect(condition({ steps: given })).toBe(false);
    given.push({ usage: { totalTokens: 1 } });
    expect(condition({ steps: given })).toBe(true);
  });

  it('hands onStop the array it was given, not its copy', () => {
    const steps = [STOP_STEP];
    let received: unknown;
    toStopWhen({}, { onStop: (_verdict, given) => (received = given) })({ steps });
    expect(received).toBe(steps);
  });
});

describe('toStopWhen across invocations', () => {
  it('saves where it got to and goes on from there in the next invocation, as one condition over all the steps would', () => {
    const steps = [callStep('search', { q: 1 }), callStep('search', { q: 2 }), callStep('search', { q: 2 }), callStep('search', { q: 2 })];
    const options: GuardOptions = { repeatedToolCall: { threshold: 3 } };
    const whole = toStopWhen(options);
    const wholeAnswers = steps.map((_, index) => whole({ steps: steps.slice(0, index + 1) }));

    const first = toStopWhen(options);
    expect(first({ steps: steps.slice(0, 2) })).toBe(false);
    const saved = JSON.stringify(first.snapshot());
    // The next invocation's SDK call knows only its own steps.
    const second = toStopWhen(options, { snapshot: JSON.parse(saved) as unknown });
    const later = steps.slice(2);
    const secondAnswers = later.map((_, index) => second({ steps: later.slice(0, index + 1) }));
    expect([false, false, ...secondAnswers]).toEqual(wholeAnswers);
    expect(second.snapshot().steps).toBe(4);
  });

  it('saves the starting state before any step, refuses a snapshot with a factory, and has nothing to save after a throwing replay', () => {
    const fresh = toStopWhen({});
    expect(fresh.snapshot()).toMatchObject({ version: 3, steps: 0 });
    expect(() => toStopWhen(() => createGuard(), { snapshot: fresh.snapshot() })).toThrow(
      'toStopWhen takes a snapshot with GuardOptions, not with a guard factory.',
    );
    expect(() => toStopWhen({ maxSteps: 3 }, { snapshot: fresh.snapshot() })).toThrow('"maxSteps" differs');
    const throwing = toStopWhen({}, { cost: () => { throw new Error('no price'); } });
    expect(() => throwing({ steps: [callStep('a', 1)] })).toThrow('no price');
    expect(() => throwing.snapshot()).toThrow('the last replay of toStopWhen threw, so there is no state to save.');
  });

  it('saves the run it is given: snapshot(steps) of one of several runs sharing the condition', () => {
    const condition = toStopWhen({});
    const stuck = [callStep('search', { q: 1 }), callStep('search', { q: 1 })];
    const healthy = [callStep('search', { q: 2 })];
    condition({ steps: stuck });
    condition({ steps: healthy });
    expect(condition.snapshot(stuck)).toMatchObject({ steps: 2 });
    expect(condition.snapshot(healthy)).toMatchObject({ steps: 1 });
    // Without steps: the run judged last.
    expect(condition.snapshot()).toMatchObject({ steps: 1 });
  });

  it('says its frozen clock is custom, so a guard on Date.now restores it with the run\'s own time, never a false maxDurationMs stop', () => {
    const options: GuardOptions = { budget: { maxDurationMs: 60_000 } };
    const condition = toStopWhen(options);
    const steps: AiSdkStepLike[] = [{ ...callStep('search', { q: 1 }), performance: { stepTimeMs: 400 } }];
    expect(condition({ steps })).toBe(false);
    const saved = JSON.parse(JSON.stringify(condition.snapshot(steps))) as { clock: string; elapsedMs: number; startedAt: number };
    expect(saved).toMatchObject({ clock: 'custom', elapsedMs: 0, startedAt: 0 });
    // Restored under the default clock, Date.now: the frozen 0 is not taken for 1970.
    const restored = createGuard(options, { snapshot: saved });
    expect(restored.check({ toolCalls: [{ name: 'read', args: { page: 1 }, result: 'text' }] })).toEqual({ stop: false });
    // It counted the step durations it was given, as the condition did, and nothing else.
    expect(restored.summary().totals.durationMs).toBe(400);
  });
});
