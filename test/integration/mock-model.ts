/** Builders for the AI SDK's own offline mock model: one provider response per model call. */
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

// The provider types, taken from the mock itself (`@ai-sdk/provider` is not a direct dependency).
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type LanguageModelV4StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** What the mock model answers on one call. */
export interface ModelTurn {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly tool: string; readonly input: unknown }[];
  /** @default 'tool-calls' when there are calls, else 'stop' */
  readonly finishReason?: 'stop' | 'length' | 'tool-calls' | 'other';
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

function finishReason(turn: ModelTurn): { unified: NonNullable<ModelTurn['finishReason']>; raw: string } {
  const unified = turn.finishReason ?? ((turn.calls?.length ?? 0) > 0 ? 'tool-calls' : 'stop');
  return { unified, raw: unified };
}

function usage(turn: ModelTurn): LanguageModelV4GenerateResult['usage'] {
  const input = turn.inputTokens ?? 10;
  const output = turn.outputTokens ?? 5;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function generateResult(turn: ModelTurn): LanguageModelV4GenerateResult {
  return {
    content: [
      ...(turn.text === undefined ? [] : [{ type: 'text' as const, text: turn.text }]),
      ...(turn.calls ?? []).map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.tool,
        input: JSON.stringify(call.input),
      })),
    ],
    finishReason: finishReason(turn),
    usage: usage(turn),
    warnings: [],
  };
}

function streamParts(turn: ModelTurn): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    ...(turn.text === undefined
      ? []
      : [
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: turn.text },
          { type: 'text-end' as const, id: 't' },
        ]),
    ...(turn.calls ?? []).map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.tool,
      input: JSON.stringify(call.input),
    })),
    { type: 'finish', finishReason: finishReason(turn), usage: usage(turn) },
  ];
}

/**
 * A mock model that plays `turns` in order, one per call; after the last turn it repeats `repeat(callIndex)`.
 * Works for both `generateText` and `streamText`.
 */
export function scriptedModel(turns: readonly ModelTurn[], repeat?: (callIndex: number) => ModelTurn): MockLanguageModelV4 {
  let generateCalls = 0;
  let streamCalls = 0;
  const turnAt = (index: number): ModelTurn => {
    const turn = turns[index] ?? repeat?.(index);
    if (turn === undefined) throw new Error(`The script has no turn ${String(index)}.`);
    return turn;
  };
  return new MockLanguageModelV4({
    doGenerate: () => Promise.resolve(generateResult(turnAt(generateCalls++))),
    doStream: () => Promise.resolve({ stream: convertArrayToReadableStream(streamParts(turnAt(streamCalls++))) }),
  });
}

/**
 * A mock model that decides each turn from the prompt it is sent (and the number of the call), for both
 * `generateText` and `streamText`: a model that reacts to what the guard tells it.
 */
export function reactiveModel(decide: (prompt: readonly unknown[], callIndex: number) => ModelTurn): MockLanguageModelV4 {
  let generateCalls = 0;
  let streamCalls = 0;
  return new MockLanguageModelV4({
    doGenerate: (options) => Promise.resolve(generateResult(decide(options.prompt, generateCalls++))),
    doStream: (options) => Promise.resolve({ stream: convertArrayToReadableStream(streamParts(decide(options.prompt, streamCalls++))) }),
  });
}
