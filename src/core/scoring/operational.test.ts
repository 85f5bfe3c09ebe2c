import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { canonicalJson, type JsonObject } from '../json/canonical.js';
import { Rational } from '../stats/rational.js';
import {
  buildOperationalRecord,
  costPerEpisode,
  efficiencyView,
  efficiencyViewOfRecord,
  inferenceConfigDigest,
  operationalRecordDigest,
  operationalRecordText,
  parseOperationalRecordText,
  type OperationalRecordInput,
} from './operational.js';

const SETTINGS = { adapter_version: '1.0', max_tokens: 512, seed: null, system_prompt_version: '3', temperature: '0', top_p: '1' };

const INPUT: OperationalRecordInput = {
  modelId: 'provider/model-2025-01-01',
  providerId: 'example-provider',
  inferenceConfigDigest: inferenceConfigDigest(SETTINGS),
  trials: 3,
  episodes: 90,
  latencySeconds: '1234.5',
  inputTokens: 1_000_000,
  outputTokens: 20_000,
  cost: { amount: Rational.parse('27/2'), unit: 'USD' },
  retries: 2,
  timeouts: 1,
};

function recordValue(overrides: Record<string, unknown> = {}): string {
  const base = JSON.parse(operationalRecordText(buildOperationalRecord(INPUT))) as JsonObject;
  return canonicalJson({ ...base, ...(overrides as JsonObject) }) + '\n';
}

describe('operational record', () => {
  it('round-trips: canonical text, its own digest, input and output tokens kept separate', () => {
    const record = buildOperationalRecord(INPUT);
    const text = operationalRecordText(record);
    expect(parseOperationalRecordText(text, 'op.json')).toEqual(record);
    expect(record.input_tokens).toBe(1_000_000);
    expect(record.output_tokens).toBe(20_000);
    expect(record.cost).toBe('27/2');
    expect(operationalRecordDigest(record)).toMatch(/^[0-9a-f]{64}$/);
    const other = buildOperationalRecord({ ...INPUT, retries: 3 });
    expect(operationalRecordDigest(other)).not.toBe(operationalRecordDigest(record));
  });

  it('digests the inference settings as SHA-256 of their canonical JSON (vector from Python)', () => {
    // hashlib.sha256(json.dumps(SETTINGS, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    expect(inferenceConfigDigest(SETTINGS)).toBe('36cfc54fdc668365f3ad4bc1e2960cf72eadeee4a606114911a0ba0ca441bbc0');
  });

  it('accepts an unknown cost (both null)', () => {
    const record = buildOperationalRecord({ ...INPUT, cost: null });
    expect(record.cost).toBeNull();
    expect(record.cost_unit).toBeNull();
    expect(costPerEpisode(record)).toBeNull();
  });

  const rejections: [string, Record<string, unknown>, RegExp][] = [
    ['an empty model ID', { model_id: '' }, /model_id: must not be empty/],
    ['an empty provider ID', { provider_id: '' }, /provider_id: must not be empty/],
    ['a model ID with outer whitespace', { model_id: ' m' }, /model_id: must not start or end with whitespace/],
    ['a short digest', { inference_config_digest: 'abc' }, /inference_config_digest: must match/],
    ['an uppercase digest', { inference_config_digest: 'A'.repeat(64) }, /inference_config_digest: must match/],
    ['negative tokens', { input_tokens: -1 }, /input_tokens: must be between 0/],
    ['negative retries', { retries: -2 }, /retries: must be between 0/],
    ['negative timeouts', { timeouts: -1 }, /timeouts: must be between 0/],
    ['zero trials', { trials: 0 }, /trials: must be between 1/],
    ['a negative latency', { latency_seconds: '-1' }, /latency_seconds: must be an exact non-negative decimal/],
    ['a non-canonical latency', { latency_seconds: '1.50' }, /latency_seconds/],
    ['a latency in exponent form', { latency_seconds: '1e3' }, /latency_seconds/],
    ['a numeric latency', { latency_seconds: 12 }, /latency_seconds: must be a string/],
    ['a cost without a unit', { cost_unit: null }, /cost and cost_unit are both null/],
    ['a unit without a cost', { cost: null }, /cost and cost_unit are both null/],
    ['a negative cost', { cost: '-1/2' }, /cost: must be an exact non-negative fraction/],
    ['a cost not in lowest terms', { cost: '2/4' }, /cost: must be in lowest terms/],
    ['a decimal cost', { cost: '13.5' }, /cost: must be an exact non-negative fraction/],
    ['an empty cost unit', { cost_unit: '' }, /cost_unit: must not be empty/],
    ['an unknown field', { score: 1 }, /unknown field "score"/],
    ['another format version', { operational_record_version: '2.0' }, /operational_record_version/],
    ['an unknown isolation level', { isolation: 'container' }, /isolation: must be one of/],
    ['a null isolation level', { isolation: null }, /isolation/],
    ['an unknown limit mechanism', { limit_mechanisms: { cpu: 'ulimit', memory: 'watchdog', processes: 'rlimit' } }, /limit_mechanisms\.cpu: must be one of/],
    ['a limit mechanism missing', { limit_mechanisms: { cpu: 'watchdog', memory: 'watchdog' } }, /limit_mechanisms/],
  ];
  for (const [name, overrides, message] of rejections) {
    it(`rejects ${name} (exit 3)`, () => {
      const text = recordValue(overrides);
      expect(() => parseOperationalRecordText(text, 'op.json')).toThrow(ValidationError);
      expect(() => parseOperationalRecordText(text, 'op.json')).toThrow(message);
    });
  }

  it('rejects a non-canonical file and a float', () => {
    const text = recordValue();
    expect(() => parseOperationalRecordText(text.slice(0, -1), 'op.json')).toThrow(/not canonical/);
    expect(() => parseOperationalRecordText(JSON.stringify(JSON.parse(text), null, 2) + '\n', 'op.json')).toThrow(/not canonical/);
    expect(() => parseOperationalRecordText(text.replace('"retries":2', '"retries":2.5'), 'op.json')).toThrow(ValidationError);
  });

  it('states the isolation level only when given, so records without it keep their bytes', () => {
    const without = buildOperationalRecord(INPUT);
    expect('isolation' in without).toBe(false);
    expect(operationalRecordText(without)).not.toContain('isolation');
    for (const isolation of ['sandboxed', 'none', 'in_process'] as const) {
      const record = buildOperationalRecord({ ...INPUT, isolation });
      const text = operationalRecordText(record);
      expect(text).toContain(`"isolation":"${isolation}"`);
      expect(parseOperationalRecordText(text, 'op.json').isolation).toBe(isolation);
      expect(operationalRecordDigest(record)).not.toBe(operationalRecordDigest(without));
    }
  });

  it('names what held each cap only when given, so records without it keep their bytes', () => {
    const without = buildOperationalRecord({ ...INPUT, isolation: 'sandboxed' });
    expect(operationalRecordText(without)).not.toContain('limit_mechanisms');
    const limitMechanisms = { cpu: 'watchdog', memory: 'cgroup_v2', processes: 'rlimit' } as const;
    const record = buildOperationalRecord({ ...INPUT, isolation: 'sandboxed', limitMechanisms });
    const text = operationalRecordText(record);
    expect(text).toContain('"limit_mechanisms":{"cpu":"watchdog","memory":"cgroup_v2","processes":"rlimit"}');
    expect(parseOperationalRecordText(text, 'op.json').limit_mechanisms).toEqual(limitMechanisms);
  });

  it('buildOperationalRecord validates too', () => {
    expect(() => buildOperationalRecord({ ...INPUT, modelId: '' })).toThrow(/model_id: must not be empty/);
    expect(() => buildOperationalRecord({ ...INPUT, retries: 0.5 })).toThrow(/retries: must be an integer/);
    expect(() => buildOperationalRecord({ ...INPUT, cost: { amount: Rational.parse('-1'), unit: 'USD' } })).toThrow(/cost: must not be negative/);
  });
});

describe('EMBER-Efficiency view', () => {
  const report = { model_id: INPUT.modelId, score: '362/5' }; // 72.4 points

  it('gives points per unit of evaluator-measured cost, exactly, without touching the report', () => {
    const record = buildOperationalRecord(INPUT);
    const perEpisode = costPerEpisode(record)!;
    expect(perEpisode.toFraction()).toBe('3/20'); // 27/2 over 90 episode runs
    const before = JSON.stringify(report);
    const v = efficiencyView(report, perEpisode, record.cost_unit!);
    expect(v).toEqual({ model_id: INPUT.modelId, ember_score: '362/5', cost_per_episode: '3/20', cost_unit: 'USD', points_per_unit: '1448/3' });
    expect(efficiencyViewOfRecord(report, record)).toEqual(v);
    expect(JSON.stringify(report)).toBe(before);
  });

  it('has no finite ratio at zero cost', () => {
    expect(efficiencyView(report, Rational.ZERO, 'USD').points_per_unit).toBeNull();
  });

  it('rejects a negative cost, an empty unit, a report without a score, another model or a record without a cost', () => {
    expect(() => efficiencyView(report, Rational.parse('-1'), 'USD')).toThrow(ValidationError);
    expect(() => efficiencyView(report, Rational.ONE, '')).toThrow(/cost unit must not be empty/);
    expect(() => efficiencyView({ ...report, score: null }, Rational.ONE, 'USD')).toThrow(/no EMBER Score/);
    expect(() => efficiencyViewOfRecord({ ...report, model_id: 'other' }, buildOperationalRecord(INPUT))).toThrow(/operational record is for model/);
    expect(() => efficiencyViewOfRecord(report, buildOperationalRecord({ ...INPUT, cost: null }))).toThrow(/has no cost/);
  });
});
