import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../core/errors.js';
import { parseTranscriptText, summaryOf, transcriptText, TRANSCRIPT_VERSION, type Transcript } from './transcript.js';

const TRANSCRIPT: Transcript = {
  header: {
    type: 'episode',
    transcript_version: TRANSCRIPT_VERSION,
    episode: 4,
    provider_id: 'example.test',
    inference_config_digest: 'a'.repeat(64),
    inference: {
      adapter_version: '1.0',
      max_tokens: 512,
      mode: 'direct',
      model: 'm1',
      planner_interval: null,
      seed: null,
      system_prompt_version: '1.0',
      temperature: '0',
      top_p: '1',
    },
    system_prompt: 'Direct the crowd.',
  },
  calls: [
    { type: 'call', step: 0, prompt: 'p0', answer: '{}', status: 'ok', error: null, attempts: 1, retries: 0, timeouts: 0, latency_ms: 12, input_tokens: 10, output_tokens: 2, cached: false },
    { type: 'call', step: 1, prompt: 'p1', answer: null, status: 'timeout', error: 'took too long', attempts: 3, retries: 2, timeouts: 3, latency_ms: 900, input_tokens: null, output_tokens: null, cached: false },
  ],
  summary: summaryOf({ calls: 2, inputTokens: 10, outputTokens: 2, retries: 2, timeouts: 3, latencyMs: 912, cacheHits: 0, unmetered: 1 }, 'timeout'),
};

describe('transcript files', () => {
  it('read back exactly what was written, every line checked', () => {
    const text = transcriptText(TRANSCRIPT);
    const read = parseTranscriptText(text, 'episode-4.jsonl');
    expect(read).toEqual(TRANSCRIPT);
    expect(transcriptText({ ...read, header: { ...read.header, inference: TRANSCRIPT.header.inference } })).toBe(text);
  });

  it('refuse a call line of the wrong shape, naming the line and the field', () => {
    const lines = transcriptText(TRANSCRIPT).split('\n');
    const tamper = (line: number, change: (value: Record<string, unknown>) => void): string => {
      const value = JSON.parse(lines[line]!) as Record<string, unknown>;
      change(value);
      return lines.map((l, k) => (k === line ? JSON.stringify(value) : l)).join('\n');
    };
    const cases: [string, RegExp][] = [
      [tamper(1, (v) => (v['status'] = 'fine')), /line 2\.status: must be one of/],
      [tamper(2, (v) => (v['input_tokens'] = 'ten')), /line 3\.input_tokens: must be an integer/],
      [tamper(1, (v) => (v['cached'] = 0)), /line 2\.cached: must be true or false/],
      [tamper(3, (v) => (v['type'] = 'call')), /line 4\.type: must be one of "summary"/],
      [tamper(0, (v) => (v['inference'] = 'direct')), /line 1\.inference: must be an object/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseTranscriptText(text, 'episode-4.jsonl')).toThrow(ValidationError);
      expect(() => parseTranscriptText(text, 'episode-4.jsonl')).toThrow(message);
    }
  });
});
