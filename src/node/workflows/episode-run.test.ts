import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { baselineFactory } from '../../core/baselines/registry.js';
import { MismatchError, ValidationError } from '../../core/errors.js';
import type { RunRecord } from '../../core/sim/record.js';
import { recordDigest, recordText } from '../../core/sim/record.js';
import { defaultEntryPoints } from '../entry-points.js';
import { evaluateEpisode } from '../eval/evaluate-episode.js';
import { loadScenarioFile } from '../inputs.js';
import { runEpisodeToFile } from './episode-run.js';

// The runner's record, changed by a test before the replay check sees it
// (a simulator whose run and replay disagree cannot be had otherwise).
let tamper: ((record: RunRecord) => RunRecord) | undefined;

vi.mock('../../core/sim/episode.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../core/sim/episode.js')>();
  return {
    ...original,
    runEpisode: async (...args: Parameters<typeof original.runEpisode>) => {
      const run = await original.runEpisode(...args);
      return tamper === undefined ? run : { ...run, record: tamper(run.record) };
    },
  };
});

const CORRIDOR = join(import.meta.dirname, '..', '..', '..', 'test', 'cli', 'fixtures', 'corridor.json');
const scratch = mkdtempSync(join(tmpdir(), 'ember-episode-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  tamper = undefined;
});

function runTo(out: string, agent = 'congestion-aware-v1'): ReturnType<typeof runEpisodeToFile> {
  return runEpisodeToFile({
    scenarioPath: CORRIDOR,
    seed: '7',
    agent: { kind: 'builtin', id: agent },
    agentPaths: [],
    actTimeoutMs: 10_000,
    out,
    force: false,
    entryPoints: defaultEntryPoints(),
  });
}

describe('runEpisodeToFile', () => {
  it('writes the record an evaluation commits for the same episode, byte for byte', async () => {
    const out = join(scratch, 'same.json');
    const outcome = await runTo(out);
    const scenario = loadScenarioFile(CORRIDOR);
    const evaluated = await evaluateEpisode(baselineFactory('congestion-aware-v1')!, scenario, { index: 0, scenario_id: scenario.scenarioId, seed: '7' });
    expect(readFileSync(out, 'utf8')).toBe(recordText(evaluated.episode.record));
    expect(Buffer.from(outcome.bytes).equals(readFileSync(out))).toBe(true);
    expect(outcome.digest).toBe(recordDigest(readFileSync(out, 'utf8')));
  });

  it('refuses a record whose replay differs (MismatchError, exit 5) and writes nothing', async () => {
    tamper = (record) => ({ ...record, trajectory: record.trajectory.map((step, s) => (s === 0 ? { ...step, died: ['p0'] } : step)) });
    const out = join(scratch, 'mismatch.json');
    const refused = runTo(out);
    await expect(refused).rejects.toThrow(MismatchError);
    await expect(refused).rejects.toThrow(/^run record: trajectory\[0\]\.died: recorded \[p0\] but replay gives \[\]$/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a record that stops before the episode ends (ValidationError, exit 3) and writes nothing', async () => {
    tamper = (record) => ({ ...record, trajectory: record.trajectory.slice(0, 1) });
    const out = join(scratch, 'short.json');
    const refused = runTo(out);
    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toThrow('run record: the record ends at step 1 before the episode terminates');
    expect(existsSync(out)).toBe(false);
  });
});
