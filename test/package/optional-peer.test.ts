/**
 * `@opentelemetry/api` is an optional peer dependency that only the /otel subpath imports. In the installed tarball
 * (a project with nothing else installed), the root entry and every other subpath load and work without it, through
 * `import` and `require`; /otel refuses to load naming the missing package; and with the peer installed, /otel
 * records a stop on a span.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { subpathNames, type PackageManifest } from './package-rules.js';

const { project, packageFolder } = inject('installation');
const manifest = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as PackageManifest;
const name = String(manifest.name);
const PEER = '@opentelemetry/api';
const withoutPeer = subpathNames(manifest).filter((subpath) => subpath !== 'otel');

/** Runs a script with the project's Node in `cwd`; `module` picks ES module or CommonJS. */
function node(cwd: string, module: boolean, script: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...(module ? ['--input-type=module'] : []), '--eval', script], { cwd, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** For each entry: whether it loaded, how many functions it exports, and what a guard made by the root said. */
const EXERCISE = `
  const report = {};
  for (const entry of ENTRIES) {
    const lib = await LOAD(entry);
    report[entry] = Object.values(lib).filter((value) => typeof value === 'function').length;
  }
  const root = await LOAD(${JSON.stringify(name)});
  const guard = root.createGuard();
  const call = { toolCalls: [{ name: 'search', args: { q: 1 } }] };
  report.stop = [guard.check(call), guard.check(call), guard.check(call)].map((verdict) => verdict.stop);
  console.log(JSON.stringify(report));
`;

describe('without @opentelemetry/api installed', () => {
  const entries = [name, ...withoutPeer.map((subpath) => `${name}/${subpath}`)];
  const script = EXERCISE.replace('ENTRIES', JSON.stringify(entries));

  it('is not installed in the consumer project, so the checks below can fail', () => {
    const found = node(project, false, `try { require.resolve(${JSON.stringify(PEER)}); console.log('found'); } catch { console.log('absent'); }`);
    expect(found.stdout.trim()).toBe('absent');
  });

  it.each([
    { loader: 'import', module: true, code: script.replaceAll('LOAD', '((specifier) => import(specifier))') },
    { loader: 'require', module: false, code: `(async () => { ${script.replaceAll('LOAD', '((specifier) => Promise.resolve(require(specifier)))')} })()` },
  ])('the root entry and every subpath but /otel load and work through $loader', ({ module, code }) => {
    const result = node(project, module, code);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual([...entries, 'stop'].sort());
    for (const entry of entries) expect(report[entry], entry).toEqual(expect.any(Number));
    for (const entry of entries) expect(report[entry] as number, entry).toBeGreaterThan(0);
    expect(report.stop).toEqual([false, false, true]);
  });

  it('no built file but those of /otel names the peer: the shared chunks do not import it', () => {
    const dist = join(packageFolder, 'dist');
    const naming = readdirSync(dist).filter((file) => readFileSync(join(dist, file), 'utf8').includes(PEER));
    expect(naming.sort()).toEqual(['otel.cjs', 'otel.d.cts', 'otel.d.ts', 'otel.js']);
  });

  it.each([
    { loader: 'import', module: true, code: `await import(${JSON.stringify(`${name}/otel`)});` },
    { loader: 'require', module: false, code: `require(${JSON.stringify(`${name}/otel`)});` },
  ])('/otel fails to load through $loader, naming the missing package', ({ module, code }) => {
    const result = node(project, module, code);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(PEER);
  });
});

describe('with @opentelemetry/api installed', () => {
  const consumer = mkdtempSync(join(tmpdir(), 'agent-loopguard-peer-'));
  afterAll(() => {
    rmSync(consumer, { recursive: true, force: true });
  });
  // A copy of the installed package, and the peer from the repository's own dev dependencies.
  cpSync(packageFolder, join(consumer, 'node_modules', name), { recursive: true });
  mkdirSync(join(consumer, 'node_modules', '@opentelemetry'), { recursive: true });
  symlinkSync(fileURLToPath(new URL('../../node_modules/@opentelemetry/api', import.meta.url)), join(consumer, 'node_modules', PEER), 'dir');

  const exercise = `
    const { createGuard } = LIB_ROOT;
    const { loopGuardTelemetry } = LIB_OTEL;
    const events = [];
    let status;
    const span = {
      addEvent: (eventName, attributes) => events.push([eventName, attributes]),
      setStatus: (given) => { status = given; },
      setAttribute: (key, value) => events.push(['attribute', { [key]: value }]),
      isRecording: () => true,
    };
    const telemetry = loopGuardTelemetry({ span });
    const guard = createGuard();
    const call = { toolCalls: [{ name: 'search', args: { q: 'private' } }] };
    for (let index = 0; index < 3; index++) telemetry.record(guard.check(call), index);
    console.log(JSON.stringify({ events: events.map(([eventName, attributes]) => [eventName, attributes['agent_loopguard.code'] ?? attributes['error.type'], attributes['agent_loopguard.reason']]), status }));
  `;
  it.each([
    { loader: 'import', module: true, code: `const root = await import('${name}'); const otel = await import('${name}/otel');` },
    { loader: 'require', module: false, code: `const root = require('${name}'); const otel = require('${name}/otel');` },
  ])('/otel records a stop on a span through $loader', ({ module, code }) => {
    const stdout = execFileSync(process.execPath, [...(module ? ['--input-type=module'] : []), '--eval', code + exercise.replace('LIB_ROOT', 'root').replace('LIB_OTEL', 'otel')], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toEqual({
      events: [
        ['agent_loopguard.warning', 'LOOP_WARNING', 'repeated-tool-call'],
        ['agent_loopguard.warning', 'LOOP_WARNING', 'no-progress'],
        ['agent_loopguard.stop', 'REPEATED_TOOL_CALL', 'repeated-tool-call'],
        ['attribute', 'REPEATED_TOOL_CALL', null],
      ],
      status: { code: 2, message: 'agent-loopguard stopped the run: REPEATED_TOOL_CALL' },
    });
  });
});
