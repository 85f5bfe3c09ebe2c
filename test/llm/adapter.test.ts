// The chat-completions adapter against a real HTTP server on 127.0.0.1 with scripted answers.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentError, ModelOutputError } from '../../src/core/errors.js';
import type { JsonValue } from '../../src/core/json/canonical.js';
import { readAgentConfig, type AgentConfig } from '../../src/core/llm/config.js';
import { costOf } from '../../src/core/llm/cost.js';
import { parseOperationalRecordText, operationalRecordText } from '../../src/core/scoring/operational.js';
import { EVACUATED } from '../../src/core/sim/events.js';
import { runEpisode } from '../../src/core/sim/episode.js';
import { recordText } from '../../src/core/sim/record.js';
import { prepareEpisode } from '../../src/core/world/episode-start.js';
import type { Scenario } from '../../src/core/world/scenario-types.js';
import { createLiveUsage, liveCost, readLiveUsage } from '../../src/node/agents/openai-chat/live-usage.js';
import { trialOperationalRecord } from '../../src/node/agents/openai-chat/operational.js';
import { openLlmSession, type LlmAgentOptions } from '../../src/node/agents/openai-chat/session.js';
import { ConnectionSlots, createSlots } from '../../src/node/agents/openai-chat/slots.js';
import { readTranscript } from '../../src/node/agents/openai-chat/transcript.js';
import { loadScenarioFile } from '../../src/node/inputs.js';
import { answer, greedyActions, greedyScript, plannerScript, scriptedUsage, startScriptedServer, type Script, type ScriptedServer } from './scripted-server.js';

const CORRIDOR = join(import.meta.dirname, '..', 'cli', 'fixtures', 'corridor.json');
const KEY = 'sk-test-SECRET-0123456789abcdef';
const KEY_ENV = 'EMBER_TEST_LLM_KEY';

let scenario: Scenario;
let dir: string;
const servers: ScriptedServer[] = [];

beforeAll(() => {
  scenario = loadScenarioFile(CORRIDOR);
  dir = mkdtempSync(join(tmpdir(), 'ember-llm-'));
  process.env[KEY_ENV] = KEY;
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(() => {
  // The key is in no file the adapter wrote: transcripts, caches, records.
  const offenders: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else if (readFileSync(path, 'utf8').includes(KEY)) offenders.push(path);
  };
  walk(dir);
  rmSync(dir, { recursive: true, force: true });
  delete process.env[KEY_ENV];
  expect(offenders).toEqual([]);
});

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

let counter = 0;

function config(server: ScriptedServer, extra: Record<string, unknown> = {}): AgentConfig {
  return readAgentConfig(
    {
      base_url: server.baseUrl,
      model: 'scripted-model',
      api_key_env: KEY_ENV,
      temperature: '0',
      top_p: '1',
      max_tokens: 256,
      seed: 7,
      system_prompt_version: '1.0',
      adapter_version: '1.0',
      mode: 'direct',
      request_timeout_ms: 2000,
      max_retries: 2,
      retry_base_ms: 10,
      pricing: { input_per_million: '0.15', output_per_million: '0.6', cost_unit: 'USD' },
      ...extra,
    } as unknown as JsonValue,
    'test config',
  );
}

function options(c: AgentConfig, extra: Partial<LlmAgentOptions> = {}): LlmAgentOptions {
  return { config: c, maxConnections: 4, transcriptDir: join(dir, `t${counter++}`), responseCacheDir: null, ...extra };
}

async function episode(opts: LlmAgentOptions, seed = '3', index = 0) {
  const session = openLlmSession(opts);
  try {
    return await runEpisode(prepareEpisode(scenario, seed), await session.factoryFor(index)());
  } finally {
    await session.close();
  }
}

async function failure(opts: LlmAgentOptions): Promise<AgentError> {
  try {
    await episode(opts);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return error as AgentError;
  }
  throw new Error('the episode did not fail');
}

describe('builtin:openai-chat against a scripted endpoint', () => {
  it('plays an episode in direct mode, one call per step, with usage summed exactly', async () => {
    const server = await serve(greedyScript());
    const opts = options(config(server));
    const run = await episode(opts);
    expect(run.record.steps).toBeGreaterThan(0);
    expect(server.requests.length).toBe(run.record.steps);
    // The key goes only into the Authorization header.
    for (const r of server.requests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.body).toMatchObject({ model: 'scripted-model', temperature: 0, top_p: 1, max_tokens: 256, seed: 7 });

    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.calls.map((c) => c.step)).toEqual(Array.from({ length: run.record.steps }, (_, i) => i));
    expect(t.calls.every((c) => c.status === 'ok' && c.answer === JSON.stringify(greedyActions(c.prompt)))).toBe(true);
    let input = 0;
    let output = 0;
    for (const r of server.requests) {
      const u = scriptedUsage(r.body, JSON.stringify(greedyActions(r.body.messages[1]!.content)));
      input += u.prompt_tokens;
      output += u.completion_tokens;
    }
    expect(t.summary).toMatchObject({ outcome: 'ended', calls: run.record.steps, input_tokens: input, output_tokens: output, retries: 0, timeouts: 0 });

    const record = (await trialOperationalRecord({ modelId: 'scripted-model', config: opts.config, transcriptDir: opts.transcriptDir, indices: [0] }))!;
    expect(record.input_tokens).toBe(input);
    expect(record.output_tokens).toBe(output);
    expect(record.cost).toBe(costOf(opts.config.pricing!, input, output).toFraction());
    expect(record.cost_unit).toBe('USD');
    expect(record.inference_config_digest).toBe(opts.config.inference_config_digest);
    expect(record.response_cache_hits).toBeUndefined();
    expect(parseOperationalRecordText(operationalRecordText(record), 'x')).toEqual(record);
  });

  it('gives identical records for identical scripted answers', async () => {
    const server = await serve(greedyScript());
    const a = await episode(options(config(server)));
    const b = await episode(options(config(server)));
    expect(recordText(a.record)).toBe(recordText(b.record));
  });

  it('retries 429 and 500 with backoff and counts the retries', async () => {
    let n = 0;
    const server = await serve((req) => {
      n += 1;
      if (n === 1) return { kind: 'status', status: 429 };
      if (n === 2) return { kind: 'status', status: 503 };
      return answer(req.body, JSON.stringify(greedyActions(req.body.messages[1]!.content)));
    });
    const opts = options(config(server));
    const run = await episode(opts);
    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.calls[0]).toMatchObject({ attempts: 3, retries: 2, timeouts: 0, status: 'ok' });
    expect(t.summary.retries).toBe(2);
    expect(server.requests.length).toBe(run.record.steps + 2);
  });

  it('fails with model_error when 5xx answers outlast the retries', async () => {
    const server = await serve(() => ({ kind: 'status', status: 500, body: `{"error":"boom ${KEY}"}` }));
    const opts = options(config(server));
    const error = await failure(opts);
    expect(error.failure).toBe('model_error');
    expect(error.message).toMatch(/after 3 attempt\(s\): HTTP 500/);
    // A server that echoes the key does not get it into messages or transcripts.
    expect(error.message).not.toContain(KEY);
    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.calls).toHaveLength(1);
    expect(t.calls[0]).toMatchObject({ status: 'model_error', answer: null, attempts: 3, retries: 2 });
    expect(t.summary).toMatchObject({ outcome: 'failed', failure: 'model_error', retries: 2 });
  });

  it('honours the per-call deadline and fails with timeout', async () => {
    const server = await serve((req) => answer(req.body, '{}', 5000));
    const opts = options(config(server, { request_timeout_ms: 150, max_retries: 1 }));
    const began = performance.now();
    const error = await failure(opts);
    const elapsed = performance.now() - began;
    expect(error.failure).toBe('timeout');
    // Two attempts of 150 ms and a 10 ms backoff: far below the server's 5 s.
    expect(elapsed).toBeLessThan(2000);
    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.summary).toMatchObject({ failure: 'timeout', timeouts: 2, retries: 1 });
  });

  it('recovers from one dropped connection and fails after drops outlast the retries', async () => {
    let n = 0;
    const flaky = await serve((req) => (++n === 1 ? { kind: 'drop' } : answer(req.body, JSON.stringify(greedyActions(req.body.messages[1]!.content)))));
    const opts = options(config(flaky));
    await episode(opts);
    expect((await readTranscript(opts.transcriptDir, 0)).calls[0]).toMatchObject({ attempts: 2, retries: 1 });

    const dead = await serve(() => ({ kind: 'drop' }));
    const error = await failure(options(config(dead)));
    expect(error.failure).toBe('model_error');
    expect(error.message).toMatch(/connection failed/);
  });

  it('fails at once with model_error for a malformed body or a refused call', async () => {
    const malformed = await serve(() => ({ kind: 'raw', body: '{"choices": [' }));
    const a = await failure(options(config(malformed)));
    expect(a.failure).toBe('model_error');
    expect(a.message).toMatch(/not JSON/);
    expect(malformed.requests).toHaveLength(1);

    const refused = await serve(() => ({ kind: 'status', status: 401 }));
    const b = await failure(options(config(refused)));
    expect(b.failure).toBe('model_error');
    expect(b.message).toMatch(/refused the call: HTTP 401/);
    expect(refused.requests).toHaveLength(1);
  });

  it('ends the episode as invalid_output for a prose answer or an illegal move, keeping the raw answer', async () => {
    const prose = await serve((req) => answer(req.body, 'I think everyone should go north.'));
    const opts = options(config(prose));
    const a = await failure(opts);
    expect(a).toBeInstanceOf(ModelOutputError);
    expect(a.failure).toBe('invalid_output');
    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.calls[0]).toMatchObject({ status: 'invalid_output', answer: 'I think everyone should go north.' });

    // Everyone north from row 1 walks into the wall (the corridor's exit is at column 5 only).
    const illegal = await serve((req) => {
      const ids = Object.keys(greedyActions(req.body.messages[1]!.content));
      return answer(req.body, JSON.stringify(Object.fromEntries(ids.map((id) => [id, 'W']))));
    });
    const opts2 = options(config(illegal));
    const b = await failure(opts2);
    expect(b.failure).toBe('invalid_output');
    expect((await readTranscript(opts2.transcriptDir, 0)).calls.at(-1)!.error).toMatch(/wall|burning/);
  });

  it('plans every k steps in planner mode and rejects an unknown exit', async () => {
    const server = await serve(plannerScript('X0'));
    const opts = options(config(server, { mode: 'planner', planner_interval: 4 }));
    const run = await episode(opts);
    const t = await readTranscript(opts.transcriptDir, 0);
    expect(t.calls.map((c) => c.step)).toEqual(Array.from({ length: Math.ceil(run.record.steps / 4) }, (_, i) => i * 4));
    expect(run.outcome.status.some((s) => s === EVACUATED)).toBe(true);

    const wrong = await serve(plannerScript('X7'));
    const error = await failure(options(config(wrong, { mode: 'planner', planner_interval: 4 })));
    expect(error.failure).toBe('invalid_output');
    expect(error.message).toMatch(/not an exit ID/);
  });

  it('asks the planner again at once when an assigned exit is lost, but not for an exit unreachable from the start', async () => {
    // X0 (0,5) is lost at step 3 when its only neighbour (1,5) ignites; X1 (3,0) stays open.
    const file = join(dir, 'two-exits.json');
    const lost = (step: number): string =>
      JSON.stringify({
        schema_version: '1.0',
        scenario_id: 'llm-two-exits',
        title: 'two exits, one lost',
        families: ['route_invalidation'],
        map: ['#####E#####', '#.........#', '#.........#', 'E.........#', '###########'],
        people: [{ cell: [2, 8] }],
        fire: { ignitions: [{ cell: [1, 5], step }], ignition_candidates: { cells: [[2, 9]], count: 1 }, spread_probability: '0' },
        max_steps: 40,
        development_seed: '0',
      });
    const steps = async (ignition: number): Promise<number[]> => {
      writeFileSync(file, lost(ignition));
      const two = loadScenarioFile(file);
      let n = 0;
      const server = await serve((req) => answer(req.body, JSON.stringify({ targets: { '*': n++ === 0 ? 'X0' : 'X1' } })));
      const opts = options(config(server, { mode: 'planner', planner_interval: 10 }));
      const session = openLlmSession(opts);
      try {
        await runEpisode(prepareEpisode(two, '1'), await session.factoryFor(0)());
      } finally {
        await session.close();
      }
      return (await readTranscript(opts.transcriptDir, 0)).calls.map((c) => c.step);
    };
    expect((await steps(3)).slice(0, 2)).toEqual([0, 3]);
    // Unreachable from step 0: no extra call until the next planning step.
    expect((await steps(0)).slice(0, 2)).toEqual([0, 10]);
  });

  it('caps calls in flight with --max-connections, across episodes', async () => {
    const server = await serve((req) => answer(req.body, JSON.stringify(greedyActions(req.body.messages[1]!.content)), 15));
    const live = createLiveUsage();
    const opts = options(config(server), { maxConnections: 2, liveUsage: live });
    const session = openLlmSession(opts);
    try {
      await Promise.all(['1', '2', '3', '4', '5', '6'].map(async (seed, i) => runEpisode(prepareEpisode(scenario, seed), await session.factoryFor(i)())));
    } finally {
      await session.close();
    }
    expect(server.inFlight().peak).toBe(2);
    expect(session.usage().calls).toBe(server.requests.length);
    // The shared live counter saw every call, and its cost is exact.
    expect(readLiveUsage(live)).toEqual(session.usage());
    expect(liveCost(live, opts.config.pricing!)!.toFraction()).toBe(costOf(opts.config.pricing!, session.usage().inputTokens, session.usage().outputTokens).toFraction());
  });

  it('shares one budget between holders of the same buffer', async () => {
    const buffer = createSlots(1);
    const a = new ConnectionSlots(buffer);
    const b = new ConnectionSlots(buffer);
    await a.acquire();
    let got = false;
    const waiting = b.acquire().then(() => (got = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toBe(false);
    a.release();
    await waiting;
    expect(got).toBe(true);
    expect(b.available).toBe(0);
    b.release();
  });

  it('serves repeated prompts from the response cache and marks the record', async () => {
    const server = await serve(greedyScript());
    const cacheDir = join(dir, 'cache');
    const first = options(config(server), { responseCacheDir: cacheDir });
    const a = await episode(first);
    const calls = server.requests.length;
    const second = options(config(server), { responseCacheDir: cacheDir });
    const b = await episode(second);
    expect(server.requests.length).toBe(calls);
    expect(recordText(b.record)).toBe(recordText(a.record));
    const record = (await trialOperationalRecord({ modelId: 'm', config: second.config, transcriptDir: second.transcriptDir, indices: [0] }))!;
    expect(record.response_cache_hits).toBe(b.record.steps);
    expect(record.input_tokens).toBe(0);
    // Another inference configuration never reuses these answers.
    const other = options(config(server, { temperature: '0.5' }), { responseCacheDir: cacheDir });
    await episode(other);
    expect(server.requests.length).toBe(calls * 2);
  });

  it('refuses to start without the key variable', () => {
    const c = readAgentConfig(
      { base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: 'EMBER_TEST_UNSET_KEY', temperature: '0', top_p: '1', max_tokens: 1, seed: null, system_prompt_version: '1.0', adapter_version: '1.0', mode: 'direct' } as unknown as JsonValue,
      'c',
    );
    expect(() => openLlmSession(options(c))).toThrow(/EMBER_TEST_UNSET_KEY, which is not set/);
  });
});
