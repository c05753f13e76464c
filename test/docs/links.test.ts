/**
 * The documentation's links lead somewhere: a link to a file of the repository names a file that exists, and a link
 * to a heading names a heading that exists. The README is also the npm page, where relative links break (npm does not
 * ship docs/), so it links to files by their GitHub address.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, fromRoot, headingAnchors, links, REPOSITORY_URL, ROOT, type Link } from './markdown.js';

const FILE_ADDRESS = `${REPOSITORY_URL}/blob/main/`;

/** The file a link leads to, relative to the root, and the heading in it, or `undefined` for a link elsewhere. */
function targetOf(link: Link): { readonly path: string; readonly anchor: string | undefined } | undefined {
  const [address = '', anchor] = link.target.split('#');
  if (address.startsWith(FILE_ADDRESS)) return { path: address.slice(FILE_ADDRESS.length), anchor };
  if (/^[a-z]+:/.test(address)) return undefined;
  const path = address === '' ? link.file : fromRoot(normalize(join(ROOT, dirname(link.file), address)));
  return { path, anchor };
}

const allLinks = documentationFiles().flatMap((file) => links(file));

describe('the links of the documentation', () => {
  it('are found', () => {
    expect(allLinks.length).toBeGreaterThan(50);
  });

  it('in the README, reach files and headings through their GitHub address, so they work on the npm page too', () => {
    const relative = links('README.md').filter((link) => !/^(https?:|#)/.test(link.target));
    expect(relative).toEqual([]);
  });

  it.each(allLinks.map((link) => [`${link.file}:${String(link.line)}`, link.target, link] as const))('%s: %s leads somewhere', (_where, _target, link) => {
    const target = targetOf(link);
    if (target === undefined) return;
    const file = join(ROOT, target.path);
    expect(existsSync(file), `${target.path} does not exist`).toBe(true);
    if (target.anchor === undefined || target.anchor === '') return;
    expect(statSync(file).isFile() && target.path.endsWith('.md'), `${target.path} has no headings`).toBe(true);
    expect([...headingAnchors(target.path)]).toContain(target.anchor);
  });
});
