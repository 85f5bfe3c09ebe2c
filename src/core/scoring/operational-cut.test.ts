import { describe, expect, it } from 'vitest';
import { costText } from '../llm/cost.js';
import { Rational } from '../stats/rational.js';
import { buildOperationalRecord, operationalRecordText, parseOperationalRecordText, type OperationalRecordInput } from './operational.js';

const BASE: OperationalRecordInput = {
  modelId: 'm',
  providerId: 'p',
  inferenceConfigDigest: 'a'.repeat(64),
  trials: 1,
  episodes: 3,
  latencySeconds: '1.5',
  inputTokens: 100,
  outputTokens: 10,
  cost: { amount: Rational.parse('0.000026'), unit: 'USD' },
  retries: 0,
  timeouts: 0,
};

describe('the operational record cut field', () => {
  it('is absent without cut runs, so such records keep their bytes', () => {
    expect(operationalRecordText(buildOperationalRecord(BASE))).not.toContain('cut');
  });

  it('round-trips the spend of cut runs, apart from the trial counts', () => {
    const record = buildOperationalRecord({ ...BASE, cut: { episodes: 2, calls: 5, inputTokens: 40, outputTokens: 4, cost: Rational.parse('0.0000112') } });
    const text = operationalRecordText(record);
    expect(text).toContain('"cut":{"calls":5,"cost":"7/625000","episodes":2,"input_tokens":40,"output_tokens":4}');
    expect(parseOperationalRecordText(text, 'r')).toEqual(record);
    expect(record.input_tokens).toBe(100);
  });

  it('refuses a cut cost when the record cost is unknown, and zero cut episodes', () => {
    const unknown = operationalRecordText(buildOperationalRecord({ ...BASE, cost: null }));
    const withCut = unknown.replace('"episodes":3', '"cut":{"calls":1,"cost":"1/2","episodes":1,"input_tokens":1,"output_tokens":1},"episodes":3');
    expect(() => parseOperationalRecordText(withCut, 'r')).toThrow(/cut\.cost: must be null when the record's cost is/);
    const zero = operationalRecordText(buildOperationalRecord({ ...BASE, cut: { episodes: 1, calls: 0, inputTokens: 0, outputTokens: 0, cost: Rational.of(0n) } })).replace('"episodes":1,"input', '"episodes":0,"input');
    expect(() => parseOperationalRecordText(zero, 'r')).toThrow(/cut\.episodes/);
  });
});

describe('costText, the one way a cost is shown', () => {
  it('gives the exact decimal, never rounded', () => {
    expect(costText(Rational.parse('0.12029145'))).toBe('0.12029145');
    expect(costText(Rational.parse('12029145/100000000'))).toBe('0.12029145');
    expect(costText(Rational.of(3n))).toBe('3');
    expect(costText(Rational.of(0n))).toBe('0');
    expect(costText(Rational.parse('1/3'))).toBe('1/3');
  });
});
