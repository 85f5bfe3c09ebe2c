// The archive file: migrations from empty and from every earlier version,
// the digest check on every read, the one-writer rule.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../core/errors.js';
import { getArtifact, putText } from './artifacts.js';
import { Archive } from './archive.js';
import { rawDatabase } from '../../../test/kits/archive-kit.js';
import { openArchiveFile, type Db } from './db.js';
import { ARCHIVE_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'ember-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `a${++n}.sqlite`);

function schemaOf(db: Db): string[] {
  return (db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all() as { type: string; name: string; sql: string }[]).map(
    (r) => `${r.type} ${r.name}: ${r.sql.replace(/\s+/g, ' ')}`,
  );
}

/** Rows that exist at each version, inserted before migrating on. */
const FIXTURE_ROWS: Record<number, (a: Archive) => void> = {
  1: (a) => {
    const db = rawDatabase(a);
    const digest = putText(a, 'manifest', 'manifest text\n');
    db.prepare(`INSERT INTO suites VALUES ('s', 'suite', '1.0', 'public', 'evaluation', 'public', 1, '["f"]', '2026-01-01T00:00:00Z')`).run();
    db.prepare(`INSERT INTO manifests VALUES ('m', 's', ?, 1, 1, 1, '2026-01-01T00:00:00Z')`).run(digest);
  },
  2: (a) => {
    const db = rawDatabase(a);
    db.prepare(`INSERT INTO trials (model_id, manifest_hash, suite_id, official, status, origin, agent_label, episodes_scheduled, created) VALUES ('model', 'm', 'suite', 0, 'running', 'run', 'x', 1, 'now')`).run();
    db.prepare(`INSERT INTO episodes (trial_id, idx, scenario_id, family, status) VALUES (1, 0, 'sc', 'f', 'missing')`).run();
  },
  3: () => undefined,
  4: (a) => {
    const db = rawDatabase(a);
    db.prepare(`INSERT INTO trials (model_id, manifest_hash, suite_id, official, status, origin, agent_label, episodes_scheduled, created, isolation) VALUES ('model', 'm', 'suite', 0, 'complete', 'run', 'module:a:b', 1, 'now', 'none')`).run();
  },
  5: (a) => {
    const db = rawDatabase(a);
    db.prepare('INSERT INTO trial_signatures VALUES (1, ?)').run(putText(a, 'signatures', 'signature set text\n'));
  },
  6: (a) => {
    const db = rawDatabase(a);
    db.prepare(`UPDATE trials SET label = 'l', notes = 'n', run_ms = 5 WHERE trial_id = 1`).run();
    db.prepare(`INSERT INTO trial_tags VALUES ('tag', 1)`).run();
    db.prepare(`INSERT INTO trial_log VALUES (1, 1, 'now', 'warning', 'w')`).run();
    db.prepare(`INSERT INTO deleted_trials VALUES (99, 'now')`).run();
  },
};

describe('archive migrations', () => {
  it('every migration is numbered in order, starting at 1, each with fixture rows', () => {
    MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 1));
    expect(Object.keys(FIXTURE_ROWS).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  const reference = (): string[] => {
    const a = Archive.open(fresh(), { mode: 'write' });
    try {
      expect(rawDatabase(a).pragma('user_version', { simple: true })).toBe(ARCHIVE_SCHEMA_VERSION);
      expect(rawDatabase(a).pragma('journal_mode', { simple: true })).toBe('wal');
      expect(rawDatabase(a).pragma('foreign_keys', { simple: true })).toBe(1);
      return schemaOf(rawDatabase(a));
    } finally {
      a.close();
    }
  };

  it('migrates an empty file to the current version', () => {
    expect(reference().length).toBeGreaterThan(10);
  });

  for (const from of MIGRATIONS.slice(0, -1).map((m) => m.version)) {
    it(`migrates version ${from} with data to the current version, keeping the rows`, () => {
      const path = fresh();
      const old = Archive.open(path, { mode: 'write', targetVersion: from });
      expect(rawDatabase(old).pragma('user_version', { simple: true })).toBe(from);
      for (let v = 1; v <= from; v++) FIXTURE_ROWS[v]!(old);
      old.close();
      const a = Archive.open(path, { mode: 'write' });
      try {
        expect(rawDatabase(a).pragma('user_version', { simple: true })).toBe(ARCHIVE_SCHEMA_VERSION);
        expect(schemaOf(rawDatabase(a))).toEqual(reference());
        expect((rawDatabase(a).prepare('SELECT count(*) AS n FROM manifests').get() as { n: number }).n).toBe(1);
        for (let v = from + 1; v <= ARCHIVE_SCHEMA_VERSION; v++) FIXTURE_ROWS[v]!(a);
        expect(rawDatabase(a).pragma('foreign_key_check')).toEqual([]);
      } finally {
        a.close();
      }
    });
  }

  it('version 6 gives the trials of an older archive an empty label, notes and tags, no run time or log, and keeps every artifact', () => {
    const path = fresh();
    const old = Archive.open(path, { mode: 'write', targetVersion: 5 });
    for (let v = 1; v <= 5; v++) FIXTURE_ROWS[v]!(old);
    const artifacts = JSON.stringify(rawDatabase(old).prepare('SELECT * FROM artifacts ORDER BY digest').all());
    old.close();
    const a = Archive.open(path, { mode: 'write' });
    try {
      expect(rawDatabase(a).prepare('SELECT trial_id, label, notes, run_ms FROM trials ORDER BY trial_id').all()).toEqual([
        { trial_id: 1, label: '', notes: '', run_ms: null },
        { trial_id: 2, label: '', notes: '', run_ms: null },
      ]);
      expect(rawDatabase(a).prepare('SELECT count(*) AS n FROM trial_tags').get()).toEqual({ n: 0 });
      expect(JSON.stringify(rawDatabase(a).prepare('SELECT * FROM artifacts ORDER BY digest').all())).toBe(artifacts);
      expect(() => rawDatabase(a).prepare(`INSERT INTO trial_log VALUES (1, 1, 'now', 'debug', 'x')`).run()).toThrow(/CHECK constraint/);
      expect(() => rawDatabase(a).prepare(`INSERT INTO trial_tags VALUES ('', 1)`).run()).toThrow(/CHECK constraint/);
      // Tags and the log go with their trial.
      FIXTURE_ROWS[6]!(a);
      rawDatabase(a).prepare('DELETE FROM trial_signatures').run();
      rawDatabase(a).prepare('DELETE FROM episodes WHERE trial_id = 1').run();
      rawDatabase(a).prepare('DELETE FROM trials WHERE trial_id = 1').run();
      expect(rawDatabase(a).prepare('SELECT (SELECT count(*) FROM trial_tags) + (SELECT count(*) FROM trial_log) AS n').get()).toEqual({ n: 0 });
    } finally {
      a.close();
    }
  });

  it('version 4 records the isolation level: builtin and adapter runs of older archives in_process, the rest unknown; only known levels', () => {
    const path = fresh();
    const old = Archive.open(path, { mode: 'write', targetVersion: 3 });
    FIXTURE_ROWS[1]!(old);
    const insert = rawDatabase(old).prepare(`INSERT INTO trials (model_id, manifest_hash, suite_id, official, status, origin, agent_label, episodes_scheduled, created) VALUES ('model', 'm', 'suite', 0, 'complete', ?, ?, 1, 'now')`);
    for (const [origin, label] of [['run', 'builtin:always-stay'], ['run', 'openai-chat:m'], ['run', 'module:a:b'], ['run', 'command:python3 a.py'], ['import', 'imported']]) insert.run(origin, label);
    old.close();
    const a = Archive.open(path, { mode: 'write' });
    try {
      const rows = rawDatabase(a).prepare('SELECT agent_label, isolation FROM trials ORDER BY trial_id').all();
      expect(rows).toEqual([
        { agent_label: 'builtin:always-stay', isolation: 'in_process' },
        { agent_label: 'openai-chat:m', isolation: 'in_process' },
        { agent_label: 'module:a:b', isolation: null },
        { agent_label: 'command:python3 a.py', isolation: null },
        { agent_label: 'imported', isolation: null },
      ]);
      expect(() => rawDatabase(a).prepare(`UPDATE trials SET isolation = 'container' WHERE trial_id = 1`).run()).toThrow(/CHECK constraint/);
    } finally {
      a.close();
    }
  });

  it('refuses a file of a newer schema, and a file that is not an archive', () => {
    const path = fresh();
    const raw = new Database(path);
    raw.pragma(`user_version = ${ARCHIVE_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => Archive.open(path, { mode: 'write' })).toThrow(`written by a newer EMBER Workbench (schema version ${ARCHIVE_SCHEMA_VERSION + 1}; this program reads versions up to ${ARCHIVE_SCHEMA_VERSION})`);
    const junk = fresh();
    writeFileSync(junk, 'not a database at all, just some text that is long enough to have a header'.repeat(20));
    expect(() => Archive.open(junk, { mode: 'write' })).toThrow(/not an archive/);
  });
});

describe('artifacts', () => {
  it('checks the digest on every read (raw and deflated)', () => {
    const a = Archive.open(fresh(), { mode: 'write' });
    try {
      const raw = putText(a, 'summary', 'summary\n');
      const packed = putText(a, 'record', '{"x":1}'.repeat(100));
      expect(getArtifact(a, raw).toString()).toBe('summary\n');
      expect(getArtifact(a, packed).toString()).toBe('{"x":1}'.repeat(100));
      rawDatabase(a).prepare(`UPDATE artifacts SET bytes = ? WHERE digest = ?`).run(Buffer.from('summarY\n'), raw);
      expect(() => getArtifact(a, raw)).toThrow(ValidationError);
      expect(() => getArtifact(a, raw)).toThrow(/does not match its digest/);
      rawDatabase(a).prepare(`UPDATE artifacts SET bytes = ? WHERE digest = ?`).run(Buffer.from('garbage'), packed);
      expect(() => getArtifact(a, packed)).toThrow(ValidationError);
    } finally {
      a.close();
    }
  });
});

describe('one writer', () => {
  it('a second writer gets a clear error; a reader reads; the lock goes with the writer', () => {
    const path = fresh();
    const first = openArchiveFile(path, { mode: 'write', busyTimeoutMs: 100 });
    expect(() => openArchiveFile(path, { mode: 'write', busyTimeoutMs: 100 })).toThrow(/in use by another process/);
    const reader = openArchiveFile(path, { mode: 'read' });
    expect((reader.db.prepare('SELECT count(*) AS n FROM trials').get() as { n: number }).n).toBe(0);
    reader.close();
    first.close();
    openArchiveFile(path, { mode: 'write' }).close();
  });
});
