/**
 * `npm run bench`: runs every `bench/*.bench.ts` in a Node process of its own (so one file's JIT and heap state never
 * colours another's) and gathers their sections into `bench/RESULTS.md`, with the machine, the Node version and the
 * load the machine was under. `npm run bench -- --quick` runs the same files briefly, as a smoke test, and leaves
 * `RESULTS.md` alone.
 *
 * A file that reports through `publish()` (see `report.ts`) becomes a formatted section, its targets gathered in one
 * table at the top; any other file's output is included as it printed it. A file that fails makes the whole command
 * fail.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, type } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './harness.js';
import { REPORT_DIRECTORY_VARIABLE, sectionToMarkdown, tableToMarkdown, type Section } from './report.js';

const quick = process.argv.includes('--quick');
const wall = process.argv.includes('--wall');
// `--rounds=N` overrides the rounds of the benchmarks that take paired batches (the peer comparison, toStopWhen).
const rounds = process.argv.filter((argument) => argument.startsWith('--rounds='));
const benchDirectory = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const files = readdirSync(benchDirectory)
  .filter((name) => name.endsWith('.bench.ts') && (only.length === 0 || only.some((part) => name.includes(part))))
  .sort();

interface FileOutcome {
  readonly file: string;
  readonly section: Section | undefined;
  readonly output: string;
  readonly exitCode: number | null;
  readonly seconds: number;
}

function runFile(file: string, reportDirectory: string): Promise<FileOutcome> {
  const started = performance.now();
  // --expose-gc for the memory benchmark; tsx runs the TypeScript sources directly.
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(benchDirectory, file), ...(quick ? ['--quick'] : []), ...(wall ? ['--wall'] : []), ...rounds],
    { env: { ...process.env, [REPORT_DIRECTORY_VARIABLE]: reportDirectory, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      const reportPath = join(reportDirectory, `${file}.json`);
      const section = existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as Section) : undefined;
      resolve({ file, section, output, exitCode, seconds: (performance.now() - started) / 1000 });
    });
  });
}

// The 1-minute load average, every five seconds: how busy the shared machine was while the figures were taken.
const loads: number[] = [];
const sampleLoad = (): void => {
  loads.push(loadavg()[0] ?? Number.NaN);
};
const loadSampler = setInterval(sampleLoad, 5_000);

const startedAt = new Date();
const reportDirectory = mkdtempSync(join(tmpdir(), 'agent-loopguard-bench-'));
const outcomes: FileOutcome[] = [];
try {
  for (const file of files) {
    sampleLoad();
    console.log(`\n== ${file}${quick ? ' (quick)' : ''}`);
    const outcome = await runFile(file, reportDirectory);
    outcomes.push(outcome);
    console.log(`== ${file}: ${outcome.seconds.toFixed(1)} s, exit code ${String(outcome.exitCode)}`);
  }
  sampleLoad();
} finally {
  clearInterval(loadSampler);
  rmSync(reportDirectory, { recursive: true, force: true });
}

/** A section's target number, from its title ("3. ..."), so sections appear in the issue's order. */
const order = (outcome: FileOutcome): number => Number.parseInt(outcome.section?.title ?? '0', 10) || 0;
const sorted = [...outcomes].sort((a, b) => order(a) - order(b) || a.file.localeCompare(b.file));

const processor = cpus()[0]?.model.trim() ?? 'unknown';
const failed = outcomes.filter((outcome) => outcome.exitCode !== 0);
const targets = sorted.flatMap((outcome) =>
  (outcome.section?.targets ?? []).map((check) => [
    outcome.section?.title.replace(/`/g, '') ?? outcome.file,
    check.target,
    check.measured,
    quick ? `${check.met ? 'yes' : 'no'} (quick run: not judged)` : check.met ? 'yes' : '**no**',
  ]),
);

const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${startedAt.toISOString().slice(0, 10)}. Ratios are ours divided by the peer's time on the same input in the same run: below 1.00x we are faster.`,
  '',
  tableToMarkdown({
    header: ['Machine', ''],
    rows: [
      ['Node', `${process.version} (V8 ${process.versions.v8})`],
      ['CPU', `${processor}, ${String(cpus().length)} logical cores as reported by \`os.cpus()\``],
      ['OS', `${type()} ${release()}`],
      [
        'Load',
        `1-minute load average ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}, median ${median(loads).toFixed(2)} (every 5 s during the run; 2.00 would mean both cores busy). The machine is shared: absolute times move with its load, ratios measured side by side much less`,
      ],
      [
        'Clock',
        wall
          ? 'wall-clock time (`--wall`)'
          : "the benchmark process's CPU time, user and system, all threads (`--wall` switches to wall-clock time)",
      ],
      ['Duration', `${outcomes.reduce((sum, outcome) => sum + outcome.seconds, 0).toFixed(0)} s`],
    ],
  }),
  '',
  'Reproduce with `npm ci && npm run bench`; `npm run bench -- --quick` is a short smoke run that judges nothing.',
  '',
  '## Targets',
  '',
  targets.length === 0 ? 'No benchmark reported a target.' : tableToMarkdown({ header: ['Benchmark', 'Target', 'Measured', 'Met'], rows: targets }),
];
for (const outcome of sorted) {
  if (outcome.section !== undefined) lines.push(sectionToMarkdown(outcome.section), '');
  else lines.push(`## ${basename(outcome.file, '.bench.ts')}`, '', outcome.output.trim(), '');
  if (outcome.exitCode !== 0) lines.push(`**${outcome.file} failed with exit code ${String(outcome.exitCode)}.**`, '');
}
const markdown = `${lines.join('\n').trimEnd()}\n`;

if (quick) {
  console.log('\nQuick mode: bench/RESULTS.md left as it is; too few samples to judge targets, run without --quick for figures to quote.');
} else if (only.length > 0) {
  console.log('\nOnly some files ran: bench/RESULTS.md left as it is.');
} else {
  writeFileSync(join(benchDirectory, 'RESULTS.md'), markdown);
  console.log('\nWrote bench/RESULTS.md');
}
console.log(`\n${tableToMarkdown({ header: ['Benchmark', 'Target', 'Measured', 'Met'], rows: targets })}`);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map((outcome) => outcome.file).join(', ')}`);
  process.exitCode = 1;
}
