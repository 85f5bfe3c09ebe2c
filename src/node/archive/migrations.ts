/**
 * The archive's schema, as numbered migrations. Migration N takes a
 * database at version N-1 (PRAGMA user_version) to version N; each runs in
 * its own transaction together with the version bump, so a crash leaves the
 * file at one version or the next, never between. A migration is never
 * edited once released: a change of schema is a new entry at the end, with
 * a test that migrates every earlier version to it (migrations.test.ts and
 * test/archive/migrations.test.ts).
 *
 * Artifacts are the stored bytes: `digest` is the SHA-256 of the exact,
 * uncompressed bytes (the file an export writes), checked on every read.
 * Everything else is an index over them for the views: rows can be rebuilt
 * from the artifacts, artifacts are never derived from rows.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const ARTIFACTS_AND_INPUTS = `
CREATE TABLE artifacts (
  digest TEXT PRIMARY KEY CHECK (length(digest) = 64),
  kind TEXT NOT NULL,
  encoding TEXT NOT NULL CHECK (encoding IN ('raw', 'deflate')),
  size INTEGER NOT NULL CHECK (size >= 0),
  bytes BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE suites (
  suite_hash TEXT PRIMARY KEY,
  suite_id TEXT NOT NULL,
  suite_version TEXT NOT NULL,
  visibility TEXT NOT NULL,
  seed_role TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('public', 'folder', 'generated')),
  scenario_count INTEGER NOT NULL,
  families TEXT NOT NULL,
  created TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE suite_files (
  suite_hash TEXT NOT NULL REFERENCES suites (suite_hash) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL REFERENCES artifacts (digest),
  PRIMARY KEY (suite_hash, name)
) WITHOUT ROWID;

CREATE TABLE manifests (
  manifest_hash TEXT PRIMARY KEY,
  suite_hash TEXT NOT NULL REFERENCES suites (suite_hash),
  digest TEXT NOT NULL REFERENCES artifacts (digest),
  episode_count INTEGER NOT NULL,
  seed_count INTEGER NOT NULL,
  scenario_count INTEGER NOT NULL,
  created TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE packs (
  pack_digest TEXT PRIMARY KEY,
  pack_id TEXT NOT NULL,
  suite_hash TEXT NOT NULL REFERENCES suites (suite_hash),
  manifest_hash TEXT NOT NULL REFERENCES manifests (manifest_hash),
  episode_count INTEGER NOT NULL,
  created TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE pack_files (
  pack_digest TEXT NOT NULL REFERENCES packs (pack_digest) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL REFERENCES artifacts (digest),
  PRIMARY KEY (pack_digest, name)
) WITHOUT ROWID;
`;

const TRIALS_AND_EPISODES = `
CREATE TABLE trials (
  trial_id INTEGER PRIMARY KEY,
  model_id TEXT NOT NULL,
  manifest_hash TEXT NOT NULL REFERENCES manifests (manifest_hash),
  suite_id TEXT NOT NULL,
  pack_digest TEXT REFERENCES packs (pack_digest),
  pack_id TEXT,
  official INTEGER NOT NULL CHECK (official IN (0, 1)),
  status TEXT NOT NULL CHECK (status IN ('running', 'interrupted', 'complete', 'incomplete')),
  origin TEXT NOT NULL CHECK (origin IN ('run', 'import')),
  agent_label TEXT NOT NULL,
  -- The run's settings as JSON (agent choice, timeout, failure policy, jobs): what a resume needs.
  run_config TEXT,
  score TEXT,
  score_key REAL,
  score_rounded TEXT,
  interval_low TEXT,
  interval_high TEXT,
  episodes_scheduled INTEGER NOT NULL,
  episodes_completed INTEGER NOT NULL DEFAULT 0,
  episodes_failed INTEGER NOT NULL DEFAULT 0,
  evacuated INTEGER NOT NULL DEFAULT 0,
  dead INTEGER NOT NULL DEFAULT 0,
  stranded INTEGER NOT NULL DEFAULT 0,
  result_digest TEXT REFERENCES artifacts (digest),
  report_digest TEXT REFERENCES artifacts (digest),
  summary_digest TEXT REFERENCES artifacts (digest),
  operational_digest TEXT REFERENCES artifacts (digest),
  created TEXT NOT NULL
);

CREATE TABLE trial_families (
  family TEXT NOT NULL,
  trial_id INTEGER NOT NULL REFERENCES trials (trial_id) ON DELETE CASCADE,
  PRIMARY KEY (family, trial_id)
) WITHOUT ROWID;

CREATE TABLE episodes (
  trial_id INTEGER NOT NULL REFERENCES trials (trial_id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  scenario_id TEXT NOT NULL,
  family TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'missing')),
  failure_kind TEXT,
  failure_message TEXT,
  termination TEXT,
  steps INTEGER,
  evacuated INTEGER,
  dead INTEGER,
  stranded INTEGER,
  score TEXT,
  score_key REAL,
  record_digest TEXT REFERENCES artifacts (digest),
  metrics_digest TEXT REFERENCES artifacts (digest),
  PRIMARY KEY (trial_id, idx)
) WITHOUT ROWID;
`;

// The browsing indexes: every sort and filter of trials.list and
// episodes.list has one, so a page of 100 rows out of 100,000 is an index
// walk, not a sort of the table.
const BROWSING_INDEXES = `
CREATE INDEX trials_created ON trials (created, trial_id);
CREATE INDEX trials_model ON trials (model_id, trial_id);
CREATE INDEX trials_score ON trials (score_key, trial_id);
CREATE INDEX trials_status ON trials (status, trial_id);
CREATE INDEX trials_manifest ON trials (manifest_hash, trial_id);
CREATE INDEX trials_result ON trials (result_digest);
CREATE INDEX episodes_index ON episodes (idx, trial_id);
CREATE INDEX episodes_score ON episodes (score_key);
CREATE INDEX episodes_family_score ON episodes (family, score_key);
CREATE INDEX episodes_family_trial ON episodes (family, trial_id, idx);
CREATE INDEX episodes_scenario ON episodes (scenario_id, trial_id, idx);
CREATE INDEX episodes_status ON episodes (status, trial_id, idx);
CREATE INDEX episodes_failure ON episodes (failure_kind) WHERE failure_kind IS NOT NULL;
CREATE INDEX episodes_trial_score ON episodes (trial_id, score_key);
`;

// How a trial's agent was isolated (evaluation.md section 8): `sandboxed`,
// `none` or `in_process` (a builtin or the chat adapter, the evaluator's own
// code), from the agent session of an app run or the operational record of
// an import; NULL where nobody recorded it. Trials run before this column
// existed with a builtin or the adapter are known to have run in process;
// the others stay NULL (unknown), never guessed.
const TRIAL_ISOLATION = `
ALTER TABLE trials ADD COLUMN isolation TEXT CHECK (isolation IN ('sandboxed', 'none', 'in_process'));
UPDATE trials SET isolation = 'in_process' WHERE origin = 'run' AND (agent_label LIKE 'builtin:%' OR agent_label LIKE 'openai-chat:%');
`;

// Operators' signatures of an imported result (docs/bundles.md): the
// signature set file as an artifact, checked against the result on import
// and again on every read. Public data only: no key secret is ever stored.
const TRIAL_SIGNATURES = `
CREATE TABLE trial_signatures (
  trial_id INTEGER PRIMARY KEY REFERENCES trials (trial_id) ON DELETE CASCADE,
  digest TEXT NOT NULL REFERENCES artifacts (digest)
);
`;

// Housekeeping (docs/archive.md "Trial housekeeping"): what people write
// about a trial (a label, notes, tags), how long its runs took and its run
// log. None of it is in an artifact, a digest, a result or a score: a
// change here changes no exported byte. `deleted_trials` keeps the numbers
// of deleted trials so a number (a copied link, a note naming "trial 7")
// never comes to mean another trial.
const TRIAL_HOUSEKEEPING = `
ALTER TABLE trials ADD COLUMN label TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN notes TEXT NOT NULL DEFAULT '';
-- Wall time of the trial's runs in ms (a resume adds its own); NULL for an import or a trial run before this column.
ALTER TABLE trials ADD COLUMN run_ms INTEGER CHECK (run_ms IS NULL OR run_ms >= 0);
CREATE TABLE trial_tags (
  tag TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 40),
  trial_id INTEGER NOT NULL REFERENCES trials (trial_id) ON DELETE CASCADE,
  PRIMARY KEY (tag, trial_id)
) WITHOUT ROWID;
CREATE INDEX trial_tags_trial ON trial_tags (trial_id, tag);
CREATE TABLE trial_log (
  trial_id INTEGER NOT NULL REFERENCES trials (trial_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  at TEXT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('info', 'warning', 'failure')),
  message TEXT NOT NULL,
  PRIMARY KEY (trial_id, seq)
) WITHOUT ROWID;
-- Deleting an artifact checks the foreign keys naming it: without these, every deleted record or metrics artifact
-- scanned all episodes (25 s to delete one trial of a 16 MB archive).
CREATE INDEX episodes_record ON episodes (record_digest) WHERE record_digest IS NOT NULL;
CREATE INDEX episodes_metrics ON episodes (metrics_digest) WHERE metrics_digest IS NOT NULL;
CREATE TABLE deleted_trials (
  trial_id INTEGER PRIMARY KEY,
  deleted TEXT NOT NULL
);
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'artifacts, suites, manifests, packs', sql: ARTIFACTS_AND_INPUTS },
  { version: 2, name: 'trials and episodes', sql: TRIALS_AND_EPISODES },
  { version: 3, name: 'browsing indexes', sql: BROWSING_INDEXES },
  { version: 4, name: 'trial isolation level', sql: TRIAL_ISOLATION },
  { version: 5, name: 'result signatures', sql: TRIAL_SIGNATURES },
  { version: 6, name: 'trial housekeeping: labels, notes, tags, run time, run log, deleted numbers', sql: TRIAL_HOUSEKEEPING },
];

/** The schema version this build writes. */
export const ARCHIVE_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!.version;
