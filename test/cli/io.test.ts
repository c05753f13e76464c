import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { errorMessage, processIo } from '../../src/cli/io.js';

class FakeStream extends EventEmitter {
  written: string[] = [];
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
}

describe('processIo', () => {
  it('writes to the given streams', () => {
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const io = processIo(stdout, stderr);
    io.stdout('out');
    io.stderr('err');
    expect(stdout.written).toEqual(['out']);
    expect(stderr.written).toEqual(['err']);
  });

  it('drops further output once the reader of stdout has gone (EPIPE)', () => {
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const io = processIo(stdout, stderr);
    io.stdout('one');
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    io.stdout('two');
    io.stderr('still here');
    expect(stdout.written).toEqual(['one']);
    expect(stderr.written).toEqual(['still here']);
  });

  it('throws other stdout errors', () => {
    const stdout = new FakeStream();
    processIo(stdout, new FakeStream());
    const failure = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    expect(() => stdout.emit('error', failure)).toThrow(failure);
  });
});

describe('errorMessage', () => {
  it('reads the message of an Error and writes anything else as text', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
