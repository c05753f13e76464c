/**
 * Every TypeScript block of the documentation compiles: each ```ts block of README.md and docs/**\/*.md is type-checked
 * with the project's TypeScript and compiler options, as a module of its own, with `@osama.ansar/agent-loopguard` and
 * its subpaths mapped to src/ and the frameworks taken from node_modules, so an example cannot drift from the API
 * or from a framework's types. A block that is not meant to compile says so with `<!-- check: skip REASON -->`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeBlocks, documentationFiles, ROOT, type CodeBlock } from './markdown.js';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };

/**
 * Where each entry of the package comes from: the root from src/index.ts, each subpath from the source tsup bundles
 * it from (read from tsup.config.ts as text: importing it would empty dist/).
 */
function entrySources(): Record<string, string> {
  const tsup = readFileSync(join(ROOT, 'tsup.config.ts'), 'utf8');
  const sources: Record<string, string> = { [PACKAGE.name]: join(ROOT, 'src/index.ts') };
  for (const key of Object.keys(PACKAGE.exports)) {
    if (key === '.' || key === './package.json') continue;
    const name = key.slice(2);
    const source = new RegExp(`'${name}': '([^']+)'`).exec(tsup)?.[1];
    if (source === undefined) throw new Error(`tsup.config.ts has no source for the subpath ${key}`);
    sources[`${PACKAGE.name}/${name}`] = join(ROOT, source);
  }
  return sources;
}

const TS_LANGUAGES = new Set(['ts', 'typescript']);

function typeScriptBlocks(): CodeBlock[] {
  return documentationFiles()
    .filter((file) => file === 'README.md' || file.startsWith('docs/'))
    .flatMap((file) => codeBlocks(file))
    .filter((block) => TS_LANGUAGES.has(block.language));
}

/** A block as the module that is compiled: its prelude, then its code, as a module even without imports. */
function moduleText(block: CodeBlock): { text: string; preludeLines: number } {
  const prelude = block.marker?.kind === 'prelude' ? `${block.marker.code}\n` : '';
  return { text: `${prelude}${block.code}\nexport {};\n`, preludeLines: prelude === '' ? 0 : prelude.split('\n').length - 1 };
}

/** Type-checks the blocks in one program; returns the diagnostics, each placed at its line in the Markdown file. */
function compile(blocks: readonly CodeBlock[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('tsconfig.json could not be read');
  const paths = Object.fromEntries(Object.entries(entrySources()).map(([name, source]) => [name, [source]]));
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, paths };
  // The blocks live beside the sources, in a folder that does not exist, so imports resolve from the project.
  const folder = join(ROOT, '.doc-snippets');
  const modules = new Map(blocks.map((block) => [join(folder, `${block.file.replaceAll('/', '-')}-${String(block.line)}.ts`), { block, ...moduleText(block) }]));
  const host = ts.createCompilerHost(options);
  const disk = { getSourceFile: host.getSourceFile.bind(host), fileExists: host.fileExists.bind(host), readFile: host.readFile.bind(host) };
  host.fileExists = (file) => modules.has(file) || disk.fileExists(file);
  host.readFile = (file) => modules.get(file)?.text ?? disk.readFile(file);
  host.getSourceFile = (file, language, onError, create) => {
    const snippet = modules.get(file);
    return snippet === undefined ? disk.getSourceFile(file, language, onError, create) : ts.createSourceFile(file, snippet.text, language);
  };
  const program = ts.createProgram([...modules.keys()], options, host);
  const messages: string[] = [];
  for (const [file, { block, preludeLines }] of modules) {
    const source = program.getSourceFile(file);
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const at = diagnostic.file !== undefined && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line : 0;
      // Line 0 of the code is the line after the fence; a line of the prelude is reported at the fence.
      const line = block.line + Math.max(0, at - preludeLines + 1);
      messages.push(`${block.file}:${String(line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
  }
  return messages;
}

describe('the TypeScript in the documentation', () => {
  const blocks = typeScriptBlocks();

  it('is found: the README and every guide have examples', () => {
    const files = new Set(blocks.map((block) => block.file));
    for (const file of ['README.md', 'docs/detection.md', 'docs/steering.md', 'docs/durable-runs.md', 'docs/integrations/ai-sdk.md']) {
      expect(files).toContain(file);
    }
  });

  it('marks every block it does not compile, with a reason', () => {
    const skipped = blocks.filter((block) => block.marker?.kind === 'skip');
    for (const block of skipped) expect(block.marker?.kind === 'skip' && block.marker.reason !== '', `${block.file}:${String(block.line)}`).toBe(true);
  });

  // One program over the frameworks' own types: about 15 s alone, and several times that on a machine others share.
  it('compiles with the project TypeScript and options, imports of the package mapped to src/', () => {
    // One program for every block, and for one that must fail, so the check is shown to catch a broken example.
    const broken: CodeBlock = {
      file: 'docs/broken.md',
      line: 10,
      language: 'ts',
      code: "import { createGuard } from '@osama.ansar/agent-loopguard';\n\ncreateGuard({ maxSteps: 'ten' });",
      marker: undefined,
    };
    const compiled = blocks.filter((block) => block.marker?.kind !== 'skip');
    expect(compile([...compiled, broken])).toEqual([expect.stringMatching(/^docs\/broken\.md:13: Type 'string' is not assignable/)]);
  }, 240_000);
});

describe('the framework guides', () => {
  // The examples are the guides' code as a runnable file: the same text, importing the sources instead of the package.
  it.each([
    ['docs/integrations/openai-agents.md', 'examples/openai-agents.ts', 'openai-agents'],
    ['docs/integrations/claude-agent-sdk.md', 'examples/claude-agent-sdk.ts', 'claude-agent-sdk'],
    ['docs/integrations/langchain.md', 'examples/langchain.ts', 'langchain'],
    ['docs/integrations/mastra.md', 'examples/mastra.ts', 'mastra'],
  ])('%s shows %s word for word', (guide, example, subpath) => {
    const code = readFileSync(join(ROOT, example), 'utf8')
      .replace(/^\/\*\*[\s\S]*?\*\/\n/, '')
      .replace("'../src/index.js'", `'${PACKAGE.name}'`)
      .replace(`'../src/adapters/${subpath}.js'`, `'${PACKAGE.name}/${subpath}'`);
    const [shown] = typeScriptBlocks().filter((block) => block.file === guide);
    expect(`${shown?.code ?? ''}\n`).toBe(code);
  });
});
