// `emberbench archive check` on an archive damaged the old way: an app run
// whose stored result deflate stream was cut short (as the pool's streaming
// deflate once stored every result over ~600 KB), its summary damaged too.
// The check names the trial (exit 3) and reads only; --repair rebuilds the
// result from the stored episodes and re-scores the summary, and the export
// is then byte-identical to `evaluation run`'s. A damaged episode cannot be
// rebuilt: it is named and left, and the result still exports.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Archive } from '../../src/node/archive/archive.js';
import { checkArchive } from '../../src/node/jobs/check.js';
import { openArchiveFile } from '../../src/node/archive/db.js';
import { runScoreJob } from '../../src/node/jobs/score-job.js';
import { jsonError, runCli } from '../cli/run-cli.js';
import { tempDir } from './helpers.js';
import { cutStoredResult } from './damage.js';
import { runAsCli, runInApp } from './public-run.js';
import { rawDatabase } from '../kits/archive-kit.js';

const tmp = tempDir('ember-check-');
afterAll(() => tmp.remove());
const at = (name: string): string => join(tmp.dir, name);
/** Seeds 0..4, 50 episodes: a result of about 750 KB, above the size the old bug cut. */
const SEEDS = 5;

let trialId: number;
let cliResult: string;
let resultDigest: string;

beforeAll(async () => {
  trialId = await runInApp(at('archive.sqlite'), SEEDS);
  cliResult = await runAsCli(tmp.dir, SEEDS);
  const cut = cutStoredResult(at('archive.sqlite'), trialId);
  expect(cut.after).toBeLessThan(cut.before);
  resultDigest = cut.digest;
  const { db, close } = openArchiveFile(at('archive.sqlite'), { mode: 'write' });
  try {
    db.prepare("UPDATE artifacts SET bytes = CAST('not the summary' AS BLOB) WHERE digest = (SELECT summary_digest FROM trials WHERE trial_id = ?)").run(trialId);
  } finally {
    close();
  }
  copyFileSync(at('archive.sqlite'), at('episode-damaged.sqlite'));
}, 600_000);

describe('archive check', () => {
  it('names the damaged trial without writing, and --repair restores its export byte-identical to `evaluation run`', () => {
    const archive = at('archive.sqlite');
    const broken = runCli(['archive', 'export', String(trialId), '--archive', archive, '--out', at('broken'), '--json']);
    expect(jsonError(broken.stderr).message).toMatch(/cannot be decompressed/);

    const before = readFileSync(archive);
    const check = runCli(['archive', 'check', '--archive', archive, '--json']);
    expect(check.status, check.stderr).toBe(3);
    expect(check.stdout).toBe('');
    const error = jsonError(check.stderr);
    expect(error.kind).toBe('validation');
    expect(error.message).toContain(`damaged: trial ${trialId} (archive: artifact ${resultDigest} cannot be decompressed (the archive is damaged);`);
    expect(error.message).toMatch(/does not match its digest.*run `emberbench archive check --repair`/);
    expect(readFileSync(archive).equals(before)).toBe(true);

    const repair = runCli(['archive', 'check', '--archive', archive, '--repair', '--json']);
    expect(repair.status, repair.stderr).toBe(0);
    const report = JSON.parse(repair.stdout) as { ok: boolean; repaired_trials: number; damaged_trials: { trial: number; damage: { kind: string }[]; repaired: string[]; unrepaired: string[] }[] };
    expect(report).toMatchObject({ ok: true, repaired_trials: 1 });
    expect(report.damaged_trials).toHaveLength(1);
    expect(report.damaged_trials[0]).toMatchObject({ trial: trialId, unrepaired: [] });
    expect(report.damaged_trials[0]!.damage.map((d) => d.kind)).toEqual(['result', 'summary']);
    expect(report.damaged_trials[0]!.repaired.join('\n')).toMatch(/rebuilt from its 50 stored episodes[\s\S]*summary [0-9a-f]{64}: re-scored from the result and replaced/);

    const out = at('repaired');
    const exported = runCli(['archive', 'export', String(trialId), '--archive', archive, '--out', out]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(readFileSync(join(out, 'result.json')).equals(readFileSync(cliResult))).toBe(true);
    const again = runCli(['archive', 'check', '--archive', archive, '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, damaged_trials: [], damaged_artifacts: [] });
  });

  it('names a damaged episode it cannot rebuild, repairs the rest, and fails closed', async () => {
    const path = at('episode-damaged.sqlite');
    const archive = Archive.open(path, { mode: 'write' });
    try {
      const { record } = rawDatabase(archive).prepare("SELECT record_digest AS record FROM episodes WHERE trial_id = ? AND idx = 7").get(trialId) as { record: string };
      rawDatabase(archive).prepare('UPDATE artifacts SET bytes = substr(bytes, 1, 100) WHERE digest = ?').run(record);
      const report = await checkArchive(archive, { repair: true, score: (job) => Promise.resolve(runScoreJob(job)) });
      expect(report.ok).toBe(false);
      const [trial] = report.damagedTrials;
      expect(trial!.damage.map((d) => [d.kind, d.episode])).toEqual([
        ['episode', 7],
        ['result', null],
        ['summary', null],
      ]);
      expect(trial!.repair!.repaired).toEqual([]);
      expect(trial!.repair!.unrepaired.join('\n')).toMatch(
        new RegExp(`episode 7: its artifact ${record} is damaged[\\s\\S]*result ${resultDigest}: not rebuilt, since episodes it is made of are damaged too[\\s\\S]*summary .*: not re-scored, since the trial has no sound result`),
      );
      expect(report.damagedArtifacts.map((a) => a.kind).sort()).toEqual(['record', 'result', 'summary']);
    } finally {
      archive.close();
    }
  });
});
