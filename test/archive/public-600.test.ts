// Done when (issue 18): the public suite with seeds 0..59 (600 episodes, a
// result of about 9 MB) run from the app's services exports a result
// byte-identical to `evaluation run` of the same manifest; the same result
// cut short as the old bug stored it is named by `archive check` and
// restored byte-identical by --repair. Minutes of CPU on two cores: its own
// CI stage, run with EMBER_SLOW_TESTS=1.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonError, runCli } from '../cli/run-cli.js';
import { tempDir } from './helpers.js';
import { cutStoredResult, runAsCli, runInApp } from './public-run.js';

const tmp = tempDir('ember-600-');
afterAll(() => tmp.remove());

describe.runIf(process.env['EMBER_SLOW_TESTS'] === '1')('600 episodes from the app', () => {
  it('export byte-identical to `evaluation run`, and again after a cut-short result is repaired', async () => {
    const archive = join(tmp.dir, 'archive.sqlite');
    const started = Date.now();
    const trialId = await runInApp(archive, 60);
    const appMs = Date.now() - started;
    const cliResult = await runAsCli(tmp.dir, 60);
    const size = statSync(cliResult).size;
    expect(size).toBeGreaterThan(8_000_000);

    const exported = runCli(['archive', 'export', String(trialId), '--archive', archive, '--out', join(tmp.dir, 'export'), '--json']);
    expect(exported.status, exported.stderr).toBe(0);
    expect(readFileSync(join(tmp.dir, 'export', 'result.json')).equals(readFileSync(cliResult))).toBe(true);

    const cut = cutStoredResult(archive, trialId);
    const check = runCli(['archive', 'check', '--archive', archive, '--json']);
    expect(check.status, check.stderr).toBe(3);
    expect(jsonError(check.stderr).message).toContain(`damaged: trial ${trialId} (archive: artifact ${cut.digest} cannot be decompressed`);
    const repair = runCli(['archive', 'check', '--archive', archive, '--repair', '--json']);
    expect(repair.status, repair.stderr).toBe(0);
    expect(JSON.parse(repair.stdout)).toMatchObject({ ok: true, repaired_trials: 1 });
    const again = runCli(['archive', 'export', String(trialId), '--archive', archive, '--out', join(tmp.dir, 'repaired'), '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(tmp.dir, 'repaired', 'result.json')).equals(readFileSync(cliResult))).toBe(true);
    console.log(`600 episodes: result ${size} bytes (stored deflated ${cut.before} bytes); app run ${appMs} ms; test ${Date.now() - started} ms`);
  }, 3_600_000);
});
