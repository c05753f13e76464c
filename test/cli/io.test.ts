import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { errorMessage, processIo } from '../../src/cli/io.js';

class FakeStream extends EventEmitter {
  written: string[] = [];
  /** What write() answers: false when the buffer is full. */
  accepts = true;
  throws: Error | undefined;
  write(text: string): boolean {
    if (this.throws !== undefined) throw this.throws;
    this.written.push(text);
    return this.accepts;
  }
}

const streamError = (code: string): Error => Object.assign(new Error(`write ${code}`), { code });

/** Whether a promise has settled by the time queued callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
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
    stdout.emit('error', streamError('EPIPE'));
    io.stdout('two');
    io.stderr('still here');
    expect(stdout.written).toEqual(['one']);
    expect(stderr.written).toEqual(['still here']);
  });

  it.each(['EPIPE', 'EBADF', 'ENOSPC'])('records a %s on stderr without throwing, drops later errors and keeps stdout going', (code) => {
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const io = processIo(stdout, stderr);
    expect(() => stderr.emit('error', streamError(code))).not.toThrow();
    io.stderr('lost');
    io.stdout('summary');
    expect(stderr.written).toEqual([]);
    expect(stdout.written).toEqual(['summary']);
  });

  it('never throws from the listener, whatever the error', () => {
    const stdout = new FakeStream();
    processIo(stdout, new FakeStream());
    expect(() => stdout.emit('error', streamError('ENOSPC'))).not.toThrow();
  });

  it('stops writing to a stream that closed or whose write throws', () => {
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const io = processIo(stdout, stderr);
    stdout.emit('close');
    io.stdout('after close');
    stderr.throws = new Error('gone');
    expect(() => {
      io.stderr('throws');
    }).not.toThrow();
    stderr.throws = undefined;
    io.stderr('after throw');
    expect(stdout.written).toEqual([]);
    expect(stderr.written).toEqual([]);
  });

  it('is drained at once while both streams take what they are given', async () => {
    const io = processIo(new FakeStream(), new FakeStream());
    io.stdout('a');
    expect(await settled(io.drained?.() ?? Promise.reject(new Error('no drained')))).toBe(true);
  });

  it('waits for a full stream to drain, and stops waiting when it fails instead', async () => {
    const stdout = new FakeStream();
    const stderr = new FakeStream();
    const io = processIo(stdout, stderr);
    const drained = (): Promise<void> => io.drained?.() ?? Promise.reject(new Error('no drained'));
    stdout.accepts = false;
    io.stdout('fills the buffer');
    io.stdout('still written: the stream buffers it');
    const waiting = drained();
    expect(await settled(waiting)).toBe(false);
    stdout.emit('drain');
    expect(await settled(waiting)).toBe(true);

    stderr.accepts = false;
    io.stderr('fills stderr');
    const stuck = drained();
    expect(await settled(stuck)).toBe(false);
    stderr.emit('error', streamError('EPIPE'));
    expect(await settled(stuck)).toBe(true);
    expect(await settled(drained())).toBe(true);
    expect(stdout.written).toEqual(['fills the buffer', 'still written: the stream buffers it']);
  });
});

describe('errorMessage', () => {
  it('reads the message of an Error and writes anything else as text', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
