/**
 * `npm run eval [-- --traces DIR ... --out DIR]`: replays every run of the trace files in eval/data (the MIT sources
 * committed with the project) and of each folder given with `--traces` under the default guard, each detector alone,
 * threshold sweeps and other agents' published rules, counts what steering would have done, and writes RESULTS.md and
 * pareto.svg. It reads and replays runs with the same modules as `agent-loopguard replay`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { EVAL_USAGE, parseEvalArguments } from './arguments.js';
import { combineSources } from './combine.js';
import { CONFIGURATIONS, DEFAULT_GUARD, HEADLINE, indexOf } from './configurations.js';
import { listTraceFiles, loadRuns } from './corpus.js';
import { formatResults, type CorpusFile } from './format-results.js';
import { count } from './numbers.js';
import type { SourceSteering } from './format-steering.js';
import { paretoPoints } from './pareto-points.js';
import { paretoSvg } from './pareto-svg.js';
import { replaySource, STUCK_STATUS, type SourceResults } from './replay-source.js';
import { noteFor, type SourceGroup } from './source-notes.js';
import { addSteering, emptySteering, steerRun, sumSteering } from './steering.js';
import type { RecordedRun } from '../src/cli/read-runs.js';
import type { GuardOptions } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

const request = parseEvalArguments(process.argv.slice(2));
if (request.kind === 'help') {
  process.stdout.write(EVAL_USAGE);
  process.exit(0);
}
if (request.kind === 'usage-error') {
  process.stderr.write(`eval: ${request.message}\n\n${EVAL_USAGE}`);
  process.exit(2);
}

const folders = [join(here, 'data'), ...request.traces.map((folder) => resolve(folder))];
const { files, skipped, missing } = listTraceFiles(folders);
if (missing.length > 0) {
  // A folder asked for and not there would silently change what is measured: nothing is written.
  for (const folder of missing) console.error(`eval: no folder ${folder}`);
  process.exit(2);
}
for (const file of skipped) {
  if (!file.identical) console.error(`eval: ${file.path} differs from the ${file.source} read before it; skipped`);
}
if (files.length === 0) {
  console.error('eval: no trace files found; nothing to measure.');
  process.exit(1);
}

function steer(source: string, runs: readonly RecordedRun[], options: GuardOptions): SourceSteering {
  const recorded = emptySteering();
  const blocked = emptySteering();
  for (const run of runs) {
    addSteering(recorded, steerRun(run, options, STUCK_STATUS, 'recorded'));
    addSteering(blocked, steerRun(run, options, STUCK_STATUS, 'blocked'));
  }
  return { source, recorded, blocked };
}

const headlineOptions = CONFIGURATIONS[indexOf(HEADLINE)]?.options ?? {};
const defaultOptions = CONFIGURATIONS[indexOf(DEFAULT_GUARD)]?.options ?? {};
const sources: SourceResults[] = [];
const steering: SourceSteering[] = [];
const defaultSteering: SourceSteering[] = [];
let badInputs = 0;
let readMs = 0;
let replayMs = 0;
let steerMs = 0;
for (const file of files) {
  let started = performance.now();
  const loaded = await loadRuns(file);
  badInputs += loaded.badInputs;
  readMs += performance.now() - started;
  started = performance.now();
  sources.push(replaySource(file.source, loaded.runs, CONFIGURATIONS));
  replayMs += performance.now() - started;
  started = performance.now();
  steering.push(steer(file.source, loaded.runs, headlineOptions));
  defaultSteering.push(steer(file.source, loaded.runs, defaultOptions));
  steerMs += performance.now() - started;
}

const total = combineSources(sources);
const GROUPS: readonly SourceGroup[] = ['first split', 'new sources', 'converted here'];
const groups = GROUPS.flatMap((group) => {
  const members = sources.filter((source) => noteFor(source.source)?.group === group);
  return members.length === 0 ? [] : [combineSources(members, `${group} (${String(members.length)} ${members.length === 1 ? 'file' : 'files'})`)];
});
const sumOf = (rows: readonly SourceSteering[]): SourceSteering => ({
  source: total.source,
  recorded: sumSteering(rows.map((row) => row.recorded)),
  blocked: sumSteering(rows.map((row) => row.blocked)),
});
const corpus: CorpusFile[] = files.map((file) => ({ source: file.source, folder: relative(root, dirname(file.path)) || '.' }));
const traceArguments = request.traces.map((folder) => ` --traces ${relative(root, resolve(folder)) || '.'}`).join('');
const command = `npm run eval${traceArguments === '' ? '' : ` --${traceArguments}`}`;

const out = request.out === undefined ? here : resolve(request.out);
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'RESULTS.md'),
  formatResults({
    command,
    files: corpus,
    configurations: CONFIGURATIONS,
    sources,
    groups,
    total,
    steering: { rows: steering, total: sumOf(steering), defaultGuard: sumOf(defaultSteering) },
  }),
);
writeFileSync(
  join(out, 'pareto.svg'),
  paretoSvg(paretoPoints(CONFIGURATIONS, total), {
    healthyRuns: total.results[0]?.summary.healthy.runs ?? 0,
    stuckRuns: total.results[0]?.summary.stuck.runs ?? 0,
    title: `False stops against stuck runs caught: ${String(CONFIGURATIONS.length)} configurations, ${count(total.runs)} runs from ${String(files.length)} sources`,
  }),
);

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
console.log(
  `eval: ${String(total.runs)} runs (${String(total.steps)} steps) from ${String(files.length)} files, ` +
    `${String(CONFIGURATIONS.length)} configurations each, plus steering twice under two guards; ` +
    `read ${seconds(readMs)} s, replay ${seconds(replayMs)} s, steering ${seconds(steerMs)} s on Node ${process.version}; ` +
    `wrote ${relative(root, join(out, 'RESULTS.md'))} and ${relative(root, join(out, 'pareto.svg'))}` +
    (badInputs > 0 ? ` (${String(badInputs)} bad inputs)` : ''),
);
