/**
 * The library at several git revisions side by side, in one process on the same inputs: `canonicalize`, `stableHash`
 * and `check()` of each revision's `src/`, bundled as the published build is (see `library.ts`), and each revision's
 * root entry and normaliser (`canonicalize` and `stableHash` alone) minified and gzipped as `scripts/size-budget.ts`
 * measures them. Ratios divide each revision's time by the first revision's in paired batches; below 1.00x is faster.
 *
 *   npx tsx bench/compare-revisions.ts b20e493 HEAD worktree    # "worktree" is the working tree's src/
 *   npx tsx bench/compare-revisions.ts b20e493 worktree --quick
 *   npx tsx bench/compare-revisions.ts 0d1223d^ 0d1223d --rounds=400   # more paired batches where the machine is noisy
 *   npx tsx bench/compare-revisions.ts HEAD worktree --only=canonicalize,stableHash   # some groups only
 *
 * Not a `*.bench.ts`: `npm run bench` does not run it, and it writes nothing but its report to stdout.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { measureEntry } from '../scripts/size-budget.js';
import { guardStep, largeObjectStep, longTextStep, smallStep } from './fixtures.js';
import { CLOCK_NAME, QUICK, clock, median, middleHalf, warmUp } from './harness.js';
import { inputs } from './inputs.js';
import { importBundled, type GuardOptions, type GuardStep } from './library.js';
import { formatNs, formatRatio, tableToMarkdown } from './report.js';

interface Library {
  readonly canonicalize: (value: unknown) => string;
  readonly stableHash: (value: unknown) => string;
  readonly createGuard: (options?: GuardOptions) => { check(step: GuardStep): { stop: boolean } };
}

interface Revision {
  readonly name: string;
  readonly commit: string;
  readonly library: Library;
  readonly rootGzip: number;
  readonly normaliserGzip: number;
}

const repository = fileURLToPath(new URL('..', import.meta.url));
const names = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const roundsGiven = process.argv.find((argument) => argument.startsWith('--rounds='));
const onlyGiven = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length).split(',');
if (names.length < 2) throw new Error('usage: npx tsx bench/compare-revisions.ts <revision> <revision>... ("worktree" for the working tree)');

const scratch = mkdtempSync(join(tmpdir(), 'agent-loopguard-revisions-'));

/** Gzipped size of a bundle of `source` (an entry's text) placed beside the revision's `src/`. */
async function gzippedBundle(directory: string, file: string, source: string): Promise<number> {
  const entry = join(directory, file);
  writeFileSync(entry, source);
  const built = buildSync({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', target: 'node18', treeShaking: true, write: false });
  return (await measureEntry(built.outputFiles[0]?.text ?? '')).gzipped;
}

async function load(name: string, index: number): Promise<Revision> {
  const directory = join(scratch, String(index));
  mkdirSync(directory);
  let commit = 'working tree';
  if (name === 'worktree') cpSync(join(repository, 'src'), join(directory, 'src'), { recursive: true });
  else {
    commit = execFileSync('git', ['rev-parse', '--short', name], { cwd: repository, encoding: 'utf8' }).trim();
    const archive = execFileSync('git', ['archive', commit, 'src'], { cwd: repository, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', directory], { input: archive });
  }
  // As the package declares (every revision compared does): no module has side effects, so a bundle keeps only what
  // its entry uses.
  writeFileSync(join(directory, 'package.json'), JSON.stringify({ type: 'module', sideEffects: false }));
  const rootGzip = await gzippedBundle(directory, 'root.ts', "export * from './src/index.js';\n");
  const normaliserGzip = await gzippedBundle(directory, 'normaliser.ts', "export { canonicalize, stableHash } from './src/index.js';\n");
  const entry = join(directory, 'entry.ts');
  writeFileSync(entry, "export { canonicalize, stableHash, createGuard } from './src/index.js';\n");
  return { name, commit, library: await importBundled<Library>(entry), rootGzip, normaliserGzip };
}

/** One measured case: the same work done by each revision's library. */
interface Case {
  readonly group: string;
  readonly input: string;
  readonly run: (library: Library) => () => unknown;
}

const CYCLE = 10_000;
const checkSteps: readonly (readonly [string, readonly GuardStep[]])[] = [
  ['small step', Array.from({ length: CYCLE }, (_, stepNumber) => smallStep(stepNumber))],
  ['2 KB step', Array.from({ length: CYCLE }, (_, stepNumber) => guardStep(stepNumber))],
  // As in check-floor.bench.ts: 64 distinct steps each, as their results are large.
  ['200 KB string result', Array.from({ length: 64 }, (_, stepNumber) => longTextStep(stepNumber))],
  ['200 KB object result', Array.from({ length: 64 }, (_, stepNumber) => largeObjectStep(stepNumber))],
];

/** check() with default options and `maxSteps: false`, cycling through the steps on a guard made anew per cycle. */
function checkEach(steps: readonly GuardStep[]): (library: Library) => () => unknown {
  return (library) => {
    let guard = library.createGuard({ maxSteps: false });
    let index = 0;
    return () => {
      if (index === steps.length) {
        index = 0;
        guard = library.createGuard({ maxSteps: false });
      }
      const step = steps[index++];
      if (step === undefined) throw new Error('unreachable: the index wraps above');
      const verdict = guard.check(step);
      if (verdict.stop) throw new Error('a detector stopped the benchmark run');
      return verdict;
    };
  };
}

const cases: Case[] = [
  ...inputs.map(([input, value]): Case => ({ group: 'canonicalize', input, run: (library) => () => library.canonicalize(value) })),
  ...inputs.map(([input, value]): Case => ({ group: 'stableHash', input, run: (library) => () => library.stableHash(value) })),
  ...checkSteps.map(([input, steps]): Case => ({ group: 'check()', input, run: checkEach(steps) })),
].filter((entry) => onlyGiven === undefined || onlyGiven.includes(entry.group));

try {
  const revisions: Revision[] = [];
  for (const [index, name] of names.entries()) revisions.push(await load(name, index));
  // Paired batches: each revision runs the same number of calls in turn, a few milliseconds each, many times over, so
  // the machine's load moves every revision of a pair alike; a ratio is the median of the per-batch ratios.
  const batches = roundsGiven === undefined ? (QUICK ? 10 : 150) : Number.parseInt(roundsGiven.slice('--rounds='.length), 10);
  const batchNs = QUICK ? 2e6 : 5e6;
  // times[case][revision]: nanoseconds per call in each batch.
  const times = cases.map(() => revisions.map(() => [] as number[]));
  const functions = cases.map((entry) => revisions.map((revision) => entry.run(revision.library)));
  for (const [caseIndex, row] of functions.entries()) {
    for (const fn of row) warmUp(fn);
    // As many calls as the first revision makes in one batch's time.
    const [first] = row;
    let calls = 0;
    const calibrateFrom = clock();
    while (first !== undefined && clock() - calibrateFrom < batchNs) {
      first();
      calls++;
    }
    for (let batch = 0; batch < batches; batch++) {
      // Rotate which revision goes first, so none always runs on the warmest cache.
      for (let offset = 0; offset < row.length; offset++) {
        const revisionIndex = (offset + batch) % row.length;
        const fn = row[revisionIndex];
        if (fn === undefined) continue;
        const start = clock();
        for (let call = 0; call < calls; call++) fn();
        times[caseIndex]?.[revisionIndex]?.push((clock() - start) / calls);
      }
    }
    process.stderr.write(`${cases[caseIndex]?.group ?? ''} ${cases[caseIndex]?.input ?? ''} done\n`);
  }

  const label = (revision: Revision): string => (revision.name === revision.commit ? revision.commit : `${revision.name} (${revision.commit})`);
  const [first] = revisions;
  console.log(
    `Node ${process.version}, ${String(batches)} paired batches of about ${String(batchNs / 1e6)} ms per case, ${CLOCK_NAME}; ratio = the revision's time / ${first === undefined ? '' : label(first)}'s, median of the per-batch ratios, with the middle half of them.\n`,
  );
  console.log(
    tableToMarkdown({
      header: ['Function', 'Input', ...revisions.map((revision, index) => (index === 0 ? label(revision) : `${label(revision)} (ratio)`))],
      rows: cases.map((entry, caseIndex) => {
        const row = times[caseIndex] ?? [];
        const base = row[0] ?? [];
        return [
          entry.group,
          entry.input,
          ...revisions.map((_, revisionIndex) => {
            const own = row[revisionIndex] ?? [];
            const time = formatNs(median(own));
            if (revisionIndex === 0) return time;
            const ratios = own.map((value, batch) => value / (base[batch] ?? Number.NaN));
            return `${time} (${formatRatio(median(ratios))}, ${middleHalf(ratios)})`;
          }),
        ];
      }),
    }),
  );
  console.log(
    `\n${tableToMarkdown({
      header: ['Revision', 'Root entry, minified and gzipped', 'canonicalize and stableHash alone, minified and gzipped'],
      rows: revisions.map((revision) => [label(revision), `${String(revision.rootGzip)} B`, `${String(revision.normaliserGzip)} B`]),
    })}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
