/** A small offline `Model` for the OpenAI Agents SDK: each model call is answered by a function of what it was sent. */
import { Usage } from '@openai/agents';
import type { AgentOutputItem, Model, ModelRequest, ModelResponse } from '@openai/agents';

/** What the model answers on one call: text, function calls, or both. */
export interface AgentsTurn {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
}

/** A model answering each call with `answer(input, index)`; `requests` keeps everything it was sent. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly answer: (input: readonly unknown[], index: number) => AgentsTurn) {}

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    const index = this.requests.length - 1;
    const turn = this.answer(input, index);
    const output: AgentOutputItem[] = [];
    if (turn.text !== undefined) {
      output.push({ type: 'message', id: `msg_${String(index)}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] });
    }
    for (const call of turn.calls ?? []) {
      output.push({ type: 'function_call', id: `fc_${call.id}`, callId: call.id, name: call.name, arguments: JSON.stringify(call.input), status: 'completed' });
    }
    return Promise.resolve({ usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output, responseId: `resp_${String(index)}` });
  }

  // eslint-disable-next-line require-yield -- the runs here never stream
  async *getStreamedResponse(): AsyncIterable<never> {
    await Promise.resolve();
    throw new Error('ScriptedModel does not stream');
  }

  /** Everything each call was sent, as text, to look for what the guard said. */
  inputs(): string[] {
    return this.requests.map((request) => JSON.stringify(request.input));
  }
}
