import { describe, expect, it } from 'vitest';
import { isEmberError } from '../../core/errors.js';
import { Rational } from '../../core/stats/rational.js';
import { decimalOf, llmConfigOf, type LlmChoice } from './llm-runs.js';

const BASE = {
  base_url: 'http://127.0.0.1:8000/v1',
  model: 'm',
  api_key_env: null,
  temperature: '0',
  top_p: '1',
  max_tokens: 64,
  seed: 0,
  system_prompt_version: '1.0',
  adapter_version: '1.0',
  mode: 'direct',
};

function choice(config: Record<string, unknown>): LlmChoice {
  return { kind: 'openai-chat', config, maxConnections: 2 };
}

function errorOf(config: Record<string, unknown>): { kind: string; field: string | undefined; message: string } {
  try {
    llmConfigOf(choice(config));
  } catch (error) {
    if (isEmberError(error)) return { kind: error.kind, field: error.field, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('llmConfigOf', () => {
  it('accepts a valid configuration and computes its inference digest', () => {
    const config = llmConfigOf(choice(BASE));
    expect(config.inference.model).toBe('m');
    expect(config.inference_config_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names agent.config.<field> in every refusal', () => {
    const { model: _m, ...noModel } = BASE;
    expect(errorOf(noModel)).toMatchObject({ kind: 'validation', field: 'agent.config.model', message: 'agent.config.model: missing field "model"' });
    expect(errorOf({ ...BASE, extra: 1 })).toMatchObject({ field: 'agent.config.extra' });
    expect(errorOf({ ...BASE, top_p: '1.50' })).toMatchObject({ field: 'agent.config.top_p' });
    expect(errorOf({ ...BASE, mode: 'planner' })).toMatchObject({ field: 'agent.config.planner_interval' });
    expect(errorOf({ ...BASE, pricing: { input_per_million: '1', output_per_million: '2' } })).toMatchObject({ field: 'agent.config.pricing' });
    expect(errorOf({ ...BASE, base_url: 'ftp://x' })).toMatchObject({ field: 'agent.config.base_url' });
  });

  it('refuses an API key variable that the services process does not have, without showing any value', () => {
    const name = 'EMBER_LLM_RUNS_TEST_UNSET';
    delete process.env[name];
    expect(errorOf({ ...BASE, api_key_env: name })).toMatchObject({ kind: 'usage', field: 'agent.config.api_key_env' });
  });
});

describe('decimalOf', () => {
  it('writes exact terminating costs as decimals', () => {
    expect(decimalOf(Rational.parse('2709/100000'))).toBe('0.02709');
    expect(decimalOf(Rational.of(0n))).toBe('0');
    expect(decimalOf(Rational.of(12n))).toBe('12');
    expect(decimalOf(Rational.parse('1/8'))).toBe('0.125');
    expect(decimalOf(Rational.parse('1/3'))).toBe('1/3');
  });
});
