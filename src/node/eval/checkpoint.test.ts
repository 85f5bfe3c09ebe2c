import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputError } from '../../core/errors.js';
import { CheckpointWriter } from './checkpoint.js';

let scratch: string;
let counter = 0;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-checkpoint-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function freshDir(): string {
  const dir = join(scratch, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('CheckpointWriter', () => {
  it('creates the output, then replaces its own checkpoint, leaving no temp file', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    const writer = new CheckpointWriter(out, [], undefined);
    await writer.write('one\n');
    await writer.write('two\n');
    await writer.write('three\n');
    expect(readFileSync(out, 'utf8')).toBe('three\n');
    expect(writer.count).toBe(3);
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('never replaces a file that appeared before its first write', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    const writer = new CheckpointWriter(out, [], undefined);
    writeFileSync(out, 'theirs\n');
    expect(await rejection(writer.write('mine\n'))).toBeInstanceOf(OutputError);
    expect(readFileSync(out, 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('continues a resumed file, but not one that another process replaced or removed', async () => {
    const dir = freshDir();
    const out = join(dir, 'r.json');
    writeFileSync(out, 'resumed\n');
    const writer = new CheckpointWriter(out, [], await CheckpointWriter.identify(out));
    await writer.write('continued\n');
    expect(readFileSync(out, 'utf8')).toBe('continued\n');

    unlinkSync(out);
    writeFileSync(out, 'replaced by someone\n');
    const error = await rejection(writer.write('again\n'));
    expect(error).toBeInstanceOf(OutputError);
    expect(error.message).toContain('removed or replaced by another process');
    expect(readFileSync(out, 'utf8')).toBe('replaced by someone\n');
    unlinkSync(out);
    expect(await rejection(writer.write('again\n'))).toBeInstanceOf(OutputError);
    expect(readdirSync(dir)).toEqual([]);
  });
});
