/** An offline model for Mastra agents: `MastraLanguageModelV2Mock`, each call answered by a function of its prompt. */
import type { MastraModelConfig } from '@mastra/core/llm';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';

/** What the model answers on one call: text, tool calls, or both. */
export interface MastraTurn {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
}

type GenerateResult = Awaited<ReturnType<MastraLanguageModelV2Mock['doGenerate']>>;
type StreamPart = Awaited<ReturnType<MastraLanguageModelV2Mock['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/**
 * A mock model answering each call with `answer(prompt, index)`, where `prompt` is everything the call was sent, as
 * text; `prompts` keeps them all.
 * @param answer - the turn for a call
 */
export function scriptedModel(answer: (prompt: string, index: number) => MastraTurn) {
  const prompts: string[] = [];
  const respond = (options: { readonly prompt: unknown }) => {
    const prompt = JSON.stringify(options.prompt);
    prompts.push(prompt);
    const turn = answer(prompt, prompts.length - 1);
    const content: GenerateResult['content'] = [];
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
    for (const call of turn.calls ?? []) content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) });
    return { content, finishReason: turn.calls === undefined ? ('stop' as const) : ('tool-calls' as const), usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
  };
  const model = new MastraLanguageModelV2Mock({
    doGenerate: (options) => Promise.resolve({ ...respond(options), warnings: [] }),
    // The same answers as a stream, for agent.stream().
    doStream: (options) => {
      const { content, finishReason, usage } = respond(options);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        else if (part.type === 'tool-call') parts.push(part);
      }
      parts.push({ type: 'finish', finishReason, usage });
      const stream = new ReadableStream<StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return Promise.resolve({ stream });
    },
  });
  // Mastra's declarations of the mock and of an agent's model disagree under exactOptionalPropertyTypes (the mock's
  // result allows `response: undefined`); it is the model Mastra ships for this, so it is passed as one.
  return { model: model as unknown as MastraModelConfig, prompts };
}
