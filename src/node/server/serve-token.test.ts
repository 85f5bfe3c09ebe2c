// The kept access token of `emberbench serve`: made once and private (0600
// whatever the umask), the same at every load, replaced whole by a rotation,
// and refused (never repaired) when others may read it, when it is not a
// plain file or when it holds no token.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadOrCreateServeToken, rotateServeToken, serveTokenPath } from './serve-token.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-token-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the kept serve token', () => {
  test('is made once, 0600 in a 0700 folder even under umask 0, and read back the same', () => {
    const data = join(dir, 'data');
    const previous = process.umask(0);
    let token: string;
    try {
      token = loadOrCreateServeToken(data);
    } finally {
      process.umask(previous);
    }
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(serveTokenPath(data)).mode & 0o777).toBe(0o600);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(loadOrCreateServeToken(data)).toBe(token);
    expect(readdirSync(data)).toEqual(['serve-token']);
  });

  test('a rotation replaces it whole with another private one', () => {
    const first = loadOrCreateServeToken(dir);
    const second = rotateServeToken(dir);
    expect(second).not.toBe(first);
    expect(readFileSync(serveTokenPath(dir), 'utf8')).toBe(`${second}\n`);
    expect(statSync(serveTokenPath(dir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateServeToken(dir)).toBe(second);
    expect(readdirSync(dir)).toEqual(['serve-token']);
  });

  test('a file others may read is refused and left as it is', () => {
    loadOrCreateServeToken(dir);
    chmodSync(serveTokenPath(dir), 0o640);
    expect(() => loadOrCreateServeToken(dir)).toThrow(/can be read by other users \(mode 640\): run `emberbench serve --rotate-token`/);
    expect(statSync(serveTokenPath(dir)).mode & 0o777).toBe(0o640);
  });

  test('a file without a token, or a link, is refused', () => {
    writeFileSync(serveTokenPath(dir), 'not a token\n', { mode: 0o600 });
    expect(() => loadOrCreateServeToken(dir)).toThrow(/does not hold a token/);
    rmSync(serveTokenPath(dir));
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, `${'a'.repeat(32)}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, serveTokenPath(dir));
    expect(() => loadOrCreateServeToken(dir)).toThrow(/is not a plain file/);
  });

  test('a data folder that cannot be made or written is an output error naming it, not an internal failure', () => {
    // Root passes permission checks, so the folder is made impossible: its parent is a file.
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const data = join(file, 'data');
    for (const attempt of [() => loadOrCreateServeToken(data), () => rotateServeToken(data)]) {
      expect(attempt).toThrow(expect.objectContaining({ kind: 'output', message: expect.stringContaining(`the serve token in ${data} cannot be read or written (ENOTDIR)`) as string }) as Error);
    }
  });
});
