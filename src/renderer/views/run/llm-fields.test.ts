import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../../../shared/api/contract.js';
import { drivingCall } from '../../components/transcript-steps.js';
import { parseConfig, withSetting } from './llm-config-edit.js';

describe('the language-model fields', () => {
  it('edit the configuration JSON key by key, keeping the keys without a field', () => {
    const text = JSON.stringify({ model: 'a', max_retries: 2 });
    const config = parseConfig(text)!;
    expect(JSON.parse(withSetting(config, 'model', 'b'))).toEqual({ model: 'b', max_retries: 2 });
    expect(JSON.parse(withSetting(config, 'max_retries', undefined))).toEqual({ model: 'a' });
    expect(parseConfig('[1]')).toBeNull();
    expect(parseConfig('{"a":')).toBeNull();
  });
});

describe('the transcript panel', () => {
  const line = (step: number): TranscriptLine => ({ step, prompt: '', answer: null, outcome: 'ok', latencyMs: 1, inputTokens: 1, outputTokens: 1, attempts: 1, retries: 0 });
  it('marks the call whose answer drove the shown step (planner plans hold until the next call)', () => {
    const lines = [line(0), line(4), line(8)];
    expect(drivingCall(lines, 0)).toBe(0);
    expect(drivingCall(lines, 3)).toBe(0);
    expect(drivingCall(lines, 4)).toBe(1);
    expect(drivingCall(lines, 100)).toBe(2);
    expect(drivingCall([line(2)], 1)).toBe(-1);
    expect(drivingCall([], 5)).toBe(-1);
  });
});
