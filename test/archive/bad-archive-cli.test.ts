// Bad archives as the CLI and browser mode meet them (processes): `archive
// list --archive X` (a reader), `archive import --archive X` and `serve
// --archive X` (writers; serve is the app's services) each give the cause's
// own message with its exit code, never "a bug", and leave the file byte for
// byte as it was. Read-only files and folders: root writes anything, so
// those commands run as `nobody` (when this runs as root).
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_ARCHIVES, badArchiveMessage, badArchivePath, makeBadArchive, makeSoundArchive, type BadArchive } from '../kits/bad-archives-kit.js';
import { cliArgv, jsonError, ROOT } from '../cli/run-cli.js';
import { PUBLIC_SUITE, tempDir } from './helpers.js';

const tmp = tempDir('ember-bad-archive-');
afterAll(() => tmp.remove());
const sound = join(tmp.dir, 'sound.sqlite');
let sizes: { sound: number; pageSize: number };
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

beforeAll(() => {
  // Every user reaches the files (the read-only cases run as nobody).
  chmodSync(tmp.dir, 0o755);
  makeSoundArchive(sound, PUBLIC_SUITE);
  sizes = { sound: statSync(sound).size, pageSize: readFileSync(sound).readUInt16BE(16) };
  for (const kind of BAD_ARCHIVES) makeBadArchive(kind, sound, badArchivePath(tmp.dir, kind));
  writeFileSync(join(tmp.dir, 'result.json'), '{}\n');
  // nobody's own data folder (serve keeps its access token there).
  mkdirSync(join(tmp.dir, 'nobody-config'), { mode: 0o777 });
  chmodSync(join(tmp.dir, 'nobody-config'), 0o777);
}, 60_000);

function cli(args: readonly string[], user?: number): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, cliArgv(args), { cwd: ROOT, encoding: 'utf8', ...(user === undefined ? {} : { uid: user, gid: user, env: { ...process.env, HOME: tmp.dir, XDG_CONFIG_HOME: join(tmp.dir, 'nobody-config') } }) });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function snapshot(path: string): { bytes: string; mtimeMs: number } {
  const stat = statSync(path);
  return { bytes: stat.isDirectory() ? readdirSync(path).join('\n') : readFileSync(path).toString('base64'), mtimeMs: stat.mtimeMs };
}

const WRITE_EXIT: Record<BadArchive, number> = {
  truncated: 3,
  'flipped-page': 3,
  'flipped-header': 3,
  folder: 6,
  empty: 3,
  'not-sqlite': 3,
  'newer-schema': 3,
  'foreign-sqlite': 3,
};

describe('a bad --archive', () => {
  for (const kind of BAD_ARCHIVES) {
    // Every cause through a reader; through a writer those whose exit differs or that a writer would once have changed (the unit test opens all of them for writing).
    const writer = kind === 'folder' || kind === 'empty' || kind === 'newer-schema';
    it(`${kind}: archive list (exit 3)${writer ? ` and archive import (exit ${WRITE_EXIT[kind]})` : ''} say what it is; the file is not changed`, () => {
      const path = badArchivePath(tmp.dir, kind);
      const before = snapshot(path);
      const list = cli(['archive', 'list', '--archive', path, '--json']);
      expect(list.status, list.stderr).toBe(3);
      expect(jsonError(list.stderr)).toEqual({ exit_code: 3, kind: 'validation', message: badArchiveMessage(kind, path, sizes) });
      if (writer) {
        const imported = cli(['archive', 'import', join(tmp.dir, 'result.json'), '--archive', path, '--json']);
        expect(imported.status, imported.stderr).toBe(WRITE_EXIT[kind]);
        expect(jsonError(imported.stderr).message).toBe(badArchiveMessage(kind, path, sizes));
      }
      expect(snapshot(path)).toEqual(before);
    }, 60_000);
  }

  for (const kind of ['empty', 'newer-schema', 'flipped-page'] as const) {
    it(`${kind}: serve (the app's services) refuses it with the same message, not a crash`, () => {
      const path = badArchivePath(tmp.dir, kind);
      const before = snapshot(path);
      const r = cli(['serve', '--archive', path, '--no-open', '--port', '0', '--json']);
      expect(r.status, r.stderr).toBe(3);
      expect(jsonError(r.stderr).message).toBe(badArchiveMessage(kind, path, sizes));
      expect(r.stdout).toBe('');
      expect(snapshot(path)).toEqual(before);
    }, 60_000);
  }
});

describe.runIf(asRoot || process.getuid?.() !== 0)('a read-only --archive (run as nobody)', () => {
  const user = asRoot ? NOBODY : undefined;

  it('a read-only file is listed, but a writer is told it is read-only (exit 6); the file is not changed', () => {
    const folder = join(tmp.dir, 'ro-file');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const path = join(folder, 'archive.sqlite');
    copyFileSync(sound, path);
    chmodSync(path, 0o444);
    const before = snapshot(path);
    const list = cli(['archive', 'list', '--archive', path, '--json'], user);
    expect(list.status, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { trials: unknown[] }).trials).toHaveLength(2);
    for (const args of [['archive', 'import', join(tmp.dir, 'result.json')], ['serve', '--no-open']]) {
      const r = cli([...args, '--archive', path, '--json'], user);
      expect(r.status, r.stderr).toBe(6);
      expect(jsonError(r.stderr)).toEqual({
        exit_code: 6,
        kind: 'output',
        message: `${path}: the archive file is read-only, and writing needs to change it; the file was not changed. Make it writable (chmod u+w), or copy it to a file you can write; \`archive list\` and \`archive export\` can still read it`,
      });
    }
    expect(snapshot(path)).toEqual(before);
  }, 60_000);

  it('a read-only folder: reading and writing are told the archive needs to write beside its file (exit 6); nothing is changed', () => {
    const folder = join(tmp.dir, 'ro-folder');
    mkdirSync(folder);
    const path = join(folder, 'archive.sqlite');
    copyFileSync(sound, path);
    chmodSync(folder, 0o555);
    const before = snapshot(path);
    const message = `${path}: the folder ${folder} is read-only, and the archive needs to write beside its file (its write-ahead log ${JSON.stringify(`${path}-wal`)}, its index ${JSON.stringify(`${path}-shm`)} and its lock); the file was not changed. Make the folder writable, or copy the archive to a folder you can write`;
    for (const args of [['archive', 'list'], ['archive', 'import', join(tmp.dir, 'result.json')], ['serve', '--no-open']]) {
      const r = cli([...args, '--archive', path, '--json'], user);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(6);
      expect(jsonError(r.stderr)).toEqual({ exit_code: 6, kind: 'output', message });
    }
    // A new archive in a read-only folder: the same.
    const fresh = join(folder, 'new.sqlite');
    const r = cli(['archive', 'import', join(tmp.dir, 'result.json'), '--archive', fresh, '--json'], user);
    expect(r.status, r.stderr).toBe(6);
    expect(jsonError(r.stderr).message).toMatch(/^.*new\.sqlite: the folder .* is read-only/);
    expect(readdirSync(folder)).toEqual(['archive.sqlite']);
    expect(snapshot(path)).toEqual(before);
  }, 60_000);
});
