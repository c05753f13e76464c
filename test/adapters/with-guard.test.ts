import { describe, expect, it } from 'vitest';
import { withGuard } from '../../src/adapters/with-guard.js';
import { createGuard } from '../../src/guard/create-guard.js';
import type { Guard, GuardStep } from '../../src/types.js';

const search = (query: string): GuardStep => ({
  finishReason: 'tool-calls',
  toolCalls: [{ name: 'search', args: { query } }],
});

/** Collects everything a `for await` loop receives. */
async function drain<Step>(source: AsyncIterable<Step>): Promise<Step[]> {
  const received: Step[] = [];
  for await (const step of source) received.push(step);
  return received;
}

/** An async generator that records how far it got and whether its cleanup ran. */
function trackedAgent(steps: () => GuardStep, limit = 100) {
  const log = { produced: 0, closed: false };
  async function* agent(): AsyncGenerator<GuardStep> {
    try {
      while (log.produced < limit) {
        log.produced++;
        await Promise.resolve();
        yield steps();
      }
    } finally {
      log.closed = true;
    }
  }
  return { agent, log };
}

/** A sync iterable whose iterator reports `return()`. */
function trackedIterable(steps: readonly GuardStep[]) {
  const log = { pulled: 0, returned: 0 };
  const iterable: Iterable<GuardStep> = {
    [Symbol.iterator]() {
      let index = 0;
      return {
        next() {
          const step = steps[index++];
          if (step === undefined) return { done: true, value: undefined };
          log.pulled++;
          return { done: false, value: step };
        },
        return() {
          log.returned++;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, log };
}

describe('withGuard', () => {
  it('yields the step that triggers the stop, then ends and closes an async source', async () => {
    const { agent, log } = trackedAgent(() => search('same'));
    const guarded = withGuard(agent(), createGuard());
    expect(guarded.verdict).toBeUndefined();

    const received = await drain(guarded);

    expect(received).toHaveLength(3);
    expect(log.produced).toBe(3);
    expect(log.closed).toBe(true);
    expect(guarded.verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 3 } });
  });

  it('has the verdict on a step ready while that step is being handled', async () => {
    const guarded = withGuard([search('a'), search('a'), search('a')], createGuard());
    const verdicts: (boolean | undefined)[] = [];
    for await (const step of guarded) {
      expect(step.toolCalls?.[0]?.name).toBe('search');
      verdicts.push(guarded.verdict?.stop);
    }
    expect(verdicts).toEqual([false, false, true]);
  });

  it('closes a sync source when the guard stops, without pulling further', async () => {
    const steps = [search('x'), search('x'), search('x'), search('never reached')];
    const { iterable, log } = trackedIterable(steps);

    const received = await drain(withGuard(iterable, createGuard()));

    expect(received).toEqual(steps.slice(0, 3));
    expect(log).toEqual({ pulled: 3, returned: 1 });
  });

  it('passes everything through and leaves the source alone when it ends by itself', async () => {
    const steps = [search('a'), search('b'), { text: 'answer' }];
    const { iterable, log } = trackedIterable(steps);
    const guarded = withGuard(iterable, createGuard());

    expect(await drain(guarded)).toEqual(steps);
    expect(log).toEqual({ pulled: 3, returned: 0 });
    expect(guarded.verdict).toEqual({ stop: false });
  });

  it('passes an async source through to its end when the guard never stops', async () => {
    const { agent, log } = trackedAgent(() => ({ text: `t${String(Math.random())}` }), 3);
    const guarded = withGuard(agent(), createGuard());
    expect(await drain(guarded)).toHaveLength(3);
    expect(log).toEqual({ produced: 3, closed: true });
    expect(guarded.verdict).toEqual({ stop: false });
  });

  it('awaits promises in a sync source', async () => {
    const steps = [Promise.resolve(search('a')), search('b')];
    expect(await drain(withGuard(steps, createGuard()))).toEqual([search('a'), search('b')]);
  });

  it('closes a sync source of promises when one of them rejects, and propagates the rejection', async () => {
    const failure = Promise.reject(new Error('step failed'));
    const { iterable, log } = trackedIterable([search('a')]);
    const steps = iterable[Symbol.iterator]();
    const source: Iterable<GuardStep | Promise<GuardStep>> = {
      [Symbol.iterator]: () => ({
        next: () => (log.pulled === 0 ? steps.next() : { done: false, value: failure }),
        return: () => steps.return?.() ?? { done: true, value: undefined },
      }),
    };
    await expect(drain(withGuard(source, createGuard()))).rejects.toThrow('step failed');
    expect(log.returned).toBe(1);
  });

  it('does not close a sync source whose next() throws, and propagates the error', async () => {
    let returned = 0;
    const source: Iterable<GuardStep> = {
      [Symbol.iterator]: () => ({
        next: () => {
          throw new Error('iterator broke');
        },
        return: () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    await expect(drain(withGuard(source, createGuard()))).rejects.toThrow('iterator broke');
    expect(returned).toBe(0);
  });

  it('closes the source when the consumer breaks out early', async () => {
    const { agent, log } = trackedAgent((): GuardStep => ({ text: String(Math.random()) }));
    const guarded = withGuard(agent(), createGuard());
    for await (const step of guarded) {
      expect(step.text).toEqual(expect.any(String));
      break;
    }
    expect(log).toEqual({ produced: 1, closed: true });
    expect(guarded.verdict).toEqual({ stop: false });
  });

  it('closes the source and propagates when the guard throws', async () => {
    const { agent, log } = trackedAgent(() => search('a'));
    const guard = createGuard({
      custom: () => {
        throw new Error('detector bug');
      },
    });
    await expect(drain(withGuard(agent(), guard))).rejects.toThrow('detector bug');
    expect(log).toEqual({ produced: 1, closed: true });
  });

  it('throws a TypeError naming withGuard when the source yields something that is not a step, and closes it', async () => {
    for (const item of [null, 'step', 7, [search('a')]]) {
      const { agent, log } = trackedAgent(() => item as unknown as GuardStep);
      await expect(drain(withGuard(agent()))).rejects.toThrow(
        new TypeError(`agent-loopguard: withGuard's source must yield steps, objects such as { toolCalls, text, finishReason }, got ${item === null ? 'null' : item === 'step' ? '"step"' : item === 7 ? '7' : 'an array'}.`),
      );
      expect(log).toEqual({ produced: 1, closed: true });
    }
    await expect(drain(withGuard([undefined as unknown as GuardStep]))).rejects.toThrow(TypeError);
  });

  it('throws a TypeError naming withGuard for a source that is not iterable, before reading anything', () => {
    const takes = 'agent-loopguard: withGuard takes an iterable or async iterable of steps (an array, a generator, a stream), got';
    const revoked = Proxy.revocable([], {});
    revoked.revoke();
    for (const [source, got] of [
      [undefined, 'undefined'],
      [null, 'null'],
      [{}, 'a value of type object'],
      [{ [Symbol.iterator]: [], [Symbol.asyncIterator]: 'no' }, 'a value of type object'],
      [revoked.proxy, 'a value of type object'],
    ] as const) {
      expect(() => withGuard(source as unknown as Iterable<GuardStep>)).toThrow(new TypeError(`${takes} ${got}.`));
    }
  });

  it('takes a guard only when it has check and judgeCall and is an object', () => {
    const check = () => ({ stop: false });
    const judgeCall = () => ({ block: false });
    const methods = { check, judgeCall };
    const wrong = [{ judgeCall }, { check }, { check, judgeCall: 'no' }, Object.assign(() => undefined, methods), Object.assign([], methods), null];
    for (const given of wrong) {
      expect(() => withGuard([], given as unknown as Guard)).toThrow(/^agent-loopguard: withGuard's guard is one createGuard\(\) made, got /);
    }
    expect(() => withGuard([], methods as unknown as Guard)).not.toThrow();
  });

  it('uses a guard with the defaults when none is given', async () => {
    const guarded = withGuard([{ text: 'done', finishReason: 'stop' }, search('after the end')]);
    expect(await drain(guarded)).toHaveLength(1);
    expect(guarded.verdict).toMatchObject({ stop: true, code: 'FINISH_TERMINAL' });
  });
});

describe('withGuard steering', () => {
  it('offers the message for the model after a warning, and screens calls against the steps so far', async () => {
    const guarded = withGuard([search('a'), search('a')], createGuard());
    const nudges: (string | undefined)[] = [];
    for await (const step of guarded) {
      expect(step.toolCalls).toHaveLength(1);
      nudges.push(guarded.nudge);
    }
    expect(nudges[0]).toBeUndefined();
    expect(nudges[1]).toContain('2 times in a row');
    expect(guarded.judgeCall({ name: 'search', args: { query: 'a' } })).toMatchObject({ block: true, code: 'REPEATED_TOOL_CALL' });
    expect(guarded.judgeCall({ name: 'search', args: { query: 'b' } })).toEqual({ block: false });
  });
});
