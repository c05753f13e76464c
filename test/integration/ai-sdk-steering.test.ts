/**
 * toAgentSettings inside the real Vercel AI SDK (the exact `ai` version in package.json) with its offline
 * `MockLanguageModelV4`: the warning reaches the model, the call that would complete a loop never runs, a model that
 * changes course finishes, one that persists is stopped. CI runs this file on the machine's Node and on Node 22.
 */
import { generateText, isStepCount, streamText, tool, ToolLoopAgent } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toAgentSettings } from '../../src/index.js';
import type { CallRefusal, LoopWarning, StopVerdict } from '../../src/index.js';
import { reactiveModel, type ModelTurn } from './mock-model.js';

/** Tools that count how often they really ran. */
function countedTools() {
  const runs = { search: 0, read: 0 };
  const tools = {
    search: tool({
      inputSchema: z.object({ query: z.string() }),
      execute: ({ query }) => {
        runs.search++;
        return Promise.resolve(`No results for ${query}.`);
      },
    }),
    read: tool({
      inputSchema: z.object({ page: z.number() }),
      execute: ({ page }) => {
        runs.read++;
        return Promise.resolve(`Page ${String(page)}: the answer is 42.`);
      },
    }),
  };
  return { runs, tools };
}

/** Everything in a prompt as text, to look for what the guard said. */
const promptText = (prompt: readonly unknown[]): string => JSON.stringify(prompt);

/**
 * A model that searches for the same thing. One that listens reads a page and answers once the guard speaks up: at the
 * warning (`'warning'`), or only once a call of its was refused (`'refusal'`).
 */
function searcher(listens: false | 'warning' | 'refusal') {
  const told = { warning: /Not run:|Calling it again will not tell you anything new/, refusal: /Not run:/ };
  return reactiveModel((prompt, index): ModelTurn => {
    if (listens !== false && told[listens].test(promptText(prompt))) {
      return promptText(prompt).includes('Page 1') ? { text: 'The answer is 42.' } : { text: 'Reading instead.', calls: [{ id: `read-${String(index)}`, tool: 'read', input: { page: 1 } }] };
    }
    return { text: `Attempt ${String(index)}: searching.`, calls: [{ id: `search-${String(index)}`, tool: 'search', input: { query: 'agent loops' } }] };
  });
}

interface Observed {
  readonly stops: StopVerdict[];
  readonly warnings: LoopWarning[][];
  readonly blocks: CallRefusal[];
}

function observedSettings() {
  const observed: Observed = { stops: [], warnings: [], blocks: [] };
  const settings = toAgentSettings(
    {},
    {
      onStop: (verdict) => observed.stops.push(verdict),
      onWarning: (warnings) => observed.warnings.push([...warnings]),
      onBlock: (refusal) => observed.blocks.push(refusal),
    },
  );
  return { observed, settings };
}

describe('toAgentSettings in generateText', () => {
  it('warns the model, refuses the call that would complete the repeat, and stops a model that persists', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const model = searcher(false);

    const result = await generateText({ model, tools, prompt: 'Find it.', ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });

    // Two searches ran; the third and fourth were refused before they ran, and the fourth stopped the run.
    expect(runs.search).toBe(2);
    expect(result.steps).toHaveLength(4);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(observed.stops[0]).toMatchObject({ stop: true, reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, tool: 'search' } });
    // The warning after the second search was in the prompt of the third model call, and only from then on.
    const prompts = model.doGenerateCalls.map((call) => promptText(call.prompt));
    expect(prompts[1]).not.toContain('Calling it again will not tell you anything new');
    expect(prompts[2]).toContain('You have called search 2 times in a row');
    expect(observed.warnings[0]?.[0]).toMatchObject({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' });
    // The model read why its call was refused, as the refused call's result.
    expect(prompts[3]).toContain('execution-denied');
    expect(prompts[3]).toContain('Not run: this would be call number 3 in a row to search');
  });

  it('lets a model that changes course at the warning finish normally, with nothing refused and no stop', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const result = await generateText({ model: searcher('warning'), tools, prompt: 'Find it.', ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });

    expect(result.text).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(observed.blocks).toEqual([]);
    expect(observed.stops).toEqual([]);
  });

  it('sees no warning, no refusal and no stop in a healthy run', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const model = reactiveModel((_prompt, index): ModelTurn =>
      index < 3 ? { text: `Step ${String(index)}`, calls: [{ id: `read-${String(index)}`, tool: 'read', input: { page: index } }] } : { text: 'Done.' },
    );
    const result = await generateText({ model, tools, prompt: 'Read three pages.', ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });

    expect(result.text).toBe('Done.');
    expect(runs.read).toBe(3);
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [] });
    expect(model.doGenerateCalls.map((call) => promptText(call.prompt)).join('')).not.toContain('loop');
  });

  it('leaves parts out when switched off', () => {
    expect(Object.keys(toAgentSettings({}, { block: false, nudge: false }))).toEqual(['stopWhen']);
    expect(Object.keys(toAgentSettings({}, { stop: false, block: false }))).toEqual(['prepareStep']);
    expect(Object.keys(toAgentSettings())).toEqual(['stopWhen', 'prepareStep', 'toolApproval']);
  });
});

type Entry = 'generateText' | 'streamText' | 'ToolLoopAgent';

/** Runs the model with the settings through one of the SDK's entry points; the prompts are those the model was sent. */
async function runThrough(entry: Entry, model: ReturnType<typeof reactiveModel>, tools: ReturnType<typeof countedTools>['tools'], settings: ReturnType<typeof toAgentSettings>) {
  const stopWhen = [settings.stopWhen ?? isStepCount(1), isStepCount(20)];
  if (entry === 'generateText') {
    const result = await generateText({ model, tools, prompt: 'Find it.', ...settings, stopWhen });
    return { steps: result.steps.length, text: result.text, prompts: model.doGenerateCalls.map((call) => promptText(call.prompt)) };
  }
  if (entry === 'streamText') {
    const result = streamText({ model, tools, prompt: 'Find it.', ...settings, stopWhen });
    const [steps, text] = await Promise.all([result.steps, result.text]);
    return { steps: steps.length, text, prompts: model.doStreamCalls.map((call) => promptText(call.prompt)) };
  }
  const result = await new ToolLoopAgent({ model, tools, ...settings, stopWhen }).generate({ prompt: 'Find it.' });
  return { steps: result.steps.length, text: result.text, prompts: model.doGenerateCalls.map((call) => promptText(call.prompt)) };
}

describe.each<Entry>(['generateText', 'streamText', 'ToolLoopAgent'])('toAgentSettings in %s', (entry) => {
  it('warns, refuses the call that would complete the repeat (its execute never runs), and stops a model that persists', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const { steps, prompts } = await runThrough(entry, searcher(false), tools, settings);
    expect(runs).toEqual({ search: 2, read: 0 });
    expect(steps).toBe(4);
    expect(observed.warnings.map((warnings) => warnings.map((warning) => warning.reason))).toEqual([['repeated-tool-call']]);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops).toHaveLength(1);
    expect(observed.stops[0]).toMatchObject({ reason: 'repeated-tool-call', code: 'REPEATED_TOOL_CALL', evidence: { count: 3, tool: 'search' } });
    expect(prompts[1]).not.toContain('Calling it again will not tell you anything new');
    expect(prompts[2]).toContain('You have called search 2 times in a row');
    expect(prompts[3]).toContain('Not run: this would be call number 3 in a row to search');
    // The SDK builds later prompts on what prepareStep returned: the message stays in the conversation, once.
    expect(prompts[3]?.split('You have called search ')).toHaveLength(2);
  });

  it('lets a model that changes course after the refusal finish normally, without a stop', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const { text, steps } = await runThrough(entry, searcher('refusal'), tools, settings);
    expect(text).toBe('The answer is 42.');
    expect(steps).toBe(5);
    expect(runs).toEqual({ search: 2, read: 1 });
    expect(observed.blocks).toHaveLength(1);
    expect(observed.stops).toEqual([]);
  });

  it('sees no warning, no refusal and no stop in a healthy run', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const model = reactiveModel((_prompt, index): ModelTurn =>
      index < 3 ? { text: `Step ${String(index)}`, calls: [{ id: `read-${String(index)}`, tool: 'read', input: { page: index } }] } : { text: 'Done.' },
    );
    const { text, prompts } = await runThrough(entry, model, tools, settings);
    expect(text).toBe('Done.');
    expect(runs).toEqual({ search: 0, read: 3 });
    expect(observed).toEqual({ stops: [], warnings: [], blocks: [] });
    expect(prompts.join('')).not.toContain('loop');
  });
});

describe('toAgentSettings next to your own prepareStep, toolApproval and stopWhen', () => {
  it('composes: yours run as before, and the guard still warns, refuses and stops', async () => {
    const { runs, tools: counted } = countedTools();
    let deletes = 0;
    const tools = {
      ...counted,
      remove: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: () => {
          deletes++;
          return Promise.resolve('Removed.');
        },
      }),
    };
    const { observed, settings } = observedSettings();
    const model = reactiveModel((_prompt, index): ModelTurn =>
      index === 0
        ? { text: 'Cleaning up first.', calls: [{ id: 'remove-0', tool: 'remove', input: { path: 'notes.md' } }] }
        : { text: `Attempt ${String(index)}: searching.`, calls: [{ id: `search-${String(index)}`, tool: 'search', input: { query: 'agent loops' } }] },
    );
    const guardPrepareStep = settings.prepareStep;
    const guardApproval = settings.toolApproval;
    const result = await generateText({
      model,
      tools,
      prompt: 'Find it.',
      // Your prepareStep first; the guard's last, on the messages yours chose, so its message comes after them.
      prepareStep: (input) => {
        const mine = { messages: [...input.messages, { role: 'user' as const, content: 'Be brief.' }] };
        return { ...mine, ...guardPrepareStep?.({ ...input, messages: mine.messages }) };
      },
      // The guard's refusal first; otherwise your own rule.
      toolApproval: (input) => guardApproval?.(input) ?? (input.toolCall.toolName === 'remove' ? { type: 'denied', reason: 'Removing files is not allowed.' } : undefined),
      stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)],
    });

    expect(deletes).toBe(0);
    expect(runs.search).toBe(2);
    expect(result.steps).toHaveLength(5);
    expect(observed.blocks.map((block) => block.code)).toEqual(['REPEATED_TOOL_CALL', 'REPEATED_TOOL_CALL']);
    expect(observed.stops[0]).toMatchObject({ code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    const prompts = model.doGenerateCalls.map((call) => promptText(call.prompt));
    expect(prompts.every((prompt) => prompt.includes('Be brief.'))).toBe(true);
    expect(prompts[1]).toContain('Removing files is not allowed.');
    // Your refusal of a call the guard would not refuse counts for nothing: the warning still comes after two searches.
    expect(prompts[2]).not.toContain('2 times in a row');
    // Yours first, then the guard's message for the model.
    expect(prompts[3]).toContain('"text":"Be brief."}]},{"role":"user","content":[{"type":"text","text":"You have called search ');
    expect(prompts[4]).toContain('Not run: this would be call number 3 in a row to search');
  });
});

describe('toAgentSettings and runs of one agent', () => {
  it('keeps the runs of one agent apart: two runs at once get the same answers as one run alone', async () => {
    const { tools } = countedTools();
    const onStop = vi.fn<(verdict: StopVerdict) => void>();
    const settings = toAgentSettings({}, { onStop });
    const agent = new ToolLoopAgent({ model: searcher(false), tools, ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });
    const other = new ToolLoopAgent({ model: searcher(false), tools, ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });
    const [first, second] = await Promise.all([agent.generate({ prompt: 'Find it.' }), other.generate({ prompt: 'Find it too.' })]);
    expect(first.steps).toHaveLength(4);
    expect(second.steps).toHaveLength(4);
    expect(onStop).toHaveBeenCalledTimes(2);
  });
});
