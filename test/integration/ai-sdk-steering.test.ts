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

/** A model that searches for the same thing; with `listens`, it reads a page and answers once the guard speaks up. */
function searcher(listens: boolean) {
  return reactiveModel((prompt, index): ModelTurn => {
    const told = /Not run:|Calling it again will not tell you anything new/.test(promptText(prompt));
    if (listens && told) {
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
    expect(prompts[2]).toContain('You have called search({\\"query\\":\\"agent loops\\"}) 2 times in a row');
    expect(observed.warnings[0]?.[0]).toMatchObject({ code: 'LOOP_WARNING', reason: 'repeated-tool-call' });
    // The model read why its call was refused, as the refused call's result.
    expect(prompts[3]).toContain('execution-denied');
    expect(prompts[3]).toContain('Not run: this would be call number 3 in a row to search');
  });

  it('lets a model that changes course after the refusal finish normally, without a stop', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const result = await generateText({ model: searcher(true), tools, prompt: 'Find it.', ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });

    expect(result.text).toBe('The answer is 42.');
    expect(runs).toEqual({ search: 2, read: 1 });
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

describe('toAgentSettings in streamText and ToolLoopAgent', () => {
  it('behaves the same in streamText', async () => {
    const { runs, tools } = countedTools();
    const { observed, settings } = observedSettings();
    const result = streamText({ model: searcher(false), tools, prompt: 'Find it.', ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });
    expect(await result.steps).toHaveLength(4);
    expect(runs.search).toBe(2);
    expect(observed.blocks).toHaveLength(2);
    expect(observed.stops[0]).toMatchObject({ code: 'REPEATED_TOOL_CALL' });
  });

  it('behaves the same in a ToolLoopAgent, for a run that persists and one that changes course', async () => {
    for (const listens of [false, true]) {
      const { runs, tools } = countedTools();
      const { observed, settings } = observedSettings();
      const agent = new ToolLoopAgent({ model: searcher(listens), tools, ...settings, stopWhen: [settings.stopWhen ?? isStepCount(1), isStepCount(20)] });
      const result = await agent.generate({ prompt: 'Find it.' });
      expect(runs.search).toBe(2);
      expect(observed.stops).toHaveLength(listens ? 0 : 1);
      if (listens) expect(result.text).toBe('The answer is 42.');
    }
  });

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
