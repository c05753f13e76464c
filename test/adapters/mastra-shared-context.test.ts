/**
 * A caller's mistake toMastraOptions does not notice yet (this test fails on purpose until it does): two runs at the
 * same time given one requestContext, each taking its steps in turn with the other. Neither ever hands prepareStep
 * fewer steps than the shared run has recorded, so no TypeError is thrown; the second run's first model call replaces
 * the first run's guard, both runs' calls are judged by that one guard, and only the first run's steps are recorded.
 * Seen in a real agent too: two `agent.generate()` calls under `Promise.all` with one `RequestContext` end with the
 * same verdict and one shared history of four steps. The run's recorded steps could tell it: the step the other run
 * hands at an index already recorded is not the one recorded there (its `usage` and `request` objects differ).
 */
import { describe, expect, it } from 'vitest';
import { toMastraOptions, type MastraLoopGuard } from '../../src/adapters/mastra.js';

/** A finished step as Mastra records it, with `usage` and `request` objects of its own. */
const step = (id: string) => ({
  text: `Searching (${id}).`,
  finishReason: 'tool-calls',
  toolCalls: [{ toolCallId: id, toolName: 'search', args: { query: id } }],
  toolResults: [{ toolCallId: id, output: { type: 'text', value: 'nothing' } }],
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  request: {},
});

/** One run as Mastra drives it, on the requestContext it is given. */
class Run {
  readonly steps: ReturnType<typeof step>[] = [];

  constructor(
    readonly loop: MastraLoopGuard,
    readonly requestContext: object,
    readonly name: string,
  ) {}

  prepare(): void {
    // The view prepareStep is handed: rebuilt from the conversation, sharing only `usage` and `request`.
    const rebuilt = this.steps.map((recorded) => ({ usage: recorded.usage, request: recorded.request, toolCalls: [], text: '' }));
    this.loop.prepareStep({ steps: rebuilt, requestContext: this.requestContext, messageList: { addSystem: () => undefined } });
  }

  act(): void {
    const id = `${this.name}-${String(this.steps.length)}`;
    this.loop.hooks.beforeToolCall({ toolName: 'search', input: { query: id }, context: { toolCallId: id, requestContext: this.requestContext } });
    this.steps.push(step(id));
    this.loop.stopWhen({ steps: this.steps });
  }
}

describe('toMastraOptions with two runs at once on one requestContext', () => {
  it('throws the TypeError that names the mistake when the runs take their steps in turn', () => {
    const loop = toMastraOptions();
    const shared = {};
    const first = new Run(loop, shared, 'first');
    const second = new Run(loop, shared, 'second');
    const inTurn = () => {
      for (let round = 0; round < 3; round++) {
        first.prepare();
        second.prepare();
        first.act();
        second.act();
      }
    };
    let thrown: unknown;
    try {
      inTurn();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toMatch(/two runs at once share one requestContext/);
  });
});
