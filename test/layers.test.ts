import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of `src/`, from the bottom up. A file may import from its own layer and any layer below it, never from one
 * above. `src/index.ts`, the root entry, gathers the layers below it; the replay command sits on top and uses it.
 */
const LAYERS = ['types.ts', 'utils', 'canonical', 'detectors', 'guard', 'adapters', 'index.ts', 'cli'] as const;

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The layer of a path inside `src/` (posix, relative to it), or -1 for a path in none. */
function layerOf(file: string): number {
  const [first = '', ...rest] = file.split('/');
  if (rest.length === 0) return first === 'types.ts' || first === 'index.ts' ? LAYERS.indexOf(first) : -1;
  return first === 'types.ts' || first === 'index.ts' ? -1 : LAYERS.indexOf(first as (typeof LAYERS)[number]);
}

const layerName = (layer: number): string => (layer < 0 ? 'no layer' : (LAYERS[layer] ?? 'no layer'));

/**
 * The relative imports of a source, as TypeScript reads them: `import`, `import type`, `export ... from`, side-effect
 * and dynamic imports, `import x = require(...)`; not what comments or strings hold.
 */
function relativeImports(source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'));
}

/**
 * Every import of `file` (a path relative to `src/`) that climbs: to a layer above the file's own, to a file in no
 * layer, or out of `src/`. Each as `file -> import (what is wrong)`.
 */
function climbingImports(file: string, source: string): string[] {
  const own = layerOf(file);
  const problems: string[] = [];
  if (own < 0) problems.push(`${file} is in no layer`);
  for (const specifier of relativeImports(source)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    const layer = target.startsWith('../') ? -1 : layerOf(target);
    if (layer < 0) problems.push(`${file} -> ${specifier} (${target.startsWith('../') ? 'outside src' : 'no layer'})`);
    else if (layer > own) problems.push(`${file} -> ${specifier} (${layerName(layer)} is above ${layerName(own)})`);
  }
  return problems;
}

/** Every `.ts` file under `src/`, relative to it, with `/` separators. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
}

describe('the import checker', () => {
  it('finds the relative imports of every form, and none in comments or strings', () => {
    const source = [
      "import type { A } from '../types.js';",
      "import { b,\n  c } from './b.js';",
      "export { d } from '../guard/d.js';",
      "export type { E } from './e.js';",
      "export * from '../adapters/f.js';",
      "import './side.js';",
      "const g = await import('../cli/g.js');",
      "import h = require('../h.js');",
      "import fs from 'node:fs';",
      "// import { no } from '../cli/comment.js';",
      'const text = "import { no } from \'../cli/string.js\'";',
    ].join('\n');
    expect(relativeImports(source)).toEqual(['../types.js', './b.js', '../guard/d.js', './e.js', '../adapters/f.js', './side.js', '../cli/g.js', '../h.js']);
  });

  it('fails an import that climbs, in any form, and passes one into its own folder or below', () => {
    expect(climbingImports('utils/read.ts', "import type { ResolvedOptions } from '../guard/options.js';")).toEqual([
      'utils/read.ts -> ../guard/options.js (guard is above utils)',
    ]);
    expect(climbingImports('canonical/form.ts', "export { x } from '../detectors/answers.js';\nimport { y } from './hash.js';")).toEqual([
      'canonical/form.ts -> ../detectors/answers.js (detectors is above canonical)',
    ]);
    expect(climbingImports('types.ts', "import type { Guard } from './index.js';")).toEqual(['types.ts -> ./index.js (index.ts is above types.ts)']);
    expect(climbingImports('guard/verdict.ts', "import { run } from '../adapters/run-agent-loop.js';")).toEqual([
      'guard/verdict.ts -> ../adapters/run-agent-loop.js (adapters is above guard)',
    ]);
    expect(climbingImports('detectors/budget.ts', "import type { X } from '../types.js';\nimport { y } from '../utils/read.js';\nimport { z } from './detector.js';")).toEqual([]);
    expect(climbingImports('cli/main.ts', "import { a } from '../guard/create-guard.js';\nimport { b } from '../adapters/with-guard.js';")).toEqual([]);
    expect(climbingImports('index.ts', "export { main } from './cli/main.js';")).toEqual(['index.ts -> ./cli/main.js (cli is above index.ts)']);
    expect(climbingImports('cli/main.ts', "import { createGuard } from '../index.js';")).toEqual([]);
  });

  it('fails a file in no layer, and an import of one or out of src', () => {
    expect(climbingImports('extra/thing.ts', '')).toEqual(['extra/thing.ts is in no layer']);
    expect(climbingImports('guard/a.ts', "import { x } from '../extra/thing.js';\nimport { y } from '../../package.json';")).toEqual([
      'guard/a.ts -> ../extra/thing.js (no layer)',
      'guard/a.ts -> ../../package.json (outside src)',
    ]);
  });
});

describe('the layers of src', () => {
  it('hold every source file, and no import climbs', () => {
    const files = sourceFiles();
    expect(files).toContain('index.ts');
    expect(files.filter((file) => file.startsWith('guard/')).length).toBeGreaterThan(5);
    let imports = 0;
    const problems = files.flatMap((file) => {
      const source = readFileSync(path.join(SRC, file), 'utf8');
      imports += relativeImports(source).length;
      return climbingImports(file, source);
    });
    expect(problems).toEqual([]);
    expect(imports).toBeGreaterThan(100);
  });
});
