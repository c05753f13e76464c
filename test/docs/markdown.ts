/**
 * Reads the project's documentation for the docs tests: which files there are, their fenced code blocks with the
 * check markers in front of them, their links, and the anchors their headings get on GitHub.
 *
 * A marker is an HTML comment on the line just before a fence (invisible on GitHub and npm):
 * - `<!-- check: prelude ... -->`: TypeScript the block's check puts in front of it (declarations of what the example
 *   leaves to the reader, such as `model` or `runOneStep`);
 * - `<!-- check: skip REASON -->`: the block is not compiled, for the reason given;
 * - `<!-- check: output of COMMAND -->`: the block shows what COMMAND prints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root folder. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** Where the repository lives on GitHub: links that must work on the npm page point there. */
export const REPOSITORY_URL = 'https://github.com/osama-ansar/agent-loopguard';

/** What a marker in front of a block says. */
export type Marker =
  | { readonly kind: 'prelude'; readonly code: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'output'; readonly command: string };

/** One fenced code block. */
export interface CodeBlock {
  /** The file, relative to the root, with `/` separators. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The first word of the info string (`ts`, `bash`, ...). */
  readonly language: string;
  readonly code: string;
  readonly marker: Marker | undefined;
}

/** The documentation: README.md, CONTRIBUTING.md, CHANGELOG.md and every Markdown file under docs/, relative to the root. */
export function documentationFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files;
}

/** The text of a file under the root. */
export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

function readMarker(comment: string): Marker | undefined {
  const body = comment.replace(/^<!--/, '').replace(/-->$/, '').trim();
  if (!body.startsWith('check:')) return undefined;
  const rest = body.slice('check:'.length).trim();
  if (rest.startsWith('prelude')) return { kind: 'prelude', code: rest.slice('prelude'.length).trim() };
  if (rest.startsWith('skip')) return { kind: 'skip', reason: rest.slice('skip'.length).trim() };
  if (rest.startsWith('output of')) return { kind: 'output', command: rest.slice('output of'.length).trim() };
  throw new Error(`unknown check marker: ${comment}`);
}

/** Every fenced code block of a file, with the marker in front of it. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readDoc(file).split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(\S*)/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !(lines[index] ?? '').startsWith('```'); index++) body.push(lines[index] ?? '');
    // The comment that ends on the line before the fence, if any.
    let marker: Marker | undefined;
    if ((lines[start - 1] ?? '').trimEnd().endsWith('-->')) {
      let open = start - 1;
      while (open > 0 && !(lines[open] ?? '').includes('<!--')) open--;
      marker = readMarker(lines.slice(open, start).join('\n').trim());
    }
    blocks.push({ file, line: start + 1, language: fence[1] ?? '', code: body.join('\n'), marker });
  }
  return blocks;
}

/** One link of a file: its target as written, and the line it is on. */
export interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** Every Markdown link and image of a file, outside code blocks and code spans. */
export function links(file: string): Link[] {
  const found: Link[] = [];
  let inBlock = false;
  readDoc(file)
    .split('\n')
    .forEach((text, index) => {
      if (text.startsWith('```')) inBlock = !inBlock;
      if (inBlock) return;
      const prose = text.replace(/`[^`]*`/g, '');
      for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) found.push({ file, line: index + 1, target: match[1] ?? '' });
    });
  return found;
}

/** The anchors GitHub gives a file's headings: lower-cased, punctuation dropped, spaces as hyphens. */
export function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  let inBlock = false;
  for (const text of readDoc(file).split('\n')) {
    if (text.startsWith('```')) inBlock = !inBlock;
    const heading = inBlock ? null : /^#{1,6}\s+(.*)$/.exec(text);
    if (heading === null) continue;
    const slug = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let copy = 1; anchors.has(anchor); copy++) anchor = `${slug}-${String(copy)}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** A path relative to the root, with `/` separators. */
export function fromRoot(path: string): string {
  return relative(ROOT, path).split('\\').join('/');
}
