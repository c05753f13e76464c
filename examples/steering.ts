/**
 * Steering before stopping, in a hand-written loop: the guard's message goes into the next prompt, and the call that
 * would complete a loop is refused before it runs, its refusal handed to the model as the call's result. Two simulated
 * models (offline, no API keys): one that listens and finds the answer another way, one that does not and is stopped.
 * Run with `npm run example:steering`.
 */
import { createGuard, explain, runAgentLoop, type AgentLoopStep, type GuardToolCall } from '../src/index.js';

interface Message {
  readonly role: 'user' | 'assistant' | 'tool';
  readonly content: string;
}

/** Stands in for a model: searches until the guard speaks up; one that listens then reads a page and answers. */
function model(prompt: readonly Message[], listens: boolean): { text: string; calls: GuardToolCall[] } {
  const told = prompt.some((message) => message.content.startsWith('You have called') || message.content.startsWith('Not run:'));
  if (listens && told) {
    return prompt.some((message) => message.content.includes('Page 1'))
      ? { text: 'The answer is on page 1: 42.', calls: [] }
      : { text: 'Searching is not working; reading the docs instead.', calls: [{ name: 'read', args: { page: 1 } }] };
  }
  return { text: 'Searching.', calls: [{ name: 'search', args: { query: 'agent loop detection' } }] };
}

/** Stands in for the tools. */
function runTool(call: GuardToolCall): string {
  return call.name === 'read' ? 'Page 1: the answer is 42.' : 'No results.';
}

async function run(listens: boolean): Promise<void> {
  console.log(listens ? '\nA model that listens:' : '\nA model that does not listen:');
  const prompt: Message[] = [{ role: 'user', content: 'What is the answer?' }];
  const result = await runAgentLoop({
    guard: createGuard({ maxSteps: 20 }),
    step: (index, { nudge, judgeCall }): AgentLoopStep => {
      // The guard's message for the model goes into the next prompt.
      if (nudge !== undefined) {
        prompt.push({ role: 'user', content: nudge });
        console.log(`  guard -> model: ${nudge}`);
      }
      const turn = model(prompt, listens);
      prompt.push({ role: 'assistant', content: turn.text });
      const calls: GuardToolCall[] = [];
      for (const call of turn.calls) {
        // Screen each call before it runs: a refused call never runs, and the model reads why.
        const verdict = judgeCall(call, calls.filter((earlier) => earlier.blocked !== true));
        if (verdict.block) {
          prompt.push({ role: 'tool', content: verdict.message });
          calls.push({ ...call, blocked: true });
          console.log(`  step ${String(index)}: ${call.name} refused -> ${verdict.message}`);
          continue;
        }
        const output = runTool(call);
        prompt.push({ role: 'tool', content: output });
        calls.push({ ...call, result: output });
        console.log(`  step ${String(index)}: ${call.name}(${JSON.stringify(call.args)}) -> ${output}`);
      }
      return { text: turn.text, toolCalls: calls, finishReason: calls.length === 0 ? 'stop' : 'tool-calls' };
    },
  });
  console.log(result.completed ? `  finished: ${result.steps.at(-1)?.text ?? ''}` : `  ${explain(result.verdict).split('\n').join('\n  ')}`);
}

await run(true);
await run(false);
