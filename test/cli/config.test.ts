import { writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig, MAX_CONFIG_BYTES } from '../../src/cli/config.js';
import { createGuard } from '../../src/index.js';
import { useTempDir } from './support.js';

// createGuard as it is, wrapped so one test can make it throw something that is not an Error.
vi.mock('../../src/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/index.js')>();
  return { ...actual, createGuard: vi.fn(actual.createGuard) };
});

const at = useTempDir('loopguard-config-');

/** Writes a config file and loads it. */
async function load(name: string, content: string | Buffer, maxBytes?: number): Promise<ReturnType<typeof loadConfig>> {
  writeFileSync(at(name), content);
  return loadConfig(at(name), maxBytes);
}

describe('loadConfig', () => {
  it('reads guard options from a JSON file, with or without a byte-order mark', async () => {
    const options = { maxSteps: false, repeatedToolCall: { threshold: 5 }, oscillation: { maxPeriod: 64 } };
    expect(await load('good.json', JSON.stringify(options))).toEqual({ options });
    expect(await load('bom.json', `\uFEFF${JSON.stringify({ maxSteps: 3 })}`)).toEqual({ options: { maxSteps: 3 } });
  });

  it('caps the file at 1 MiB, and reports a larger one', async () => {
    expect(MAX_CONFIG_BYTES).toBe(1_048_576);
    expect(await load('big.json', `{"maxSteps": 3}${' '.repeat(100)}`, 64)).toEqual({ error: `${at('big.json')}: larger than 64 bytes` });
  });

  it('reports a file that cannot be read, is not UTF-8 or is not JSON', async () => {
    expect((await loadConfig(at('missing.json'))).error).toMatch(new RegExp(`^${at('missing.json')}: cannot read: ENOENT`));
    expect(await load('latin1.json', Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({ error: `${at('latin1.json')}: not valid UTF-8` });
    expect((await load('broken.json', '{ maxSteps: 3 }')).error).toMatch(new RegExp(`^${at('broken.json')}: not valid JSON: `));
  });

  it.each(['custom', 'now'])('refuses the function option "%s" with a clear message', async (name) => {
    expect(await load(`${name}.json`, JSON.stringify({ [name]: null }))).toEqual({
      error: `${at(`${name}.json`)}: option "${name}" takes a function, which a JSON file cannot hold`,
    });
  });

  it('lists only the options a JSON file can hold when one is unknown', async () => {
    expect(await load('typo.json', JSON.stringify({ maxStep: 3 }))).toEqual({
      error:
        `${at('typo.json')}: unknown option "maxStep" ` +
        '(known: finishReason, budget, maxSteps, repeatedToolCall, oscillation, noProgress, stagnation, tools, historyLimit).',
    });
    expect(await load('nested.json', JSON.stringify({ budget: { maxCost: 1 } }))).toEqual({
      error:
        `${at('nested.json')}: unknown option "budget.maxCost" ` +
        '(known: maxTotalTokens, maxInputTokens, maxOutputTokens, maxCostUsd, maxDurationMs, warnAt).',
    });
  });

  it('reports options createGuard rejects, without its prefix', async () => {
    expect(await load('threshold.json', JSON.stringify({ repeatedToolCall: { threshold: 1 } }))).toEqual({
      error: `${at('threshold.json')}: option "repeatedToolCall.threshold" must be an integer of at least 2, got 1.`,
    });
    expect(await load('array.json', '[]')).toEqual({ error: `${at('array.json')}: option "options" must be an object, got an array.` });
  });

  it('refuses, as createGuard does, an oscillation period that would make every check scan that many calls', async () => {
    expect(await load('period.json', JSON.stringify({ oscillation: { maxPeriod: 1e9 } }))).toEqual({
      error: `${at('period.json')}: option "oscillation.maxPeriod" must be an integer from 2 to 64, got 1000000000.`,
    });
  });

  it('turns anything createGuard throws into an error message', async () => {
    vi.mocked(createGuard).mockImplementationOnce(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the point: a throw that is not an Error
      throw 'not an Error';
    });
    expect(await load('odd.json', '{}')).toEqual({ error: `${at('odd.json')}: not an Error` });
  });
});
