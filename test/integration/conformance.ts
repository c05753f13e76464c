/**
 * The conformance suite: one scripted looping model, one that calls in parallel, and one healthy model, driven through
 * every integration the package has, each integration object reused for three runs in a row and three at once, with
 * unique, reused and missing call ids. Every run must show the same warnings, the same refused calls (never run), the
 * same stop code, and nothing carried over from another run. A driver per integration
 * (test/integration/conformance-*.test.ts) translates a script into its framework's offline model and reports what
 * the run showed.
 */
import { describe, expect, it } from 'vitest';

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** What the model does on one turn, whatever it was told: call tools (in parallel when several), or answer. */
export type ScriptTurn = { readonly calls: readonly ScriptedCall[] } | { readonly text: string };

/** A scripted model and what every integration must show for it. */
export interface Script {
  readonly name: string;
  readonly turns: readonly ScriptTurn[];
  readonly expected: Observed;
}

/**
 * How a driver gives call ids: `unique` (`call-<turn>-<position>`), `reused` (the same id for every call, as some
 * providers do), or `missing` (none at all, or an empty one where the framework insists on a string).
 */
export type IdPolicy = 'unique' | 'reused' | 'missing';

/** The id of a call under a policy, or `undefined` for none. */
export function callId(policy: IdPolicy, turn: number, position: number): string | undefined {
  if (policy === 'unique') return `call-${String(turn)}-${String(position)}`;
  return policy === 'reused' ? 'call' : undefined;
}

/** What one run showed, the same way for every integration. */
export interface Observed {
  /** The loop warnings passed on to the model, as `turn:reason` for the turn they reached it before, in order. */
  readonly warnings: readonly string[];
  /** The calls the guard refused, as `turn:name`: none of them may have run. */
  readonly refused: readonly string[];
  /** The calls that ran, as `turn:name`. */
  readonly ran: readonly string[];
  /** The code of the fault stop (`isFault`) the guard ended the run with, or `undefined` when it did not end it. */
  readonly stopCode: string | undefined;
}

const search = { name: 'search', args: { query: 'agent loops' } };
const read = { name: 'read', args: { path: 'notes.md' } };

/**
 * The same search, again and again: warned of the repeat after the second; the third is refused (the step then brought
 * nothing new, so the model hears of that too), and the fourth, asked for again, is refused and stops the run as a
 * repeat.
 */
export const LOOPING: Script = {
  name: 'a model that repeats one search',
  turns: [{ calls: [search] }, { calls: [search] }, { calls: [search] }, { calls: [search] }, { text: 'unreachable' }],
  expected: {
    warnings: ['2:repeated-tool-call', '3:no-progress'],
    refused: ['2:search', '3:search'],
    ran: ['0:search', '1:search'],
    stopCode: 'REPEATED_TOOL_CALL',
  },
};

/** Three identical reads in one response: the third would complete the repeat, and is refused; then an answer. */
export const PARALLEL: Script = {
  name: 'a model that reads one file three times at once',
  turns: [{ calls: [read, read, read] }, { text: 'Done.' }],
  expected: { warnings: ['1:repeated-tool-call'], refused: ['0:read'], ran: ['0:read', '0:read'], stopCode: undefined },
};

/** Different searches, a read, an answer: nothing to warn of, refuse or stop. */
export const HEALTHY: Script = {
  name: 'a model that searches, reads and answers',
  turns: [
    { calls: [{ name: 'search', args: { query: 'a' } }] },
    { calls: [{ name: 'search', args: { query: 'b' } }] },
    { calls: [read] },
    { text: 'Here is what I found.' },
  ],
  expected: { warnings: [], refused: [], ran: ['0:search', '1:search', '2:read'], stopCode: undefined },
};

export const SCRIPTS: readonly Script[] = [LOOPING, PARALLEL, HEALTHY];
export const ID_POLICIES: readonly IdPolicy[] = ['unique', 'reused', 'missing'];

/**
 * An integration under test. `create` makes the one integration object (settings, middleware, hooks) that every run
 * of a group shares; `run` drives one run of a script through it with the framework's own offline model.
 */
export interface Integration<Shared> {
  readonly name: string;
  /**
   * The id policies the framework itself can run, when not all: a driver that leaves one out must test, apart, what
   * the framework does with such ids instead. @default every policy
   */
  readonly idPolicies?: readonly IdPolicy[];
  create(): Shared;
  run(shared: Shared, script: Script, ids: IdPolicy): Promise<Observed>;
  /**
   * What the integration shows instead of `script.expected` where its framework cannot do what the script expects;
   * its guide says exactly why. @default undefined (every script as expected)
   */
  readonly expected?: ((script: Script, ids: IdPolicy) => Observed | undefined) | undefined;
}

/**
 * The suite for one integration: for every script and id policy, one integration object serves three runs in a row,
 * then three at once, then the three scripts at once; each must show exactly what its script expects.
 */
export function conformance<Shared>(integration: Integration<Shared>): void {
  describe(`${integration.name} conforms`, () => {
    for (const ids of integration.idPolicies ?? ID_POLICIES) {
      it(`with ${ids} call ids: the same warnings, refusals and stops in every run, three in a row and three at once`, async () => {
        const shared = integration.create();
        for (const script of SCRIPTS) {
          for (let round = 0; round < 3; round++) {
            expect(await integration.run(shared, script, ids), `${script.name}, run ${String(round + 1)} in a row`).toEqual(expectedOf(integration, script, ids));
          }
        }
        for (const script of SCRIPTS) {
          const runs = await Promise.all([0, 1, 2].map(() => integration.run(shared, script, ids)));
          runs.forEach((observed, index) => {
            expect(observed, `${script.name}, run ${String(index + 1)} of three at once`).toEqual(expectedOf(integration, script, ids));
          });
        }
        // And the three scripts at once: runs that differ, interleaved, must not mix.
        const mixed = await Promise.all(SCRIPTS.map((script) => integration.run(shared, script, ids)));
        SCRIPTS.forEach((script, index) => {
          expect(mixed[index], `${script.name}, at once with the other scripts`).toEqual(expectedOf(integration, script, ids));
        });
      }, 120_000);
    }
  });
}

function expectedOf<Shared>(integration: Integration<Shared>, script: Script, ids: IdPolicy): Observed {
  return integration.expected?.(script, ids) ?? script.expected;
}
