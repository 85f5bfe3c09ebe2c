// The app's language-model runs through the services (handlers['runs.start'] with agent 'openai-chat'):
// three trials of the adapter against the scripted chat-completions server on the public suite (seed 0),
// each with its operational record stored and its transcripts readable, tokens summed exactly, live usage
// in run.progress, and the API key absent from every byte the archive holds. Then the import rule: a
// result whose manifest has exactly one stored pack is scored official against it, else unofficial.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOperationalRecord, type OperationalRecord } from '../../src/core/scoring/operational.js';
import { dispatch } from '../../src/node/services/dispatch.js';
import type { RunProgressEvent } from '../../src/shared/api/contract.js';
import { openServices, tempDir } from '../archive/helpers.js';
import { plannerConfig, plannerScript, scriptedUsage, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const KEY = 'sk-app-SECRET-0123456789abcdef';
const KEY_ENV = 'EMBER_APP_TEST_KEY';
const tmp = tempDir('ember-llm-app-');
let server: ScriptedServer;

beforeAll(async () => {
  process.env[KEY_ENV] = KEY;
  server = await startScriptedServer(plannerScript('X0'));
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  await server.close();
  tmp.remove();
});

function config(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return plannerConfig(server.baseUrl, KEY_ENV, extra);
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('language-model runs from the app', () => {
  it('runs three trials against the scripted server: records stored, transcripts readable, tokens exact, no key anywhere', async () => {
    const archiveDir = join(tmp.dir, 'a');
    const h = await openServices(join(archiveDir, 'archive.sqlite'));
    let exported: { result: string; report: string } | undefined;
    try {
      const { handlers } = h.services;
      const [suite] = await handlers['suites.list']({});
      const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
      const pack = await handlers['packs.build']({ manifestHash: manifest.manifestHash });
      const start = (agentConfig: Record<string, unknown>, trials = 1): ReturnType<typeof dispatch> =>
        dispatch(handlers, 'runs.start', { manifestHash: manifest.manifestHash, packDigest: pack.packDigest, agent: { kind: 'openai-chat', config: agentConfig, maxConnections: 4 }, modelId: 'scripted-planner', jobs: 1, trials });

      // The configuration is checked like an --agent-config file; errors name agent.config.<field>.
      const { model: _model, ...noModel } = config();
      expect(await start(noModel)).toMatchObject({ ok: false, error: { kind: 'validation', field: 'agent.config.model' } });
      expect(await start(config({ temperature: -0.7 }))).toMatchObject({ ok: false, error: { kind: 'validation', field: 'agent.config.temperature' } });
      expect(await start(config({ pricing: { input_per_million: '1', output_per_million: '-1', cost_unit: 'USD' } }))).toMatchObject({ ok: false, error: { field: 'agent.config.pricing.output_per_million' } });
      expect(await start(config({ colour: 'red' }))).toMatchObject({ ok: false, error: { field: 'agent.config.colour' } });
      const unset = await start(config({ api_key_env: 'EMBER_APP_TEST_UNSET_KEY' }));
      expect(unset).toMatchObject({ ok: false, error: { kind: 'usage', field: 'agent.config.api_key_env' } });
      expect(await handlers['trials.list']({ sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 10 })).toMatchObject({ total: 0 });

      const started = await start(config(), 3);
      expect(started.ok).toBe(true);
      const first = (started as { ok: true; value: { trialId: number } }).value.trialId;
      const ids = [first, first + 1, first + 2];
      const ends: RunProgressEvent[] = [];
      for (const id of ids) ends.push(await h.ended(id));
      for (const end of ends) expect(end.error?.message ?? end.state).toBe('complete');

      const records: OperationalRecord[] = [];
      for (const [k, id] of ids.entries()) {
        const detail = await handlers['trials.get']({ trialId: id });
        expect(detail.trial).toMatchObject({ status: 'complete', official: true, modelId: 'scripted-planner', agentLabel: 'openai-chat:scripted-planner' });
        expect(detail.operational).not.toBeNull();
        const record = readOperationalRecord(detail.operational as never, `trial ${id}`);
        expect(record).toMatchObject({ model_id: 'scripted-planner', provider_id: '127.0.0.1:' + server.port, episodes: manifest.episodeCount, trials: 1, cost_unit: 'USD', retries: 0, timeouts: 0 });
        records.push(record);
        // The final progress event's live counter agrees with the record (every call belongs to a committed episode).
        expect(ends[k]!.usage).toMatchObject({ inputTokens: record.input_tokens, outputTokens: record.output_tokens, costUnit: 'USD' });
        expect(Number(ends[k]!.usage!.cost)).toBeCloseTo(Number(record.input_tokens) * 0.2e-6 + Number(record.output_tokens) * 0.8e-6, 12);
      }
      expect(new Set(records.map((r) => r.inference_config_digest)).size).toBe(1);
      // Tokens summed exactly: the records' totals are the scripted server's usage fields, summed.
      const served = server.requests.reduce(
        (sum, r) => {
          const u = scriptedUsage(r.body, JSON.stringify({ targets: { '*': 'X0' } }));
          return { input: sum.input + u.prompt_tokens, output: sum.output + u.completion_tokens };
        },
        { input: 0, output: 0 },
      );
      expect(records.reduce((s, r) => s + r.input_tokens, 0)).toBe(served.input);
      expect(records.reduce((s, r) => s + r.output_tokens, 0)).toBe(served.output);
      expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
      // Live usage moved while the runs were going.
      const live = h.events.filter((e) => e.event === 'run.progress' && (e.payload as RunProgressEvent).state === 'running' && (e.payload as RunProgressEvent).usage !== undefined);
      expect(live.length).toBeGreaterThan(0);

      // Transcripts: every episode's, the step each answer drove, the tokens of each call.
      let calls = 0;
      let inputTokens = 0;
      for (let index = 0; index < manifest.episodeCount; index++) {
        const { lines } = await handlers['episodes.transcript']({ trialId: ids[1]!, index });
        expect(lines.length).toBeGreaterThan(0);
        expect(lines[0]).toMatchObject({ step: 0, outcome: 'ok', answer: '{"targets":{"*":"X0"}}' });
        expect(lines.every((l, i) => i === 0 || l.step > lines[i - 1]!.step)).toBe(true);
        calls += lines.length;
        inputTokens += lines.reduce((s, l) => s + l.inputTokens!, 0);
      }
      expect(inputTokens).toBe(records[1]!.input_tokens);
      expect(calls).toBeGreaterThan(0);
      expect(await dispatch(handlers, 'episodes.transcript', { trialId: ids[0]!, index: manifest.episodeCount })).toMatchObject({ ok: false, error: { kind: 'not_found', field: 'index' } });

      const out = join(tmp.dir, 'export');
      await handlers['archive.export']({ trialId: ids[0]!, outDir: out });
      exported = { result: readFileSync(join(out, 'result.json'), 'utf8'), report: readFileSync(join(out, 'score.json'), 'utf8') };
    } finally {
      await h.services.dispose();
    }
    // The key: not in the archive file, its journal, or any transcript or cached file.
    const files = filesUnder(archiveDir);
    expect(files.some((f) => f.includes(`trial-${1}`) && f.endsWith('.jsonl'))).toBe(true);
    const offenders = files.filter((f) => readFileSync(f).includes(Buffer.from(KEY)));
    expect(offenders).toEqual([]);

    // Imports: unofficial without a pack of the result's manifest, official (the same report bytes) with exactly one.
    const plain = await openServices(join(tmp.dir, 'b', 'archive.sqlite'));
    try {
      const { handlers } = plain.services;
      const imported = await handlers['archive.import']({ fileName: 'result.json', text: exported.result });
      expect((await handlers['trials.get']({ trialId: imported.trialId })).trial).toMatchObject({ official: false, packId: null, origin: 'import' });
    } finally {
      await plain.services.dispose();
    }
    const withPack = await openServices(join(tmp.dir, 'c', 'archive.sqlite'));
    try {
      const { handlers } = withPack.services;
      const [suite] = await handlers['suites.list']({});
      const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
      const pack = await handlers['packs.build']({ manifestHash: manifest.manifestHash });
      const imported = await handlers['archive.import']({ fileName: 'result.json', text: exported.result });
      const detail = await handlers['trials.get']({ trialId: imported.trialId });
      expect(detail.trial).toMatchObject({ official: true, packId: pack.packId, origin: 'import' });
      const out = join(tmp.dir, 'export-c');
      await handlers['archive.export']({ trialId: imported.trialId, outDir: out });
      expect(readFileSync(join(out, 'score.json'), 'utf8')).toBe(exported.report);
      // An imported trial has no transcripts.
      expect(await dispatch(handlers, 'episodes.transcript', { trialId: imported.trialId, index: 0 })).toMatchObject({ ok: false, error: { kind: 'not_found', field: 'trialId' } });
    } finally {
      await withPack.services.dispose();
    }
  }, 240_000);

  it('a cancelled language-model trial resumes; its record then covers the episodes of both runs', async () => {
    const slow = await startScriptedServer(async (request) => {
      await new Promise((r) => setTimeout(r, 20));
      return plannerScript('X0')(request);
    });
    const h = await openServices(join(tmp.dir, 'r', 'archive.sqlite'));
    try {
      const { handlers } = h.services;
      const [suite] = await handlers['suites.list']({});
      const manifest = await handlers['manifests.create']({ suiteHash: suite!.suiteHash, seeds: ['0'] });
      const { trialId } = await handlers['runs.start']({
        manifestHash: manifest.manifestHash,
        packDigest: null,
        agent: { kind: 'openai-chat', config: config({ base_url: slow.baseUrl }), maxConnections: 2 },
        modelId: 'scripted-planner',
        jobs: 1,
        actTimeoutMs: 30_000,
        continueOnFailure: true,
        trials: 1,
      });
      // Cancel once the first episode is committed.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (h.events.some((e) => e.event === 'run.progress' && (e.payload as RunProgressEvent).episode !== undefined)) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      await handlers['runs.cancel']({ trialId });
      expect((await h.ended(trialId)).state).toBe('cancelled');
      const interrupted = await handlers['trials.get']({ trialId });
      expect(interrupted.trial.status).toBe('interrupted');
      expect(interrupted.operational).toBeNull();
      expect(interrupted.trial.episodesCompleted).toBeLessThan(manifest.episodeCount);

      h.events.length = 0;
      await handlers['runs.resume']({ trialId });
      const end = await h.ended(trialId);
      expect(end.error?.message ?? end.state).toBe('complete');
      const detail = await handlers['trials.get']({ trialId });
      const record = readOperationalRecord(detail.operational as never, 'resumed');
      expect(record.episodes).toBe(manifest.episodeCount);
      let input = 0;
      for (let index = 0; index < manifest.episodeCount; index++) {
        const { lines } = await handlers['episodes.transcript']({ trialId, index });
        input += lines.reduce((sum, l) => sum + l.inputTokens!, 0);
      }
      expect(record.input_tokens).toBe(input);
    } finally {
      await h.services.dispose();
      await slow.close();
    }
  }, 180_000);
});
