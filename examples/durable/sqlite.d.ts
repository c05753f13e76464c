/**
 * The part of Node 22's built-in `node:sqlite` the durable example uses. The project's `@types/node` is pinned to
 * Node 20, which has no `node:sqlite`, and the library must not depend on newer Node types; this declaration covers the
 * example only. Signatures follow Node 22's documentation (https://nodejs.org/docs/latest-v22.x/api/sqlite.html).
 */
declare module 'node:sqlite' {
  /** What a parameter may be bound to. */
  export type SQLInputValue = null | number | bigint | string | Uint8Array;
  /** What a column may come back as. */
  export type SQLOutputValue = null | number | bigint | string | Uint8Array;

  export interface DatabaseSyncOptions {
    /** Open the file in the constructor. @default true */
    readonly open?: boolean;
    readonly readOnly?: boolean;
    /** How long to wait for a lock held by another connection, in milliseconds. @default 0 */
    readonly timeout?: number;
  }

  export interface StatementResultingChanges {
    readonly changes: number | bigint;
    readonly lastInsertRowid: number | bigint;
  }

  export class StatementSync {
    run(...parameters: SQLInputValue[]): StatementResultingChanges;
    get(...parameters: SQLInputValue[]): Record<string, SQLOutputValue> | undefined;
    all(...parameters: SQLInputValue[]): Record<string, SQLOutputValue>[];
  }

  export class DatabaseSync {
    constructor(path: string, options?: DatabaseSyncOptions);
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
