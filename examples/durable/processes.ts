/**
 * Runs the durable agent as a series of worker processes, one per step, and kills the ones it is asked to kill
 * between their check and their save. Used by the example's driver and by its test; needs no `node:sqlite` itself
 * (the test runs on Node 20), only a Node 22 binary for the workers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Verdict } from '../../src/index.js';
import type { RunRow, SavedStep } from './store.js';
import type { WorkerEvent } from './worker.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('worker.ts', import.meta.url));

/**
 * Node's flags for a worker: TypeScript through tsx (resolved from the repository's node_modules), and quiet about
 * `node:sqlite` being experimental. Below Node 22.13 (and 23.4) `node:sqlite` also needs `--experimental-sqlite`.
 * @param nodeVersion - the worker binary's `process.version` or `node --version`, e.g. `v22.23.5`
 */
export function workerFlags(nodeVersion: string): string[] {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  const flagged = (major === 22 && minor < 13) || (major === 23 && minor < 4);
  return [...(flagged ? ['--experimental-sqlite'] : []), '--disable-warning=ExperimentalWarning', '--import', 'tsx'];
}

/**
 * A Node 22 binary from `scripts/node-bin.sh 22` (installed into a cache on first use), and its version.
 * @throws when the script cannot provide one: never a silent fallback
 */
export function node22(): { readonly node: string; readonly nodeVersion: string } {
  const node = execFileSync('bash', ['scripts/node-bin.sh', '22'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return { node, nodeVersion: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() };
}

/** Where the workers run and how. */
export interface WorkerSetup {
  /** A Node 22 binary. */
  readonly node: string;
  /** Its version, for `workerFlags`. */
  readonly nodeVersion: string;
  /** The SQLite file. */
  readonly db: string;
  readonly run: string;
  /** Kill a worker that has not exited after this long. @default 60_000 */
  readonly timeoutMs?: number;
}

/** What one worker process did. */
export interface WorkerProcess {
  readonly pid: number;
  readonly events: readonly WorkerEvent[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Whether this driver killed it after its `checked` line. */
  readonly killed: boolean;
  readonly stderr: string;
  /** Wall-clock time from spawn to exit, in milliseconds. */
  readonly ms: number;
}

/**
 * Starts one worker for the run's next step and waits for it to exit. With `killAfterCheck` the worker is started
 * with --pause-after-check, so after printing `checked` it waits for a `save` that never comes: the driver sends
 * SIGKILL as soon as it reads that line. The kill cannot come before the check (the line is printed after it) and the
 * save cannot come before the kill (it waits for the driver).
 */
export function runWorker(setup: WorkerSetup, killAfterCheck: boolean): Promise<WorkerProcess> {
  const args = [...workerFlags(setup.nodeVersion), WORKER, 'step', setup.db, setup.run];
  if (killAfterCheck) args.push('--pause-after-check');
  const started = performance.now();
  const child = spawn(setup.node, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const events: WorkerEvent[] = [];
  let stderr = '';
  let killed = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: WorkerEvent;
    try {
      event = JSON.parse(line) as WorkerEvent;
    } catch {
      stderr += `(stdout) ${line}\n`;
      return;
    }
    events.push(event);
    if (killAfterCheck && event.event === 'checked') killed = child.kill('SIGKILL');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), setup.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ pid: child.pid ?? -1, events, code, signal, killed, stderr, ms: performance.now() - started });
    });
  });
}

/** The run as the database holds it, read by a worker process (`worker.ts show`). */
export function showRun(setup: WorkerSetup): Promise<{ readonly row: RunRow; readonly log: readonly SavedStep[] }> {
  const args = [...workerFlags(setup.nodeVersion), WORKER, 'show', setup.db, setup.run];
  const child = spawn(setup.node, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as { row: RunRow; log: SavedStep[] });
      else reject(new Error(`worker.ts show exited with ${String(code)}: ${stderr}`));
    });
  });
}

/** How a durable run went. */
export interface DurableRun {
  /** Every worker started, in order. */
  readonly processes: readonly WorkerProcess[];
  /** The stop verdict the run ended with, and the step that gave it. */
  readonly verdict: Verdict;
  readonly step: number;
}

/** Options of `runDurable`. */
export interface DurableRunOptions {
  /**
   * The steps whose worker is killed between check and save, in order; a step listed twice is killed twice (its
   * first retry dies too).
   */
  readonly killAt: readonly number[];
  /** Called after each worker exits, before the next one starts (the driver prints, the test reads the database). */
  readonly afterEach?: (worker: WorkerProcess) => void | Promise<void>;
  /** Give up after this many processes. @default 100 */
  readonly maxProcesses?: number;
}

/**
 * Runs workers one after the other until one saves a stop verdict (or finds the run already stopped). A worker that
 * exits in any other way than planned (an error, a kill nobody asked for) ends the run with an error.
 */
export async function runDurable(setup: WorkerSetup, options: DurableRunOptions): Promise<DurableRun> {
  const plan = [...options.killAt];
  const processes: WorkerProcess[] = [];
  // The driver knows which step comes next from what the workers said they saved.
  let next = 0;
  for (let count = 0; count < (options.maxProcesses ?? 100); count++) {
    const kill = plan[0] === next;
    const worker = await runWorker(setup, kill);
    processes.push(worker);
    await options.afterEach?.(worker);
    const last = worker.events.at(-1);
    if (kill) {
      if (!worker.killed || worker.signal !== 'SIGKILL' || last?.event !== 'checked') {
        throw new Error(`worker ${String(worker.pid)} was not killed between check and save: ${worker.stderr}`);
      }
      plan.shift();
      continue;
    }
    if (worker.code !== 0 || last === undefined || last.event === 'loaded' || last.event === 'checked') {
      throw new Error(`worker ${String(worker.pid)} failed (exit ${String(worker.code)}, ${String(worker.signal)}): ${worker.stderr}`);
    }
    if (last.event === 'finished' || last.verdict.stop) return { processes, verdict: last.verdict, step: last.step };
    next = last.step + 1;
  }
  throw new Error(`the run did not stop within ${String(options.maxProcesses ?? 100)} processes`);
}
