/**
 * toAgentSettings on hand-made AI SDK shapes: what each hook answers for odd input, how the hooks find the replay of
 * their step, the callbacks, the switches and a resumed run. The real SDK runs in test/integration/ai-sdk-steering.
 */
import { describe, expect, it, vi } from 'vitest';
import { toAgentSettings, type AiSdkApprovalToolCall } from '../../src/adapters/to-agent-settings.js';
import type { CallRefusal } from '../../src/types.js';
import type { AiSdkStepLike } from '../../src/adapters/to-guard-step.js';
import { createGuard } from '../../src/guard/create-guard.js';
import { MAX_ARRAY_ITEMS } from '../../src/utils/read.js';
import type { CallScreen, CallVerdict, GuardToolCall, LoopWarning, StopVerdict } from '../../src/types.js';

let nextId = 0;

/** An AI SDK-shaped step with one call to `tool` that ran and returned `output`; its text is new each time. */
function ranStep(tool: string, input: unknown, output: unknown = 'nothing'): AiSdkStepLike {
  const toolCallId = `call-${String(nextId++)}`;
  return {
    text: `Step ${toolCallId}.`,
    finishReason: 'tool-calls',
    toolCalls: [{ toolCallId, toolName: tool, input }],
    toolResults: [{ toolCallId, output }],
  };
}

/** An AI SDK-shaped step whose one call a tool approval refused (it never ran). */
function deniedStep(tool: string, input: unknown): AiSdkStepLike {
  const toolCallId = `call-${String(nextId++)}`;
  return {
    text: `Step ${toolCallId}.`,
    finishReason: 'tool-calls',
    toolCalls: [{ toolCallId, toolName: tool, input }],
    content: [{ type: 'tool-approval-response', approved: false, toolCall: { toolCallId } }],
  };
}

const search = { query: 'agent loops' };
const searchCall = (toolCallId?: string): AiSdkApprovalToolCall => ({ ...(toolCallId === undefined ? {} : { toolCallId }), toolName: 'search', input: search });
const prompt = (): unknown[] => [{ role: 'user', content: [{ type: 'text', text: 'Find it.' }] }];

/** What a plain guard says after two searches: the warning `prepareStep` passes on, and the refusal of a third. */
function guardAfterTwoSearches() {
  const guard = createGuard();
  guard.check({ toolCalls: [{ name: 'search', args: search, result: 'nothing' }] });
  const verdict = guard.check({ toolCalls: [{ name: 'search', args: search, result: 'nothing' }] });
  const warning = verdict.warnings?.find((item): item is LoopWarning => item.code === 'LOOP_WARNING');
  const refusal = guard.judgeCall({ name: 'search', args: search });
  if (warning === undefined || !refusal.block) throw new Error('the guard no longer warns or refuses after two searches');
  return { guard, warning, refusal };
}

describe('toAgentSettings: prepareStep', () => {
  it('adds the warning message as a user message after the prompt, once a loop is forming', () => {
    const { warning } = guardAfterTwoSearches();
    const { prepareStep } = toAgentSettings();
    const messages = prompt();
    const steps = [ranStep('search', search)];
    expect(prepareStep?.({ steps, messages })).toBeUndefined();
    steps.push(ranStep('search', search));
    const answer = prepareStep?.({ steps, messages });
    expect(answer).toEqual({ messages: [...messages, { role: 'user', content: warning.message }] });
    expect(answer?.messages).not.toBe(messages);
    // The prompt given is left as it was.
    expect(messages).toHaveLength(1);
  });

  it('puts the messages of several warnings on one line each', () => {
    const options = { noProgress: { threshold: 2 } };
    const guard = createGuard(options);
    const guardStep = { text: 'Searching again.', toolCalls: [{ name: 'search', args: search, result: 'nothing' }] };
    guard.check(guardStep);
    const messages = (guard.check(guardStep).warnings ?? []).flatMap((warning) => (warning.code === 'LOOP_WARNING' ? [warning.message] : []));
    expect(messages).toHaveLength(2);

    const { prepareStep } = toAgentSettings(options);
    const step = { ...ranStep('search', search), text: 'Searching again.' };
    expect(prepareStep?.({ steps: [step, step], messages: [] })).toEqual({ messages: [{ role: 'user', content: messages.join('\n') }] });
  });

  it('answers undefined, and remembers nothing, when steps is not an array', () => {
    const onWarning = vi.fn();
    const { prepareStep, toolApproval } = toAgentSettings({}, { onWarning });
    const messages = prompt();
    for (const steps of [undefined, null, 'steps', 3, { 0: ranStep('search', search), length: 1 }]) {
      expect(prepareStep?.({ steps: steps as unknown as AiSdkStepLike[], messages })).toBeUndefined();
    }
    expect(prepareStep?.(undefined as unknown as { steps: []; messages: [] })).toBeUndefined();
    // No replay to judge by: every call runs.
    expect(toolApproval?.({ toolCall: searchCall('a'), messages })).toBeUndefined();
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('cannot add to messages that are not an array, but still judges the calls of the step', () => {
    const onWarning = vi.fn();
    const { prepareStep, toolApproval } = toAgentSettings({}, { onWarning });
    const steps = [ranStep('search', search), ranStep('search', search)];
    for (const messages of [undefined, 'Find it.', 7]) {
      expect(prepareStep?.({ steps, messages: messages as unknown as unknown[] })).toBeUndefined();
      // Such a prompt cannot be told from another run's: no opinion, never another run's judgement.
      expect(toolApproval?.({ toolCall: searchCall(), messages: messages as unknown as unknown[] })).toBeUndefined();
    }
    // An object that is not an array is remembered as the step's prompt, though nothing can be added to it.
    const objectPrompt = { role: 'user' } as unknown as unknown[];
    expect(prepareStep?.({ steps, messages: objectPrompt })).toBeUndefined();
    expect(toolApproval?.({ toolCall: searchCall(), messages: objectPrompt })).toMatchObject({ type: 'denied' });
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('remembers a prompt by reading only its newest message, and nothing of an empty one or one that is not an array', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const reads: string[] = [];
    const logged = (items: object) => new Proxy(items, {
      get(target, key, receiver) {
        reads.push(String(key));
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as unknown[];
    const steps = [ranStep('search', search)];
    const newest = { role: 'tool', content: [] };
    const known = logged([...prompt(), newest]);
    expect(prepareStep?.({ steps, messages: known })).toBeUndefined();
    expect(prepareStep?.({ steps, messages: logged([]) })).toBeUndefined();
    expect(prepareStep?.({ steps, messages: logged({ 0: newest, length: 1 }) })).toBeUndefined();
    expect(reads).toEqual(['length', '1', 'length']);
    // Its newest message is what a longer prompt is known by.
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: [newest, { role: 'user', content: 'appended' }] })).toBeUndefined();
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: [newest, { role: 'user', content: 'appended' }] })).toMatchObject({ type: 'denied' });
  });

  it('tells the model only of the latest step’s warning', () => {
    const { prepareStep } = toAgentSettings();
    const steps = [ranStep('search', search), ranStep('search', search), ranStep('read', { page: 1 }, 'page one')];
    expect(prepareStep?.({ steps, messages: prompt() })).toBeUndefined();
  });

  it('replays each step once over a run, whether the next prompt is the given or the returned one', () => {
    const cost = vi.fn(() => 0);
    const { prepareStep } = toAgentSettings({}, { cost });
    const steps: AiSdkStepLike[] = [];
    for (let index = 0; index < 10; index++) {
      steps.push(ranStep('read', { page: index }));
      prepareStep?.({ steps, messages: prompt() });
    }
    expect(cost).toHaveBeenCalledTimes(10);
  });

  it('throws what a cost function throws', () => {
    const { prepareStep } = toAgentSettings(
      {},
      {
        cost: () => {
          throw new Error('price list unavailable');
        },
      },
    );
    expect(() => prepareStep?.({ steps: [ranStep('search', search)], messages: [] })).toThrow('price list unavailable');
  });
});

describe('toAgentSettings: toolApproval', () => {
  it('answers undefined when called before any prepareStep', () => {
    const { toolApproval } = toAgentSettings();
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: prompt() })).toBeUndefined();
    expect(toolApproval?.(undefined as unknown as { toolCall: AiSdkApprovalToolCall; messages: [] })).toBeUndefined();
  });

  it('denies the call that would complete a repeat, with the refusal message as the reason', () => {
    const { refusal } = guardAfterTwoSearches();
    const onBlock = vi.fn<(refusal: CallRefusal, toolCall: AiSdkApprovalToolCall) => void>();
    const { prepareStep, toolApproval } = toAgentSettings({}, { onBlock });
    const messages = prompt();
    const answer = prepareStep?.({ steps: [ranStep('search', search), ranStep('search', search)], messages });
    const toolCall = searchCall('third');
    // Asked with the prompt the SDK was given, or with the one prepareStep returned: the same replay.
    expect(toolApproval?.({ toolCall, messages })).toEqual({ type: 'denied', reason: refusal.message });
    expect(toolApproval?.({ toolCall, messages: answer?.messages ?? [] })).toEqual({ type: 'denied', reason: refusal.message });
    expect(onBlock).toHaveBeenCalledTimes(1);
    expect(onBlock).toHaveBeenCalledWith(refusal, toolCall);
    // Another call runs.
    expect(toolApproval?.({ toolCall: { toolCallId: 'read', toolName: 'read', input: { page: 1 } }, messages })).toBeUndefined();
  });

  it('answers a second question about the same call as the first, and counts the call once', () => {
    const judge = vi.fn<(call: GuardToolCall) => CallVerdict>();
    const factory = () => {
      const guard = createGuard();
      const screen = (): CallScreen => {
        const inner = guard.screen();
        judge.mockImplementation((call) => inner.judge(call));
        return { judge };
      };
      return { ...guard, screen };
    };
    const onBlock = vi.fn();
    const { prepareStep, toolApproval } = toAgentSettings(factory, { onBlock });
    const messages = prompt();
    prepareStep?.({ steps: [ranStep('search', search)], messages });
    // One search so far: a second runs, asked about twice; a third one after it in the same step would complete the repeat.
    const second = searchCall('second');
    expect(toolApproval?.({ toolCall: second, messages })).toBeUndefined();
    expect(toolApproval?.({ toolCall: second, messages })).toBeUndefined();
    expect(judge).toHaveBeenCalledTimes(1);
    const third = searchCall('third');
    expect(toolApproval?.({ toolCall: third, messages })).toMatchObject({ type: 'denied' });
    expect(judge).toHaveBeenLastCalledWith({ name: 'search', args: search });
    expect(toolApproval?.({ toolCall: third, messages })).toMatchObject({ type: 'denied' });
    expect(judge).toHaveBeenCalledTimes(2);
    expect(onBlock).toHaveBeenCalledTimes(1);
    expect(onBlock).toHaveBeenCalledWith(expect.objectContaining({ block: true, code: 'REPEATED_TOOL_CALL' }), third);
  });

  for (const [policy, id] of [['one id reused for every call', 'same'], ['no id at all', undefined], ['an empty id', '']] as const) {
    it(`tells parallel calls apart by the SDK's object for each, with ${policy}: exactly the call completing the repeat is denied`, () => {
      const onBlock = vi.fn();
      const { prepareStep, toolApproval } = toAgentSettings({}, { onBlock });
      const messages = prompt();
      prepareStep?.({ steps: [], messages });
      const calls = [searchCall(id), searchCall(id), searchCall(id), searchCall(id)] as const;
      const answers = calls.map((toolCall) => toolApproval?.({ toolCall, messages }));
      expect(answers.map((answer) => answer?.type)).toEqual([undefined, undefined, 'denied', 'denied']);
      // Asked again about the first call, which runs: still allowed, never counted twice.
      const [first] = calls;
      expect(toolApproval?.({ toolCall: first, messages })).toBeUndefined();
      expect(onBlock).toHaveBeenCalledTimes(2);
    });
  }

  it('judges a call without an id anew each time it is a new object, counting each one the SDK lets run', () => {
    const onBlock = vi.fn();
    const { prepareStep, toolApproval } = toAgentSettings({}, { onBlock });
    const messages = prompt();
    prepareStep?.({ steps: [ranStep('search', search)], messages });
    expect(toolApproval?.({ toolCall: searchCall(), messages })).toBeUndefined();
    // The first call without an id counts as allowed to run: the next identical one would be the third in a row.
    expect(toolApproval?.({ toolCall: searchCall(), messages })).toMatchObject({ type: 'denied' });
    expect(toolApproval?.({ toolCall: searchCall(), messages })).toMatchObject({ type: 'denied' });
    expect(onBlock).toHaveBeenCalledTimes(2);
  });

  it('reads an odd tool call without throwing: a name that is not a string, a name getter that throws, no call at all', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const messages = prompt();
    prepareStep?.({ steps: [ranStep('7', undefined), ranStep('7', undefined)], messages });
    // A name that is not a string is never converted (converting can throw): the guard reads no call there, and it runs.
    expect(toolApproval?.({ toolCall: { toolCallId: 'x', toolName: 7 as unknown as string }, messages })).toBeUndefined();
    const hostile = {
      toolCallId: 'y',
      get toolName(): string {
        throw new Error('host getter');
      },
      input: undefined,
    };
    expect(toolApproval?.({ toolCall: hostile, messages })).toBeUndefined();
    expect(toolApproval?.({ toolCall: undefined as unknown as AiSdkApprovalToolCall, messages })).toBeUndefined();
    // The string name is still refused as the third in a row.
    expect(toolApproval?.({ toolCall: { toolCallId: 'z', toolName: '7' }, messages })).toMatchObject({ type: 'denied' });
  });

  it('judges by the replay of its own prompt, so two runs sharing the settings stay apart, and never by the latest run', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const stuck = prompt();
    const fresh = prompt();
    prepareStep?.({ steps: [ranStep('search', search), ranStep('search', search)], messages: stuck });
    prepareStep?.({ steps: [ranStep('search', search)], messages: fresh });
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: stuck })).toMatchObject({ type: 'denied' });
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: fresh })).toBeUndefined();
    // A prompt it never saw, holding no message it saw: no opinion, rather than the judgement of whichever run came last.
    expect(toolApproval?.({ toolCall: searchCall('c'), messages: prompt() })).toBeUndefined();
  });

  it('finds its run when the SDK hands a new array extending the prompt (experimental_toolCallers), by its newest message', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const stuck = [...prompt(), { role: 'tool', content: [] }];
    const fresh = [...prompt(), { role: 'tool', content: [] }];
    prepareStep?.({ steps: [ranStep('search', search), ranStep('search', search)], messages: stuck });
    prepareStep?.({ steps: [ranStep('search', search)], messages: fresh });
    const callerMessage = { role: 'user', content: 'You may call tools from code.' };
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: [...stuck, callerMessage] })).toMatchObject({ type: 'denied' });
    const extended = [...fresh, callerMessage];
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: extended })).toBeUndefined();
    // The same response, asked about through the same new array: the search just allowed counts.
    expect(toolApproval?.({ toolCall: searchCall('c'), messages: extended })).toMatchObject({ type: 'denied' });
  });

  it(`finds its run by the newest message it saw among the newest ${String(MAX_ARRAY_ITEMS)} messages of the prompt, however long`, () => {
    const { prepareStep, toolApproval } = toAgentSettings({}, { nudge: false });
    const messages = (count: number) => Array.from({ length: count }, (_, index) => ({ role: 'user', content: `message ${String(index)}` }));
    const steps = [ranStep('search', search), ranStep('search', search)];
    // A conversation longer than the cap: the message prepareStep saw last is past the first MAX_ARRAY_ITEMS.
    const long = messages(MAX_ARRAY_ITEMS + 1);
    prepareStep?.({ steps, messages: long });
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: [...long, { role: 'user', content: 'appended' }] })).toMatchObject({ type: 'denied' });
    // The message it saw as the oldest of the newest MAX_ARRAY_ITEMS, and as one before them.
    const seen = { role: 'user', content: 'seen' };
    prepareStep?.({ steps, messages: [seen] });
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: [seen, ...messages(MAX_ARRAY_ITEMS - 1)] })).toMatchObject({ type: 'denied' });
    expect(toolApproval?.({ toolCall: searchCall('c'), messages: [seen, ...messages(MAX_ARRAY_ITEMS)] })).toBeUndefined();
  });

  it('reads the messages of a prompt it does not know from the newest back, and none past their end', () => {
    const { prepareStep, toolApproval } = toAgentSettings();
    const seen = { role: 'user', content: 'seen' };
    prepareStep?.({ steps: [ranStep('search', search)], messages: [seen] });
    const reads: string[] = [];
    const logged = (items: object) => new Proxy(items, {
      get(target, key, receiver) {
        reads.push(String(key));
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as unknown[];
    const extended = logged([seen, { role: 'tool' }, { role: 'user' }]);
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: extended })).toBeUndefined();
    expect(reads).toEqual(['length', '2', '1', '0']);
    // Found once, the prompt is known at once to the next call of the same response.
    expect(toolApproval?.({ toolCall: searchCall('a2'), messages: extended })).toMatchObject({ type: 'denied' });
    expect(reads).toEqual(['length', '2', '1', '0']);
    reads.length = 0;
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: logged([{ role: 'tool' }]) })).toBeUndefined();
    expect(toolApproval?.({ toolCall: searchCall('c'), messages: logged({ 0: seen, length: 1 }) })).toBeUndefined();
    expect(reads).toEqual(['length', '0']);
    // A length no array has: the newest MAX_ARRAY_ITEMS of the 2^32 - 1 an array may hold are looked at, no more.
    for (const length of [Infinity, 2 ** 32 - 1]) {
      reads.length = 0;
      const endless = new Proxy([seen], {
        get(target, key, receiver) {
          reads.push(String(key));
          return key === 'length' ? length : (Reflect.get(target, key, receiver) as unknown);
        },
      });
      expect(toolApproval?.({ toolCall: searchCall('d'), messages: endless })).toBeUndefined();
      expect(reads).toHaveLength(1 + MAX_ARRAY_ITEMS);
      expect([reads[1], reads.at(-1)]).toEqual([String(2 ** 32 - 2), String(2 ** 32 - 1 - MAX_ARRAY_ITEMS)]);
    }
  });

  it('starts a reused agent\'s next request afresh: an empty steps array is a new run, whatever ran before', () => {
    const onWarning = vi.fn();
    const { prepareStep, toolApproval, stopWhen } = toAgentSettings({}, { onWarning });
    const first = [ranStep('search', search), ranStep('search', search)];
    const firstPrompt = prompt();
    expect(prepareStep?.({ steps: first, messages: firstPrompt })).toBeDefined();
    expect(toolApproval?.({ toolCall: searchCall('a'), messages: firstPrompt })).toMatchObject({ type: 'denied' });
    expect(onWarning).toHaveBeenCalledTimes(1);
    // The second request: the SDK's steps array is a new, empty one.
    const second: AiSdkStepLike[] = [];
    const secondPrompt = prompt();
    expect(prepareStep?.({ steps: second, messages: secondPrompt })).toBeUndefined();
    expect(toolApproval?.({ toolCall: searchCall('b'), messages: secondPrompt })).toBeUndefined();
    second.push(ranStep('search', search));
    expect(stopWhen?.({ steps: second })).toBe(false);
    expect(prepareStep?.({ steps: second, messages: [...secondPrompt, { role: 'tool', content: [] }] })).toBeUndefined();
    expect(onWarning).toHaveBeenCalledTimes(1);
  });

  it('answers undefined once the replay of its step broke, rather than judge by a guard left half-way', () => {
    let fail = false;
    const { prepareStep, toolApproval } = toAgentSettings(
      {},
      {
        cost: () => {
          if (fail) throw new Error('price list unavailable');
          return 0;
        },
      },
    );
    const messages = prompt();
    const steps = [ranStep('search', search), ranStep('search', search)];
    prepareStep?.({ steps, messages });
    expect(toolApproval?.({ toolCall: searchCall('a'), messages })).toMatchObject({ type: 'denied' });
    fail = true;
    // The same replay goes on with the new step, and the check throws half-way through it.
    expect(() => prepareStep?.({ steps: [...steps, ranStep('read', { page: 1 })], messages: prompt() })).toThrow('price list unavailable');
    expect(toolApproval?.({ toolCall: searchCall('b'), messages })).toBeUndefined();
    expect(toolApproval?.({ toolCall: searchCall('c'), messages: prompt() })).toBeUndefined();
  });
});

describe('toAgentSettings: stopWhen and the callbacks', () => {
  it('stops a model that asks again for a refused call, with the stop verdict, and calls onStop with it', () => {
    const onStop = vi.fn<(verdict: StopVerdict, steps: readonly AiSdkStepLike[]) => void>();
    const { stopWhen } = toAgentSettings({}, { onStop });
    const steps = [ranStep('search', search), ranStep('search', search), deniedStep('search', search)];
    expect(stopWhen?.({ steps })).toBe(false);
    steps.push(deniedStep('search', search));
    expect(stopWhen?.({ steps })).toBe(true);
    expect(onStop).toHaveBeenCalledTimes(1);
    expect(onStop.mock.calls[0]?.[0]).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { tool: 'search', count: 3 } });
    expect(onStop.mock.calls[0]?.[1]).toBe(steps);
  });

  it('calls onWarning with the loop warnings and the steps, before the step it warns for', () => {
    const { warning } = guardAfterTwoSearches();
    const onWarning = vi.fn<(warnings: readonly LoopWarning[], steps: readonly AiSdkStepLike[]) => void>();
    const { prepareStep } = toAgentSettings({ budget: { maxTotalTokens: 100, warnAt: 0.1 } }, { onWarning });
    const steps = [ranStep('search', search), { ...ranStep('search', search), usage: { totalTokens: 50 } }];
    prepareStep?.({ steps, messages: [] });
    expect(onWarning).toHaveBeenCalledTimes(1);
    // Only the loop warnings: the budget warning of the same verdict is not for the model.
    expect(onWarning).toHaveBeenCalledWith([warning], steps);
  });

  it('lets the parts be switched off one by one', () => {
    expect(Object.keys(toAgentSettings({}, { stop: false }))).toEqual(['prepareStep', 'toolApproval']);
    expect(Object.keys(toAgentSettings({}, { block: false }))).toEqual(['stopWhen', 'prepareStep']);
    expect(Object.keys(toAgentSettings({}, { nudge: false }))).toEqual(['stopWhen', 'prepareStep', 'toolApproval']);
    expect(Object.keys(toAgentSettings({}, { stop: false, block: false, nudge: false }))).toEqual([]);
    expect(Object.keys(toAgentSettings({}, { stop: true, block: true, nudge: true }))).toEqual(['stopWhen', 'prepareStep', 'toolApproval']);
  });

  it('with nudge off, says nothing to the model but still refuses the call that completes the loop', () => {
    const onWarning = vi.fn();
    const { prepareStep, toolApproval } = toAgentSettings({}, { nudge: false, onWarning });
    const messages = prompt();
    expect(prepareStep?.({ steps: [ranStep('search', search), ranStep('search', search)], messages })).toBeUndefined();
    expect(onWarning).not.toHaveBeenCalled();
    expect(toolApproval?.({ toolCall: searchCall('a'), messages })).toMatchObject({ type: 'denied' });
  });

  it('with block off, still tells the model', () => {
    const { warning } = guardAfterTwoSearches();
    const { prepareStep } = toAgentSettings({}, { block: false });
    expect(prepareStep?.({ steps: [ranStep('search', search), ranStep('search', search)], messages: [] })).toEqual({ messages: [{ role: 'user', content: warning.message }] });
  });
});

describe('toAgentSettings across invocations', () => {
  it('goes on from a snapshot: warns, refuses and stops as the uninterrupted run would', () => {
    const { refusal } = guardAfterTwoSearches();
    const first = toAgentSettings();
    const before = [ranStep('search', search), ranStep('search', search)];
    expect(first.stopWhen?.({ steps: before })).toBe(false);
    const saved: unknown = JSON.parse(JSON.stringify(first.stopWhen?.snapshot()));

    const onStop = vi.fn();
    const resumed = toAgentSettings({}, { snapshot: saved, onStop });
    const messages = prompt();
    // The new invocation's steps start after the saved ones.
    expect(resumed.prepareStep?.({ steps: [], messages })).toBeUndefined();
    expect(resumed.toolApproval?.({ toolCall: searchCall('third'), messages })).toEqual({ type: 'denied', reason: refusal.message });
    const steps = [deniedStep('search', search)];
    expect(resumed.stopWhen?.({ steps })).toBe(false);
    steps.push(deniedStep('search', search));
    expect(resumed.stopWhen?.({ steps })).toBe(true);
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('refuses a snapshot taken under other options, or given with a factory', () => {
    const snapshot = createGuard().snapshot();
    expect(() => toAgentSettings({ repeatedToolCall: { threshold: 4 } }, { snapshot })).toThrow(/repeatedToolCall\.threshold/);
    expect(() => toAgentSettings(() => createGuard(), { snapshot })).toThrow('toAgentSettings takes a snapshot with GuardOptions, not with a guard factory.');
  });
});
