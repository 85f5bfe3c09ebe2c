// A language-model run of K = 2 trials from the app: every progress event says "trial k of K" with the run's totals
// (episodes, calls, tokens, cost: the sum of the trials' figures), the Trial page's series answer gives the combined
// score of the two trials (each episode's trials averaged first, scoring-v1.0.md sections 6 and 12: checked here
// against the two reports' scenario scores), and the Leaderboard ranks that combined score, labelled by its trials.
// Then a wrong key: the run stops after the first episode with the key's advice, no second trial, nothing ranked.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreReport } from '../../src/core/scoring/report-types.js';
import { readOperationalRecord } from '../../src/core/scoring/operational.js';
import { Rational } from '../../src/core/stats/rational.js';
import type { RunProgressEvent } from '../../src/shared/api/contract.js';
import { openServices, tempDir } from '../archive/helpers.js';
import { smallManifest } from './small-suite.js';
import { answer, plannerConfig, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const KEY_ENV = 'EMBER_KTRIAL_TEST_KEY';
const tmp = tempDir('ember-llm-k-');
let server: ScriptedServer;
/** How often each step-0 prompt (one per episode) was seen: the second trial starts every episode towards X1. */
const seen = new Map<string, number>();

beforeAll(async () => {
  process.env[KEY_ENV] = 'sk-k-0123456789';
  server = await startScriptedServer((request) => {
    // The very first call is refused once with a 429: its transcript line shows the retry.
    if (request.n === 0) return { kind: 'status', status: 429 };
    const prompt = request.body.messages[request.body.messages.length - 1]!.content;
    let exit = 'X0';
    if (prompt.startsWith('step 0 of ')) {
      const n = (seen.get(prompt) ?? 0) + 1;
      seen.set(prompt, n);
      if (n === 2) exit = 'X1';
    }
    return answer(request.body, JSON.stringify({ targets: { '*': exit } }));
  });
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  await server.close();
  tmp.remove();
});

/** The combined score computed here from the trials' scenario scores: scenario mean over trials, family mean, overall mean. */
function combinedOf(reports: readonly ScoreReport[]): Rational {
  const byScenario = new Map<string, { family: string; scores: Rational[] }>();
  for (const r of reports) {
    for (const s of r.scenarios) {
      const entry = byScenario.get(s.scenario_id) ?? { family: s.primary_family, scores: [] };
      entry.scores.push(Rational.parse(s.score));
      byScenario.set(s.scenario_id, entry);
    }
  }
  const mean = (xs: readonly Rational[]): Rational => xs.reduce((a, b) => a.add(b), Rational.of(0n)).div(Rational.of(BigInt(xs.length)));
  const families = new Map<string, Rational[]>();
  for (const { family, scores } of byScenario.values()) families.set(family, [...(families.get(family) ?? []), mean(scores)]);
  return mean([...families.values()].map(mean));
}

describe('a run of K trials from the app', () => {
  it('says trial k of K with run totals, gives the combined score on the trial page and the Leaderboard', async () => {
    const h = await openServices(join(tmp.dir, 'archive.sqlite'));
    try {
      const { handlers } = h.services;
      const manifest = await smallManifest(handlers);
      const agent = { kind: 'openai-chat' as const, config: plannerConfig(server.baseUrl, KEY_ENV), maxConnections: 8 };
      const { trialId: first } = await handlers['runs.start']({ manifestHash: manifest.manifestHash, packDigest: null, agent, modelId: 'k-model', jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 2 });
      const ends = [await h.ended(first), await h.ended(first + 1)];
      for (const end of ends) expect(end.error?.message ?? end.state).toMatch(/^(complete|incomplete)$/);

      const progress = h.events.filter((e) => e.event === 'run.progress').map((e) => e.payload as RunProgressEvent);
      for (const p of progress) expect(p.trial).toMatchObject({ index: p.trialId - first + 1, count: 2 });
      // The run totals at the end of trial 2 are the two trials' figures added up (episodes, calls, tokens, exact cost).
      const [end1, end2] = ends as [RunProgressEvent, RunProgressEvent];
      expect(end1.trial!.totals).toMatchObject({ episodes: end1.finished, calls: end1.usage!.calls, inputTokens: end1.usage!.inputTokens });
      expect(end2.trial!.totals).toEqual({
        episodes: end1.finished + end2.finished,
        calls: end1.usage!.calls + end2.usage!.calls,
        inputTokens: end1.usage!.inputTokens + end2.usage!.inputTokens,
        outputTokens: end1.usage!.outputTokens + end2.usage!.outputTokens,
        cost: Rational.parse(end1.usage!.cost!).add(Rational.parse(end2.usage!.cost!)).eq(Rational.parse(end2.trial!.totals.cost!)) ? end2.trial!.totals.cost : 'differs',
      });
      // Every request was a call, but for the one 429 that was retried.
      expect(end2.trial!.totals.calls).toBe(server.requests.length - 1);
      const retried = [];
      for (let index = 0; index < manifest.episodeCount; index++) {
        const { lines } = await handlers['episodes.transcript']({ trialId: first, index });
        retried.push(...lines.filter((l) => l.retries > 0));
      }
      expect(retried).toHaveLength(1);
      expect(retried[0]).toMatchObject({ retries: 1, attempts: 2, outcome: 'ok' });

      const details = [await handlers['trials.get']({ trialId: first }), await handlers['trials.get']({ trialId: first + 1 })];
      const reports = details.map((d) => d.report as ScoreReport);
      // The cost shown live is the record's cost, digit for digit (one rule: the exact decimal).
      const record = readOperationalRecord(details[1]!.operational as never, 'trial 2');
      expect(Rational.parse(record.cost!).eq(Rational.parse(end2.usage!.cost!))).toBe(true);
      // The trials differ (the second starts every episode towards X1), so the combined score is not either one's.
      expect(reports[0]!.score).not.toBe(reports[1]!.score);

      const series = await handlers['trials.series']({ trialId: first + 1 });
      expect(series).toMatchObject({ index: 2, count: 2, first, scoredTrialIds: [first, first + 1] });
      const expected = combinedOf(reports);
      const diff = Rational.parse(series!.score!).sub(expected);
      const tolerance = Rational.parse('0.000001');
      expect(diff.cmp(tolerance) <= 0 && diff.neg().cmp(tolerance) <= 0, `${series!.score} vs ${expected.toFixed(8)}`).toBe(true);
      expect(await handlers['trials.series']({ trialId: first })).toEqual({ ...series, index: 1 });

      const { boards } = await handlers.leaderboard({ resamples: 20 });
      const row = boards.flatMap((b) => b.rows).find((r) => r.modelId === 'k-model')!;
      expect(row.trialIds).toEqual([first, first + 1]);
      expect(row.score).toBe(series!.score);
    } finally {
      await h.services.dispose();
    }
  }, 240_000);

  it('a wrong key: the run stops after the first episode with the advice, no second trial, not ranked', async () => {
    const refusing = await startScriptedServer(() => ({ kind: 'status', status: 401 }));
    const h = await openServices(join(tmp.dir, 'wrong-key', 'archive.sqlite'));
    try {
      const { handlers } = h.services;
      const manifest = await smallManifest(handlers);
      const agent = { kind: 'openai-chat' as const, config: plannerConfig(refusing.baseUrl, KEY_ENV), maxConnections: 1 };
      const { trialId } = await handlers['runs.start']({ manifestHash: manifest.manifestHash, packDigest: null, agent, modelId: 'wrong-key', jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 3 });
      const end = await h.ended(trialId);
      expect(end.state).toBe('failed');
      expect(end.error!.message).toContain(`the endpoint refused the API key: check the key in the environment variable ${KEY_ENV}`);
      expect(end.finished).toBe(0);
      expect(refusing.requests).toHaveLength(1);
      const detail = await handlers['trials.get']({ trialId });
      expect(detail.trial.status).toBe('interrupted');
      expect(detail.report).toBeNull();
      const list = await handlers['trials.list']({ sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 10 });
      expect(list.total).toBe(1);
      const { boards } = await handlers.leaderboard({ resamples: 20 });
      expect(boards.flatMap((b) => b.rows).some((r) => r.modelId === 'wrong-key')).toBe(false);
    } finally {
      await h.services.dispose();
      await refusing.close();
    }
  }, 120_000);
});
