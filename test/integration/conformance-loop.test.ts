/**
 * The hand-written loop's conformance: `runAgentLoop` with a guard per run, screening each response's calls with
 * `guard.screen()` as docs/integrations/hand-written-loop.md shows. It is the reference the other drivers agree with.
 */
import { createGuard, isFault, loopWarnings, runAgentLoop, type GuardToolCall } from '../../src/index.js';
import { callId, conformance, type IdPolicy, type Observed, type Script } from './conformance.js';

/** One run of a script through `runAgentLoop`. */
async function run(script: Script, ids: IdPolicy): Promise<Observed> {
  const warnings: string[] = [];
  const refused: string[] = [];
  const ran: string[] = [];
  const guard = createGuard({ maxSteps: 20 });
  const result = await runAgentLoop({
    guard,
    step: async (index, { previous }) => {
      await Promise.resolve();
      for (const warning of loopWarnings(previous)) warnings.push(`${String(index)}:${warning.reason}`);
      const turn = script.turns[index] ?? { text: 'out of script' };
      if ('text' in turn) return { text: turn.text, finishReason: 'stop' };
      const screen = guard.screen();
      const toolCalls = turn.calls.map((call, position): GuardToolCall => {
        // The id plays no part in a hand-written loop: calls are told apart by their place in the response.
        void callId(ids, index, position);
        const verdict = screen.judge(call);
        if (verdict.block) {
          refused.push(`${String(index)}:${call.name}`);
          return { ...call, result: verdict.message, blocked: true };
        }
        ran.push(`${String(index)}:${call.name}`);
        return { ...call, result: `${call.name} result` };
      });
      return { toolCalls, finishReason: 'tool-calls' };
    },
  });
  return { warnings, refused, ran, stopCode: result.verdict.stop && isFault(result.verdict) ? result.verdict.code : undefined };
}

conformance({ name: 'a hand-written loop (runAgentLoop, guard.screen)', create: () => undefined, run: (_shared, script, ids) => run(script, ids) });
