// The spend of cut episodes: a language-model trial cancelled from the app while episodes are running, then
// resumed, gets an operational record whose `cut` field holds the calls and tokens of the episode runs the cancel
// cut (they ran again after the resume), so the record and `cut` together account for what the endpoint served.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOperationalRecordText, operationalRecordText, readOperationalRecord } from '../../src/core/scoring/operational.js';
import { openServices, tempDir } from '../archive/helpers.js';
import { smallManifest } from './small-suite.js';
import { plannerConfig, plannerScript, scriptedUsage, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const KEY_ENV = 'EMBER_CUT_TEST_KEY';
const tmp = tempDir('ember-llm-cut-');
let server: ScriptedServer;
// The endpoint holds its answers until the test opens the gate: the cancel
// then lands while the first episode waits on the wire, whatever the speed
// of the machine (with answers flowing, an idle machine could commit every
// episode before the cancel landed).
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));

beforeAll(async () => {
  process.env[KEY_ENV] = 'sk-cut-0123456789';
  server = await startScriptedServer(async (request) => {
    await gate;
    await new Promise((r) => setTimeout(r, 25));
    return plannerScript('X0')(request);
  });
});
afterAll(async () => {
  openGate();
  delete process.env[KEY_ENV];
  await server.close();
  tmp.remove();
});

describe('tokens of cut episodes', () => {
  it('a cancel mid-run, then a resume: the record counts the cut runs apart, and the totals match the endpoint', async () => {
    const archivePath = join(tmp.dir, 'archive.sqlite');
    const h = await openServices(archivePath);
    try {
      const { handlers } = h.services;
      // planner_interval 2: each episode makes several calls.
      const manifest = await smallManifest(handlers);
      const agent = { kind: 'openai-chat' as const, config: plannerConfig(server.baseUrl, KEY_ENV, { planner_interval: 2 }), maxConnections: 3 };
      const { trialId } = await handlers['runs.start']({ manifestHash: manifest.manifestHash, packDigest: null, agent, modelId: 'scripted-planner', jobs: 1, actTimeoutMs: 30_000, continueOnFailure: true, trials: 1 });
      // The first call of the first episode is on the wire, held: cancel it there.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(poll);
            resolve();
          }
        }, 10);
      });
      await handlers['runs.cancel']({ trialId });
      expect((await h.ended(trialId)).state).toBe('cancelled');
      const committedBefore = (await handlers['trials.get']({ trialId })).trial.episodesCompleted;
      expect(committedBefore).toBe(0);
      const servedAtCancel = server.requests.length;
      openGate();

      h.events.length = 0;
      await handlers['runs.resume']({ trialId });
      const end = await h.ended(trialId);
      expect(end.error?.message ?? end.state).toBe('complete');
      const detail = await handlers['trials.get']({ trialId });
      const record = readOperationalRecord(detail.operational as never, 'resumed');
      expect(parseOperationalRecordText(operationalRecordText(record), 'round trip')).toEqual(record);
      expect(record.episodes).toBe(manifest.episodeCount);

      // Every episode not committed at the cancel ran again; those that had started left a cut run.
      expect(record.cut).toBeDefined();
      const cut = record.cut!;
      expect(cut.episodes).toBeGreaterThanOrEqual(1);
      expect(cut.episodes).toBeLessThanOrEqual(manifest.episodeCount - committedBefore);
      expect(cut.calls).toBeGreaterThanOrEqual(1);
      expect(cut.cost).not.toBeNull();
      const cutDir = join(`${archivePath}.cache`, 'transcripts', `trial-${trialId}`, 'cut');
      expect(readdirSync(cutDir).filter((n) => n.endsWith('.jsonl'))).toHaveLength(cut.episodes);

      // What the endpoint answered, against what the record and `cut` count: equal but for the calls in flight at the
      // cancel (at most maxConnections), whose answers the evaluator never read.
      const usage = server.requests.map((r) => scriptedUsage(r.body, JSON.stringify({ targets: { '*': 'X0' } })).prompt_tokens);
      const served = usage.reduce((a, b) => a + b, 0);
      const counted = record.input_tokens + cut.input_tokens;
      const inFlightMost = [...usage].sort((a, b) => b - a).slice(0, agent.maxConnections).reduce((a, b) => a + b, 0);
      expect(counted).toBeLessThanOrEqual(served);
      expect(counted).toBeGreaterThanOrEqual(served - inFlightMost);
      expect(servedAtCancel).toBeGreaterThan(0);
    } finally {
      await h.services.dispose();
    }
  }, 180_000);
});
