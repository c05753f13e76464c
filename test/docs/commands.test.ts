/**
 * The commands the documentation tells a reader to run are run: every shell command of README.md and docs/replay.md is
 * one that .ci/run runs, or one this file runs (the replay command, through its in-process entry point); every output
 * the documentation shows is what its command prints now; and the README's claims about where the package works
 * are the ones the packed-tarball smoke test checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { codeBlocks, readDoc, ROOT, type CodeBlock } from './markdown.js';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string> };
const CI = readDoc('.ci/run');
const SMOKE = readDoc('scripts/smoke-pack.sh');

/** The shell commands of a file's bash blocks: one per line or `&&` part, comments and prompts dropped. */
function shellCommands(file: string): { readonly block: CodeBlock; readonly command: string }[] {
  return codeBlocks(file)
    .filter((block) => block.language === 'bash' || block.language === 'sh')
    .flatMap((block) =>
      block.code
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
        .flatMap((line) => line.split('&&').map((part) => part.trim()))
        .map((command) => ({ block, command })),
    );
}

/** Whether .ci/run runs the command: a line of it starts with the command, perhaps followed by more flags. */
function ciRuns(command: string): boolean {
  return CI.split('\n').some((line) => line.trim() === command || line.trim().startsWith(`${command} `));
}

/** The files the replay commands of the documentation name, made from the committed fixtures. */
function replayFiles(): Record<string, string> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-loopguard-docs-'));
  const runs = readFileSync(join(ROOT, 'test/fixtures/runs.jsonl'));
  const config = codeBlocks('docs/replay.md').find((block) => block.language === 'json');
  if (config === undefined) throw new Error('docs/replay.md shows no config file');
  const files: Record<string, string | Buffer> = { 'runs.jsonl': runs, 'runs.jsonl.gz': gzipSync(runs), 'guard.json': config.code };
  return Object.fromEntries(
    Object.entries(files).map(([name, content]) => {
      writeFileSync(join(folder, name), content);
      return [name, join(folder, name)];
    }),
  );
}

/** Runs the replay command in-process, as `npx <package> ...argv` would. */
async function replay(argv: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { status, stdout, stderr };
}

/** What `npm run <script>` prints, for a script that runs a file with tsx. */
function scriptOutput(script: string): string {
  const command = PACKAGE.scripts[script];
  if (command?.startsWith('tsx ') !== true) throw new Error(`npm run ${script} is not a tsx script: ${String(command)}`);
  return execFileSync(process.execPath, ['--import', 'tsx', ...command.slice('tsx '.length).split(' ')], { cwd: ROOT, encoding: 'utf8' });
}

describe('the shell commands of the documentation', () => {
  const files = replayFiles();

  describe.each(['README.md', 'docs/replay.md'])('%s', (file) => {
    const commands = shellCommands(file);

    it('has some', () => {
      expect(commands.length).toBeGreaterThan(0);
    });

    it.each(commands.map(({ block, command }) => [command, block.line] as const))('%s (line %i) is run by CI or by this test', async (command) => {
      const words = command.split(/\s+/);
      if (words[0] === 'npm' && (words[1] === 'i' || words[1] === 'install')) {
        // Not published yet: the smoke test installs the packed tarball the same way, in a new project, in CI.
        expect(words.slice(2)).toEqual([PACKAGE.name]);
        expect(SMOKE).toMatch(/npm install [^\n]*"\$tarball"/);
        expect(ciRuns('npm run test:smoke')).toBe(true);
        return;
      }
      if (words[0] === 'npx') {
        expect(words[1]).toBe(PACKAGE.name);
        const argv = words.slice(2).map((word) => files[word] ?? word);
        expect(argv.filter((word) => !word.startsWith('-') && !Object.values(files).includes(word))).toEqual(['replay']);
        const result = await replay(argv);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        return;
      }
      expect(ciRuns(command), `.ci/run does not run "${command}"`).toBe(true);
    });
  });
});

describe('the outputs the documentation shows', () => {
  const shown = ['README.md', 'docs/replay.md', 'docs/integrations/claude-agent-sdk.md'].flatMap((file) => codeBlocks(file)).filter((block) => block.marker?.kind === 'output');

  it('are found', () => {
    expect(shown.map((block) => (block.marker?.kind === 'output' ? block.marker.command : ''))).toEqual([
      'npm run example:loop',
      'replay test/fixtures/runs.jsonl',
      'npm run example:claude-agent-sdk',
    ]);
  });

  it.each(shown.map((block) => [block.marker?.kind === 'output' ? block.marker.command : '', block] as const))('%s prints what is shown', async (command, block) => {
    let output: string;
    if (command.startsWith('npm run ')) output = scriptOutput(command.slice('npm run '.length));
    else {
      const result = await replay([...command.split(' ').slice(0, -1), join(ROOT, command.split(' ').at(-1) ?? '')]);
      expect(result.status).toBe(0);
      output = result.stdout;
    }
    // The block may show the start of the output only.
    expect(output.startsWith(`${block.code}\n`), `${block.file}:${String(block.line)} shows:\n${block.code}\nthe command prints:\n${output}`).toBe(true);
  });
});

describe("the README's claims about where the package works", () => {
  // Compared with line breaks as spaces: where the lines wrap is not a claim.
  const readme = readDoc('README.md').replace(/\s+/g, ' ');

  it('names every module resolution the smoke test checks the types under', () => {
    const modes = /for mode in ([\w ]+); do/.exec(SMOKE)?.[1]?.split(' ') ?? [];
    expect(modes).toEqual(['node16', 'nodenext', 'bundler', 'node10']);
    for (const mode of modes) expect(readme).toContain(`\`${mode}\``);
  });

  it('says TypeScript 6 and 7, and that 7 refuses node10, as the smoke test checks', () => {
    expect(SMOKE).toContain('node_modules/typescript/bin/tsc $root/node_modules/typescript-7/bin/tsc');
    expect(SMOKE).toContain("error TS5108: Option 'moduleResolution=node10' has been removed");
    expect(readme).toContain('with TypeScript 6 and 7, and under `node10` with TypeScript 6');
    expect(readme).toContain('TypeScript 7 has removed `node10`');
  });

  it('names the Node versions the smoke test runs the tarball on', () => {
    expect(SMOKE).toContain('AGENT_LOOPGUARD_SMOKE_NODES:-18 20 22 24');
    expect(readme).toContain('tested on Node 18, 20, 22 and 24');
  });
});
