import { describe, expect, it } from 'vitest';
import { loadedFiles, modulesInSeveralFiles, relativeImports, sourceModules } from './module-graph.js';

describe('relativeImports', () => {
  it('finds what ES modules, CommonJS and declarations load by relative path, each once', () => {
    const code = [
      "import { a } from './chunk-A.js';",
      'export { b } from "./chunk-B.js";',
      "import './side-effect.js';",
      "const later = import('./later.js');",
      "var chunk = require('./chunk-C.cjs');",
      "var again = require( './chunk-C.cjs' );",
      "import { G as Guard } from '../dist/types-C7vgcZXj.cjs';",
    ].join('\n');
    expect(relativeImports(code)).toEqual([
      './chunk-A.js',
      './chunk-B.js',
      './side-effect.js',
      './later.js',
      './chunk-C.cjs',
      '../dist/types-C7vgcZXj.cjs',
    ]);
  });

  it('leaves packages and relative paths that nothing loads alone', () => {
    const code = "import x from 'langchain';\nconst y = require('node:fs');\nconst path = './not-loaded.js';\n// from ./a.js";
    expect(relativeImports(code)).toEqual([]);
  });
});

describe('sourceModules', () => {
  it('reads the comments esbuild writes above each module, and nothing else', () => {
    const code = '// src/guard/create-guard.ts\nfunction createGuard() {}\n  // src/indented.ts\n// see src/x.ts\n// src/a.ts';
    expect(sourceModules(code)).toEqual(['src/guard/create-guard.ts', 'src/a.ts']);
  });
});

describe('loadedFiles', () => {
  const files: Readonly<Record<string, string>> = {
    'dist/index.js': "import './chunk-A.js';\nexport * from './chunk-B.js';",
    'dist/chunk-A.js': "import './chunk-B.js';",
    'dist/chunk-B.js': "import './chunk-A.js';",
    'dist/index.d.cts': "import { a } from './types-X.cjs';\nexport { b } from './types-Y.js';",
    'dist/types-X.d.cts': '',
    'dist/types-Y.d.ts': '',
  };
  const read = (path: string): string => {
    const code = files[path];
    if (code === undefined) throw new Error(`no file ${path}`);
    return code;
  };

  it('follows imports through cycles, with each file once and the entry first', () => {
    expect(loadedFiles('dist/index.js', read).sort()).toEqual(['dist/chunk-A.js', 'dist/chunk-B.js', 'dist/index.js']);
    expect(loadedFiles('dist/chunk-A.js', read)[0]).toBe('dist/chunk-A.js');
  });

  it('reads the declarations a declaration file names by its module', () => {
    expect(loadedFiles('dist/index.d.cts', read).sort()).toEqual(['dist/index.d.cts', 'dist/types-X.d.cts', 'dist/types-Y.d.ts']);
  });

  it('fails on a file that is not there', () => {
    expect(() => loadedFiles('dist/missing.js', read)).toThrow('no file dist/missing.js');
  });
});

describe('modulesInSeveralFiles', () => {
  it('names each source module compiled into more than one file, with those files', () => {
    const codeByFile = new Map([
      ['dist/index.js', '// src/a.ts\n// src/b.ts'],
      ['dist/mastra.js', '// src/b.ts\n// src/c.ts'],
      ['dist/chunk-A.js', '// src/b.ts\n// src/d.ts'],
    ]);
    expect(modulesInSeveralFiles(codeByFile)).toEqual(['src/b.ts: dist/index.js, dist/mastra.js, dist/chunk-A.js']);
    expect(modulesInSeveralFiles(new Map([...codeByFile].slice(0, 1)))).toEqual([]);
  });
});
