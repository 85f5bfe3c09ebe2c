// kill -9 of the archive writer: mid-transaction (nothing of it remains),
// and while it streams one transaction per episode (every committed episode
// is whole, the trial's counts agree with its rows); a reader in another
// process reads consistent snapshots during the writes and is never blocked.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchiveFile, type Db } from '../../src/node/archive/db.js';
import { TSX } from '../cli/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('ember-crash-');
afterAll(() => tmp.remove());

function startWriter(archivePath: string, mode: 'hold' | 'stream'): { child: ChildProcess; waitFor: (pattern: RegExp) => Promise<string> } {
  const child = spawn(process.execPath, ['--import', TSX, join(import.meta.dirname, 'fixtures', 'writer.ts'), archivePath, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters]) {
      const m = w.pattern.exec(out);
      if (m !== null) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    child,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const m = pattern.exec(out);
        if (m !== null) return resolve(m[0]);
        waiters.push({ pattern, resolve });
        child.once('exit', () => reject(new Error(`writer exited before ${String(pattern)}: ${out}\n${err}`)));
      }),
  };
}

function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}

const count = (db: Db, sql: string): number => (db.prepare(sql).get() as { n: number }).n;

/** Every trial's counts equal its rows, every done row names stored artifacts, the file is sound. */
function checkWhole(db: Db): void {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(db.pragma('foreign_key_check')).toEqual([]);
  expect(count(db, `SELECT count(*) AS n FROM trials t WHERE t.episodes_completed != (SELECT count(*) FROM episodes e WHERE e.trial_id = t.trial_id AND e.status = 'done')`)).toBe(0);
  expect(count(db, `SELECT count(*) AS n FROM episodes e WHERE e.status = 'done' AND (e.record_digest IS NULL OR e.metrics_digest IS NULL OR e.score IS NULL)`)).toBe(0);
}

describe('kill -9 of the archive writer', () => {
  it('mid-transaction: a reader is not blocked and sees nothing of it; after the kill nothing of it remains', async () => {
    const path = join(tmp.dir, 'hold.sqlite');
    const w = startWriter(path, 'hold');
    await w.waitFor(/in-tx/);
    const reader = openArchiveFile(path, { mode: 'read', busyTimeoutMs: 200 });
    expect(count(reader.db, 'SELECT count(*) AS n FROM trials')).toBe(0);
    expect(count(reader.db, 'SELECT count(*) AS n FROM manifests')).toBe(1);
    reader.close();
    expect(await killed(w.child)).toBe('SIGKILL');

    const a = openArchiveFile(path, { mode: 'write', busyTimeoutMs: 200 }); // the lock died with the writer
    try {
      checkWhole(a.db);
      expect(count(a.db, 'SELECT count(*) AS n FROM trials')).toBe(0);
      expect(count(a.db, 'SELECT count(*) AS n FROM episodes')).toBe(0);
      expect(count(a.db, `SELECT count(*) AS n FROM artifacts WHERE kind IN ('record', 'metrics')`)).toBe(0);
    } finally {
      a.close();
    }
  });

  it('while committing episode by episode: readers see whole episodes; after the kill every committed episode is whole', async () => {
    const path = join(tmp.dir, 'stream.sqlite');
    const w = startWriter(path, 'stream');
    await w.waitFor(/committed 26\n/);
    const reader = openArchiveFile(path, { mode: 'read', busyTimeoutMs: 200 });
    let seen = 0;
    for (let k = 0; k < 20; k++) {
      reader.db.transaction(() => checkWhole(reader.db))();
      seen = Math.max(seen, count(reader.db, `SELECT count(*) AS n FROM episodes WHERE status = 'done'`));
      await new Promise((r) => setTimeout(r, 10));
    }
    reader.close();
    await w.waitFor(/committed 151\n/);
    expect(await killed(w.child)).toBe('SIGKILL');

    const a = openArchiveFile(path, { mode: 'write' });
    try {
      checkWhole(a.db);
      const done = count(a.db, `SELECT count(*) AS n FROM episodes WHERE status = 'done'`);
      expect(done).toBeGreaterThanOrEqual(Math.max(seen, 151));
      // The trial the kill interrupted is still `running` (the services mark it interrupted at their next start) with whole episodes only.
      expect(count(a.db, `SELECT count(*) AS n FROM trials WHERE status = 'running'`)).toBeLessThanOrEqual(1);
    } finally {
      a.close();
    }
  });
});
