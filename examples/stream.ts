/**
 * The guard on an async stream of steps: `for await` over `withGuard`. The agent here is a simulated one that
 * alternates between two calls forever (each result carries a fresh request id, so it looks like progress);
 * the guard ends the stream and the agent's cleanup runs.
 * Run with `npm run example:stream`.
 */
import { createGuard, explain, withGuard } from '../src/index.js';
import type { GuardStep } from '../src/index.js';

/** Stands in for an agent that emits each finished step as it happens. */
async function* pingPongAgent(): AsyncGenerator<GuardStep> {
  try {
    for (let stepNumber = 0; ; stepNumber++) {
      await new Promise((resolve) => setTimeout(resolve, 10)); // the model "thinks"
      const call =
        stepNumber % 2 === 0
          ? { name: 'list_files', args: { dir: 'src' }, result: { requestId: stepNumber, files: ['index.ts'] } }
          : { name: 'read_file', args: { path: 'src/index.ts' }, result: { requestId: stepNumber, text: 'export {};' } };
      yield { text: '', finishReason: 'tool-calls', toolCalls: [call] };
    }
  } finally {
    console.log('(agent closed: its cleanup ran)');
  }
}

const steps = withGuard(pingPongAgent(), createGuard());
let count = 0;
for await (const step of steps) {
  const call = step.toolCalls?.[0];
  console.log(`step ${String(count++)}: ${call?.name ?? '-'}(${JSON.stringify(call?.args)})`);
}

if (steps.verdict?.stop) console.log(`\n${explain(steps.verdict)}`);
