import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_READ_LIMITS,
  decodeUtf8,
  MAX_DOCUMENT_BYTES,
  MAX_INPUT_VALUES,
  MAX_LINE_BYTES,
  readCapped,
  readRuns,
  splitLines,
  toRecordedRun,
  type ReadLimits,
  type RunOrError,
} from '../../src/cli/read-runs.js';
import { useTempDir } from './support.js';

const at = useTempDir('loopguard-read-');

async function read(file: string, limits?: ReadLimits): Promise<RunOrError[]> {
  const items: RunOrError[] = [];
  for await (const item of readRuns(file, limits)) items.push(item);
  return items;
}

/** Each item as [id, line] for a run, or [line, message] for an error. */
async function outline(file: string, limits?: ReadLimits): Promise<(string | number | null)[][]> {
  return (await read(file, limits)).map((item) =>
    item.run === undefined ? ['error', item.error.line, item.error.message] : [item.run.id, item.run.line],
  );
}

const line = (id: string): string => JSON.stringify({ id, steps: [{ text: id }] });

describe('readRuns on JSON lines', () => {
  it('reads a run a line, skipping blank lines, tolerating a byte-order mark and CRLF', async () => {
    writeFileSync(at('a.jsonl'), `\uFEFF${line('one')}\r\n\r\n  \n${line('two')}\r\n${line('three')}`);
    expect(await outline(at('a.jsonl'))).toEqual([
      ['one', 1],
      ['two', 4],
      ['three', 5],
    ]);
  });

  it('gives the steps and outcome as read', async () => {
    writeFileSync(at('b.ndjson'), JSON.stringify({ id: 'x', outcome: { resolved: false }, steps: [{ text: 'hi' }] }));
    const [item] = await read(at('b.ndjson'));
    expect(item?.run).toEqual({ id: 'x', file: at('b.ndjson'), line: 1, outcome: { resolved: false, exitStatus: null }, steps: [{ text: 'hi' }] });
  });

  it('reports bad lines by number and goes on', async () => {
    writeFileSync(at('c.jsonl'), [line('one'), '{"id":', '[]', '{"steps": 1}', line('five')].join('\n'));
    const items = await outline(at('c.jsonl'));
    expect(items).toHaveLength(5);
    expect(items[0]).toEqual(['one', 1]);
    expect(items[1]?.slice(0, 2)).toEqual(['error', 2]);
    expect(String(items[1]?.[2])).toMatch(/^not valid JSON: /);
    expect(items.slice(2)).toEqual([
      ['error', 3, 'expected a run object with a "steps" array, got an array'],
      ['error', 4, '"steps" must be an array, got a number'],
      ['five', 5],
    ]);
  });

  it('gives runs without an id the file and line as id', async () => {
    writeFileSync(at('d.jsonl'), '\n{"steps": []}\n');
    expect(await outline(at('d.jsonl'))).toEqual([[`${at('d.jsonl')}:2`, 2]]);
  });

  it('decompresses .gz (upper-case too)', async () => {
    writeFileSync(at('e.JSONL.GZ'), gzipSync(`${line('one')}\n${line('two')}\n`));
    expect(await outline(at('e.JSONL.GZ'))).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
  });

  it.each(['missing.jsonl', 'missing.jsonl.gz'])('reports a file that cannot be read (%s), with no line', async (name) => {
    const items = await outline(at(name));
    expect(items).toHaveLength(1);
    expect(items[0]?.slice(0, 2)).toEqual(['error', null]);
    expect(String(items[0]?.[2])).toMatch(/^cannot read: ENOENT/);
  });

  it('keeps the runs before a cut gzip stream and reports the line where reading broke', async () => {
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => line(`run-${String(i)}`)).join('\n'));
    writeFileSync(at('f.jsonl.gz'), whole.subarray(0, whole.length >> 1));
    const items = await read(at('f.jsonl.gz'));
    const runs = items.filter((item) => item.run !== undefined);
    const errors = items.filter((item) => item.error !== undefined);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.length).toBeLessThan(2000);
    expect(errors).toHaveLength(1);
    expect(items.at(-1)?.error).toEqual({ file: at('f.jsonl.gz'), line: runs.length + 1, message: expect.stringMatching(/^cannot read: /) as unknown });
  });

  it('reports a file that is not gzip at all', async () => {
    writeFileSync(at('g.jsonl.gz'), 'plain text\n');
    const items = await outline(at('g.jsonl.gz'));
    expect(items).toEqual([['error', null, 'cannot read: incorrect header check']]);
  });

  it('stops reading cleanly when the consumer stops early', async () => {
    writeFileSync(at('h.jsonl'), `${line('one')}\n${line('two')}\n`);
    const reader = readRuns(at('h.jsonl'));
    const first = await reader.next();
    expect(first.value).toMatchObject({ run: { id: 'one' } });
    expect(await reader.return(undefined)).toEqual({ done: true, value: undefined });
  });
});

describe('readRuns on .json documents', () => {
  const steps = [{ text: 'a' }, { toolCalls: [{ name: 't' }] }];

  it('reads an array of steps as one run named after the file', async () => {
    writeFileSync(at('steps.json'), JSON.stringify(steps));
    expect((await read(at('steps.json'))).map((item) => item.run)).toEqual([
      { id: at('steps.json'), file: at('steps.json'), line: null, outcome: null, steps },
    ]);
  });

  it('reads an array of runs, numbering the ones without an id', async () => {
    writeFileSync(at('runs.json'), JSON.stringify([{ id: 'a', steps }, { steps: [] }]));
    expect(await outline(at('runs.json'))).toEqual([
      ['a', null],
      [`${at('runs.json')}#2`, null],
    ]);
  });

  it('reports a bad run of an array by its number and keeps the others', async () => {
    writeFileSync(at('mixed.json'), JSON.stringify([{ id: 'a', steps }, { id: 'b', steps: 'x' }, { id: 'c', steps }]));
    expect(await outline(at('mixed.json'))).toEqual([
      ['a', null],
      ['error', null, 'run 2: "steps" must be an array, got a string'],
      ['c', null],
    ]);
  });

  it('reads one run object, and an empty array as no runs', async () => {
    writeFileSync(at('one.json'), `\uFEFF${JSON.stringify({ id: 'solo', steps })}`);
    writeFileSync(at('empty.json'), '[]');
    expect(await outline(at('one.json'))).toEqual([['solo', null]]);
    expect(await read(at('empty.json'))).toEqual([]);
  });

  it('reports steps that are not objects, and a document that is not a run', async () => {
    writeFileSync(at('numbers.json'), '[1, 2]');
    writeFileSync(at('number.json'), '3');
    expect(await outline(at('numbers.json'))).toEqual([['error', null, 'step 0 must be an object, got a number']]);
    expect(await outline(at('number.json'))).toEqual([['error', null, 'expected a run object with a "steps" array, got a number']]);
  });

  it('reports invalid JSON, with its line when the parser gives a position', async () => {
    writeFileSync(at('broken.json'), '[\n  {"steps": []},\n  {steps: []}\n]');
    const [item] = await read(at('broken.json'));
    expect(item?.error?.line).toBe(3);
    expect(item?.error?.message).toMatch(/^not valid JSON: .*position/);
  });

  it('reports invalid JSON without a line when the parser gives no position', async () => {
    writeFileSync(at('cut.json'), '[');
    const [item] = await read(at('cut.json'));
    expect(item?.error).toEqual({ file: at('cut.json'), line: null, message: 'not valid JSON: Unexpected end of JSON input' });
  });

  it('reads an empty or white-space-only document as no runs, as an empty JSON-lines file', async () => {
    writeFileSync(at('empty-file.json'), '');
    writeFileSync(at('blank.json.gz'), gzipSync('\uFEFF \r\n\t\n'));
    writeFileSync(at('empty-file.jsonl'), '');
    expect(await read(at('empty-file.json'))).toEqual([]);
    expect(await read(at('blank.json.gz'))).toEqual([]);
    expect(await read(at('empty-file.jsonl'))).toEqual([]);
  });

  it('reads gzip-compressed documents and reports ones that cannot be read', async () => {
    writeFileSync(at('steps.json.gz'), gzipSync(JSON.stringify(steps)));
    writeFileSync(at('bad.json.gz'), 'not gzip');
    expect(await outline(at('steps.json.gz'))).toEqual([[at('steps.json.gz'), null]]);
    expect(await outline(at('bad.json.gz'))).toEqual([['error', null, 'cannot read: incorrect header check']]);
    expect(String((await outline(at('none.json')))[0]?.[2])).toMatch(/^cannot read: ENOENT/);
  });
});

const place = { file: 'runs.jsonl', line: 7, fallbackId: 'runs.jsonl:7' };

/** Small caps, so the tests need no 64 MiB files. */
const SMALL: ReadLimits = { maxLineBytes: 1024, maxDocumentBytes: 2048, maxValues: 1000 };
const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"id":"\xff"}

describe('the read limits', () => {
  it('default to 64 MiB a line, 64 MiB a document and 4,000,000 JSON values in either, as documented', () => {
    expect(MAX_LINE_BYTES).toBe(67_108_864);
    expect(MAX_DOCUMENT_BYTES).toBe(67_108_864);
    expect(MAX_INPUT_VALUES).toBe(4_000_000);
    expect(DEFAULT_READ_LIMITS).toEqual({ maxLineBytes: MAX_LINE_BYTES, maxDocumentBytes: MAX_DOCUMENT_BYTES, maxValues: MAX_INPUT_VALUES });
  });

  it('report a line longer than the cap by number, skip it, and read the lines after it', async () => {
    const long = JSON.stringify({ id: 'long', steps: [{ text: 'x'.repeat(1100) }] });
    const atCap = JSON.stringify({ id: 'at-cap', steps: [{ text: 'y'.repeat(1024 - 40) }] }).padEnd(1024, ' ');
    expect(Buffer.byteLength(atCap)).toBe(1024);
    writeFileSync(at('long.jsonl'), [line('one'), long, atCap, `${atCap} `, line('five')].join('\n'));
    expect(await outline(at('long.jsonl'), SMALL)).toEqual([
      ['one', 1],
      ['error', 2, 'line longer than 1024 bytes'],
      ['at-cap', 3],
      ['error', 4, 'line longer than 1024 bytes'],
      ['five', 5],
    ]);
  });

  it('report a last line longer than the cap that has no newline after it', async () => {
    writeFileSync(at('long-end.jsonl.gz'), gzipSync(`${line('one')}\n${'z'.repeat(5000)}`));
    expect(await outline(at('long-end.jsonl.gz'), SMALL)).toEqual([
      ['one', 1],
      ['error', 2, 'line longer than 1024 bytes'],
    ]);
  });

  it('report a line that is not UTF-8 instead of replacing its bytes, and go on', async () => {
    writeFileSync(at('latin1.jsonl'), Buffer.concat([Buffer.from(`${line('one')}\n`), INVALID_UTF8, Buffer.from(`\n${line('three')}\n`)]));
    expect(await outline(at('latin1.jsonl'))).toEqual([
      ['one', 1],
      ['error', 2, 'not valid UTF-8'],
      ['three', 3],
    ]);
  });

  it('report a document larger than the cap, plain or gzip-compressed (a small gzip bomb), as that file\'s error', async () => {
    const steps = Array.from({ length: 200 }, () => ({ text: 'same' }));
    writeFileSync(at('big.json'), JSON.stringify(steps));
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(20_000);
    writeFileSync(at('bomb.json.gz'), bomb);
    expect(await outline(at('big.json'), SMALL)).toEqual([['error', null, 'document larger than 2048 bytes']]);
    expect(await outline(at('bomb.json.gz'), SMALL)).toEqual([['error', null, 'document larger than 2048 bytes']]);
    expect(await outline(at('big.json'))).toEqual([[at('big.json'), null]]);
  });

  it('report a document that is not UTF-8', async () => {
    writeFileSync(at('latin1.json'), INVALID_UTF8);
    expect(await outline(at('latin1.json'))).toEqual([['error', null, 'not valid UTF-8']]);
  });
});

describe('splitLines', () => {
  async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
    for (const part of parts) yield Buffer.from(part);
    await Promise.resolve();
  }
  async function lines(limit: number, ...parts: string[]): Promise<(string | null)[]> {
    const found: (string | null)[] = [];
    for await (const bytes of splitLines(chunks(...parts), limit)) found.push(bytes === null ? null : Buffer.from(bytes).toString());
    return found;
  }

  it('joins lines split across chunks and splits chunks holding several lines', async () => {
    expect(await lines(100, 'ab', 'c\nde', '', 'f\n\ng', 'h')).toEqual(['abc', 'def', '', 'gh']);
    expect(await lines(100, 'a\r\n', '\n')).toEqual(['a\r', '']);
    expect(await lines(100)).toEqual([]);
  });

  it('counts a line against the cap across chunks, and starts afresh after it', async () => {
    expect(await lines(3, 'ab', 'c\n', 'ab', 'cd', 'e\nxyz')).toEqual(['abc', null, 'xyz']);
    expect(await lines(3, 'abcd')).toEqual([null]);
  });
});

describe('readCapped and decodeUtf8', () => {
  it('give the bytes up to the cap, and null past it', async () => {
    writeFileSync(at('four.txt'), 'abcd');
    expect(String(await readCapped(at('four.txt'), false, 4))).toBe('abcd');
    expect(await readCapped(at('four.txt'), false, 3)).toBeNull();
  });

  it('decode UTF-8 without its byte-order mark, and refuse anything else', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFé'))).toBe('é');
    expect(decodeUtf8(INVALID_UTF8)).toBeUndefined();
  });
});

describe('toRecordedRun', () => {
  it('keeps id, outcome and steps, and records where the run was read', () => {
    const steps = [{ text: 'a' }, { toolCalls: [] }];
    expect(toRecordedRun({ id: 'r1', outcome: { resolved: true, exitStatus: 'Submitted' }, steps, extra: 1 }, place)).toEqual({
      id: 'r1',
      file: 'runs.jsonl',
      line: 7,
      outcome: { resolved: true, exitStatus: 'Submitted' },
      steps,
    });
  });

  it('uses the fallback id, turns a numeric id into text, and reads absent or null outcome fields as null', () => {
    expect(toRecordedRun({ steps: [] }, place)).toMatchObject({ id: 'runs.jsonl:7', outcome: null });
    expect(toRecordedRun({ id: 12, steps: [], outcome: null }, place)).toMatchObject({ id: '12', outcome: null });
    expect(toRecordedRun({ steps: [], outcome: {} }, place)).toMatchObject({ outcome: { resolved: null, exitStatus: null } });
    expect(toRecordedRun({ steps: [], outcome: { resolved: false, exitStatus: null } }, place)).toMatchObject({
      outcome: { resolved: false, exitStatus: null },
    });
  });

  it.each([
    [null, 'expected a run object with a "steps" array, got null'],
    [[1], 'expected a run object with a "steps" array, got an array'],
    ['run', 'expected a run object with a "steps" array, got a string'],
    [{}, '"steps" must be an array, got undefined'],
    [{ steps: {} }, '"steps" must be an array, got an object'],
    [{ steps: [{}, 3] }, 'step 1 must be an object, got a number'],
    [{ steps: [[]] }, 'step 0 must be an object, got an array'],
    [{ steps: [], id: true }, '"id" must be a string, got a boolean'],
    [{ steps: [], outcome: 'ok' }, '"outcome" must be an object, got a string'],
    [{ steps: [], outcome: { resolved: 'yes' } }, '"outcome.resolved" must be true, false or null, got a string'],
    [{ steps: [], outcome: { resolved: true, exitStatus: 3 } }, '"outcome.exitStatus" must be a string or null, got a number'],
  ])('rejects %j: %s', (value, message) => {
    expect(toRecordedRun(value, place)).toBe(message);
  });
});
