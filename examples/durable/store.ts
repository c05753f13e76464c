/**
 * Where the durable example keeps a run: one SQLite file, through Node 22's built-in `node:sqlite`. Nothing of this
 * enters the library, which only produces and accepts the snapshot as plain JSON.
 *
 * `runs` holds one row per run: the next step to run, the guard's snapshot after the last saved step, and that step's
 * verdict. `steps` logs which process saved each step. A step is saved in one transaction, so the row and the log
 * always agree, and a process that dies before its commit leaves both as they were.
 */
import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';

/** A run as stored. */
export interface RunRow {
  /** The index of the step to run next: how many steps have been saved. */
  readonly next: number;
  /** `JSON.stringify(guard.snapshot())` after the last saved step, or `null` before the first. */
  readonly snapshot: string | null;
  /** The last saved verdict as JSON, or `null` before the first step. */
  readonly verdict: string | null;
}

/** One saved step, as the log holds it. */
export interface SavedStep {
  readonly step: number;
  /** The process that saved it. */
  readonly pid: number;
  readonly verdict: string;
}

function integer(value: SQLOutputValue | undefined, column: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new TypeError(`column ${column}: expected an integer, got ${typeof value}`);
}

function textOrNull(value: SQLOutputValue | undefined, column: string): string | null {
  if (value === null || typeof value === 'string') return value;
  throw new TypeError(`column ${column}: expected text, got ${typeof value}`);
}

/** Opens (and if need be creates) the database file. */
export function openStore(file: string): DatabaseSync {
  // Processes take turns here; `timeout` only matters if two ever overlap.
  const db = new DatabaseSync(file, { timeout: 5_000 });
  db.exec(`
    CREATE TABLE IF NOT EXISTS runs (
      id TEXT PRIMARY KEY,
      next_step INTEGER NOT NULL,
      snapshot TEXT,
      verdict TEXT
    ) STRICT;
    CREATE TABLE IF NOT EXISTS steps (
      run TEXT NOT NULL REFERENCES runs (id),
      step INTEGER NOT NULL,
      pid INTEGER NOT NULL,
      verdict TEXT NOT NULL,
      PRIMARY KEY (run, step)
    ) STRICT;
  `);
  return db;
}

/** The run's row, created at step 0 (no snapshot yet) when the run is new. */
export function loadRun(db: DatabaseSync, run: string): RunRow {
  db.prepare('INSERT OR IGNORE INTO runs (id, next_step, snapshot, verdict) VALUES (?, 0, NULL, NULL)').run(run);
  const row = db.prepare('SELECT next_step, snapshot, verdict FROM runs WHERE id = ?').get(run);
  if (row === undefined) throw new Error(`run ${run} vanished`);
  return { next: integer(row.next_step, 'next_step'), snapshot: textOrNull(row.snapshot, 'snapshot'), verdict: textOrNull(row.verdict, 'verdict') };
}

/**
 * Saves step `step`: the snapshot taken after checking it, its verdict and the log entry, in one transaction. Only
 * if the run is still at that step: a process that finds the row moved on (another process saved the step first)
 * changes nothing and throws.
 */
export function saveStep(db: DatabaseSync, run: string, step: number, snapshot: string, verdict: string, pid: number): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const { changes } = db
      .prepare('UPDATE runs SET next_step = ?, snapshot = ?, verdict = ? WHERE id = ? AND next_step = ?')
      .run(step + 1, snapshot, verdict, run, step);
    if (Number(changes) !== 1) throw new Error(`run ${run} is no longer at step ${String(step)}: not saved`);
    db.prepare('INSERT INTO steps (run, step, pid, verdict) VALUES (?, ?, ?, ?)').run(run, step, pid, verdict);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The saved steps of a run, in order. */
export function stepLog(db: DatabaseSync, run: string): SavedStep[] {
  return db
    .prepare('SELECT step, pid, verdict FROM steps WHERE run = ? ORDER BY step')
    .all(run)
    .map((row) => ({
      step: integer(row.step, 'step'),
      pid: integer(row.pid, 'pid'),
      verdict: textOrNull(row.verdict, 'verdict') ?? '',
    }));
}
