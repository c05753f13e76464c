import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'reports/', '.stryker-tmp/', '.cache/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A number in a template reads as itself; `${String(count)}` only adds noise. Objects, `undefined` and the like
      // stay refused, as the strict config wants.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // The library runs in browsers and edge runtimes too.
      'no-restricted-imports': ['error', { patterns: ['node:*'] }],
    },
  },
  {
    // The replay command runs on Node only: it reads files and streams.
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
