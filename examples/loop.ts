/**
 * A simulated agent that never changes its mind: it searches for the same thing on every step. Offline, no API keys.
 * Run with `npm run example:loop`.
 */
import { createGuard, explain, type GuardStep } from '../src/index.js';

/** Stands in for "call the model, then run the tools it asked for". */
function stubbornModelStep(stepNumber: number): GuardStep {
  return {
    text: stepNumber === 0 ? 'Let me look that up.' : 'Let me search again, to be sure.',
    finishReason: 'tool-calls',
    toolCalls: [{ name: 'search', args: { query: 'agent loop detection' }, result: { hits: 0 } }],
    usage: { inputTokens: 1200 + 150 * stepNumber, outputTokens: 40 },
  };
}

const guard = createGuard({ budget: { maxTotalTokens: { limit: 20_000, warnAt: 0.8 } } });

for (let stepNumber = 0; ; stepNumber++) {
  const step = stubbornModelStep(stepNumber);
  console.log(`step ${String(stepNumber)}: ${step.text ?? ''} -> search(${JSON.stringify(step.toolCalls?.[0]?.args)})`);

  const verdict = guard.check(step);
  if (verdict.stop) {
    console.log(`\n${explain(verdict)}`);
    console.log(`\nverdict as JSON: ${JSON.stringify(verdict)}`);
    break;
  }
}
