import { describe, expect, it } from 'vitest';
import { ModelOutputError, ValidationError } from '../errors.js';
import type { JsonValue } from '../json/canonical.js';
import type { Observation } from '../sim/observation.js';
import { Rational } from '../stats/rational.js';
import { gridFromMap } from '../world/grid.js';
import { parseDirectAnswer, parsePlannerAnswer } from './answer.js';
import { readAgentConfig } from './config.js';
import { costOf, millisecondsAsSeconds } from './cost.js';
import { PathFollower } from './follower.js';
import { checkTrialRecords } from './trials.js';
import type { OperationalRecord } from '../scoring/operational.js';
import { exitIds, renderObservation } from './prompt.js';

const MAP = ['#####E####', '#........#', '#........#', 'E#########'];
const OBS: Observation = {
  step: 2,
  max_steps: 30,
  map: MAP,
  exits: [
    [0, 5],
    [3, 0],
  ],
  burning: [[2, 8]],
  people: [
    { id: 'p0000', cell: [1, 2] },
    { id: 'p0002', cell: [2, 7] },
  ],
  evacuated: 1,
  dead: 0,
};
const GRID = gridFromMap(MAP);

const BASE = {
  base_url: 'http://127.0.0.1:8000/v1',
  model: 'm',
  api_key_env: null,
  temperature: '0',
  top_p: '1',
  max_tokens: 64,
  seed: null,
  system_prompt_version: '1.0',
  adapter_version: '1.0',
  mode: 'direct',
};

function outputError(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelOutputError);
    return (error as Error).message;
  }
  throw new Error('no error');
}

describe('agent configuration', () => {
  it('reads a configuration and digests only the inference settings', () => {
    const a = readAgentConfig(BASE as unknown as JsonValue, 'c.json');
    expect(a.provider_id).toBe('127.0.0.1:8000');
    expect(a.inference_config_digest).toMatch(/^[0-9a-f]{64}$/);
    // Where the endpoint is, the key's variable, the call policy and prices do not change the digest.
    const b = readAgentConfig(
      { ...BASE, base_url: 'https://api.example.com/v1/', api_key_env: 'K', max_retries: 1, pricing: { input_per_million: '0.5', output_per_million: '1.5', cost_unit: 'USD' } } as unknown as JsonValue,
      'c.json',
    );
    expect(b.inference_config_digest).toBe(a.inference_config_digest);
    expect(b.base_url).toBe('https://api.example.com/v1');
    const c = readAgentConfig({ ...BASE, temperature: '0.7' } as unknown as JsonValue, 'c.json');
    expect(c.inference_config_digest).not.toBe(a.inference_config_digest);
  });

  it('takes decimals as users write them (0.7, "0.70") in one exact spelling, and fills in the optional sampling keys', () => {
    const asString = readAgentConfig({ ...BASE, temperature: '0.7' } as unknown as JsonValue, 'c.json');
    for (const written of [0.7, '0.70', '00.7']) {
      const c = readAgentConfig({ ...BASE, temperature: written } as unknown as JsonValue, 'c.json');
      expect(c.inference.temperature).toBe('0.7');
      expect(c.inference_config_digest).toBe(asString.inference_config_digest);
    }
    const priced = readAgentConfig({ ...BASE, pricing: { input_per_million: 0.15, output_per_million: '0.60', cost_unit: 'USD' } } as unknown as JsonValue, 'c.json');
    expect(priced.pricing).toEqual({ input_per_million: '0.15', output_per_million: '0.6', cost_unit: 'USD' });
    const { temperature: _t, top_p: _p, seed: _s, ...bare } = BASE;
    const defaults = readAgentConfig(bare as unknown as JsonValue, 'c.json');
    expect([defaults.inference.temperature, defaults.inference.top_p, defaults.inference.seed]).toEqual(['1', '1', null]);
    const explicit = readAgentConfig({ ...bare, temperature: 1, top_p: '1.0', seed: null } as unknown as JsonValue, 'c.json');
    expect(explicit.inference_config_digest).toBe(defaults.inference_config_digest);
  });

  it('refuses bad values with the field named', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...BASE, temperature: '-0.7' }, /temperature: must be a non-negative decimal such as 0.7 or "0.7" \(got "-0.7"\)/],
      [{ ...BASE, temperature: '7e-1' }, /temperature: must be a non-negative decimal/],
      [{ ...BASE, temperature: true }, /temperature: must be a non-negative decimal/],
      [{ ...BASE, temperature: '2.5' }, /temperature: must be at most 2 \(got 2.5\)/],
      [{ ...BASE, top_p: 1.01 }, /top_p: must be at most 1 \(got 1.01\)/],
      [{ ...BASE, mode: 'planner' }, /planner_interval: is required/],
      [{ ...BASE, planner_interval: 3 }, /planner_interval: applies only/],
      [{ ...BASE, adapter_version: '0.9' }, /adapter_version/],
      [{ ...BASE, base_url: 'ftp://x' }, /base_url/],
      [{ ...BASE, base_url: 'http://user:pw@x/v1' }, /base_url/],
      [{ ...BASE, api_key_env: 'sk-123 456' }, /api_key_env/],
      [{ ...BASE, extra: 1 }, /unknown field "extra"/],
      [{ ...BASE, pricing: { input_per_million: '1', output_per_million: '-1', cost_unit: 'USD' } }, /pricing.output_per_million/],
    ];
    for (const [value, message] of bad) {
      expect(() => readAgentConfig(value as unknown as JsonValue, 'c.json')).toThrow(ValidationError);
      expect(() => readAgentConfig(value as unknown as JsonValue, 'c.json')).toThrow(message);
    }
  });
});

describe('prompt', () => {
  it('renders fire, exits and people', () => {
    const text = renderObservation(OBS, GRID);
    expect(text).toContain('step 2 of 30; evacuated 1; dead 0; active 2');
    expect(text).toContain('#.P......#\n#......PF#');
    expect(text).toContain('exits: X0 (0,5); X1 (3,0)');
    expect(text).toContain('people (id row,col): p0000 1,2; p0002 2,7');
    expect(exitIds(GRID).map((e) => e.id)).toEqual(['X0', 'X1']);
  });
});

describe('direct answers', () => {
  it('accepts exactly a legal action set', () => {
    expect(parseDirectAnswer(' {"p0000":"S","p0002":"STAY"}\n', OBS, GRID)).toEqual({ p0000: 'S', p0002: 'STAY' });
  });

  it('rejects everything else without repair', () => {
    expect(outputError(() => parseDirectAnswer('```json\n{"p0000":"S","p0002":"STAY"}\n```', OBS, GRID))).toMatch(/not strict JSON/);
    expect(outputError(() => parseDirectAnswer('Sure! {"p0000":"N"}', OBS, GRID))).toMatch(/not strict JSON/);
    expect(outputError(() => parseDirectAnswer('["N"]', OBS, GRID))).toMatch(/must be a JSON object/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"S"}', OBS, GRID))).toMatch(/missing p0002/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"n","p0002":"STAY"}', OBS, GRID))).toMatch(/not one of/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"S","p0002":"STAY","p0001":"N"}', OBS, GRID))).toMatch(/p0001.*not an active person/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"S","p0002":"S"}', OBS, GRID))).toMatch(/wall/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"S","p0002":"E"}', OBS, GRID))).toMatch(/burning/);
    expect(outputError(() => parseDirectAnswer('{"p0000":"N","p0000":"S","p0002":"STAY"}', OBS, GRID))).toMatch(/not strict JSON/);
  });
});

describe('planner answers', () => {
  it('covers every person by ID or "*"', () => {
    const targets = parsePlannerAnswer('{"targets":{"*":"X1","p0002":"X0"}}', OBS, 2);
    expect([...targets]).toEqual([
      ['p0000', 1],
      ['p0002', 0],
    ]);
  });

  it('rejects unknown exits, unknown people, gaps and extra keys', () => {
    expect(outputError(() => parsePlannerAnswer('{"targets":{"*":"X2"}}', OBS, 2))).toMatch(/not an exit ID/);
    expect(outputError(() => parsePlannerAnswer('{"targets":{"*":"X01"}}', OBS, 2))).toMatch(/not an exit ID/);
    expect(outputError(() => parsePlannerAnswer('{"targets":{"p0000":"X0"}}', OBS, 2))).toMatch(/no exit for p0002/);
    expect(outputError(() => parsePlannerAnswer('{"targets":{"*":"X0","p0009":"X0"}}', OBS, 2))).toMatch(/p0009/);
    expect(outputError(() => parsePlannerAnswer('{"targets":{"*":"X0"},"note":"hi"}', OBS, 2))).toMatch(/exactly one key/);
  });
});

describe('path follower', () => {
  it('walks each person down the fire-free distance to its exit', () => {
    const follower = new PathFollower(MAP);
    const step = follower.step(OBS, new Map([['p0000', 0], ['p0002', 1]]));
    // p0000 at (1,2) -> X0 at (0,5): first lowering move in N,E,S,W order is E.
    // p0002 at (2,7) -> X1 at (3,0) is walled off: unreachable, STAY.
    expect(step.actions).toEqual({ p0000: 'E', p0002: 'STAY' });
    expect(step.unreachable).toEqual(['p0002']);
  });
});

describe('cost', () => {
  it('is exact', () => {
    const pricing = { input_per_million: '0.15', output_per_million: '0.6', cost_unit: 'USD' };
    expect(costOf(pricing, 1234567, 7654321).toFraction()).toBe(Rational.parse('0.18518505').add(Rational.parse('4.5925926')).toFraction());
    expect(costOf(pricing, 0, 0).toFraction()).toBe('0/1');
  });

  it('writes milliseconds as exact seconds', () => {
    expect(millisecondsAsSeconds(0)).toBe('0');
    expect(millisecondsAsSeconds(12500)).toBe('12.5');
    expect(millisecondsAsSeconds(1001)).toBe('1.001');
  });
});

describe('trial records', () => {
  const record = (digest: string, extra: Record<string, unknown> = {}) =>
    ({
      cost: null,
      cost_unit: null,
      episodes: 1,
      inference_config_digest: digest,
      input_tokens: 0,
      latency_seconds: '0',
      model_id: 'm',
      operational_record_version: '1.0',
      output_tokens: 0,
      provider_id: 'p',
      retries: 0,
      timeouts: 0,
      trials: 1,
      ...extra,
    }) as unknown as OperationalRecord;
  const a = 'a'.repeat(64);
  const b = 'b'.repeat(64);

  it('refuses mixed configurations, other models and cached answers in official scores; warns below 3 stochastic trials', () => {
    const base = { trials: 2, modelId: 'm', official: false, stochastic: false };
    expect(checkTrialRecords({ ...base, records: [{ record: record(a), source: 'x' }, { record: record(a), source: 'y' }] })).toEqual([]);
    expect(() => checkTrialRecords({ ...base, records: [{ record: record(a), source: 'x' }, { record: record(b), source: 'y' }] })).toThrow(/y: inference configuration b+ differs/);
    expect(() => checkTrialRecords({ ...base, modelId: 'n', records: [{ record: record(a), source: 'x' }] })).toThrow(/for model "m"/);
    const cached = [{ record: record(a, { response_cache_hits: 4 }), source: 'x' }];
    expect(checkTrialRecords({ ...base, records: cached })).toEqual([]);
    expect(() => checkTrialRecords({ ...base, official: true, records: cached })).toThrow(/response cache/);
    expect(checkTrialRecords({ ...base, stochastic: true, records: [] })[0]).toMatch(/at least 3 trials.*has 2/);
    expect(checkTrialRecords({ ...base, trials: 3, stochastic: true, records: [] })).toEqual([]);
  });
});
