/**
 * The language-model agent's settings as form fields (base URL, model, the
 * API key's variable name, sampling, mode, pricing). They edit the adapter
 * configuration JSON of the agent draft key by key, so the JSON stays the
 * one source of truth (an --agent-config file's content, docs/llm.md) and
 * settings without a field here (request_timeout_ms, max_retries...) are
 * kept. Values the services will refuse are passed on as typed, so the
 * error comes back naming this field (`agent.config.<key>`).
 */

import type { ApiError } from '../../../shared/api/result.js';
import { Field } from '../../components/Field.js';
import { parseConfig, withSetting, type Config } from './llm-config-edit.js';

/** An integer field's value: the number when it is one, null when empty (for nullable keys), else the text as typed. */
function integerOf(text: string, nullable: boolean): unknown {
  const t = text.trim();
  if (t === '') return nullable ? null : t;
  return /^-?[0-9]+$/.test(t) ? Number(t) : t;
}

function textOf(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The pricing table with one of its parts changed; removed when all three are empty. */
function withPrice(config: Config, part: 'input_per_million' | 'output_per_million' | 'cost_unit', text: string): string {
  const old = typeof config['pricing'] === 'object' && config['pricing'] !== null ? (config['pricing'] as Config) : {};
  const pricing: Config = { input_per_million: textOf(old['input_per_million']), output_per_million: textOf(old['output_per_million']), cost_unit: textOf(old['cost_unit']), [part]: text.trim() };
  const empty = Object.values(pricing).every((v) => v === '');
  return withSetting(config, 'pricing', empty ? undefined : pricing);
}

export function LlmFields({ text, onText, error }: { text: string; onText: (text: string) => void; error: ApiError | null }) {
  const config = parseConfig(text);
  if (config === null) return <p className="hint bad-text">The configuration below is not a JSON object: correct it to edit the settings here.</p>;
  const pricing = typeof config['pricing'] === 'object' && config['pricing'] !== null ? (config['pricing'] as Config) : {};
  const set = (key: string, value: unknown) => onText(withSetting(config, key, value));
  const planner = config['mode'] === 'planner';
  const f = (key: string) => `agent.config.${key}`;
  return (
    <div className="llm-fields">
      <div className="form-grid">
        <Field label="Base URL" field={f('base_url')} error={error} hint="The OpenAI-compatible endpoint, up to /v1 (vLLM, llama.cpp, Ollama, LM Studio, a hosted API).">
          {(p) => <input {...p} value={textOf(config['base_url'])} onChange={(e) => set('base_url', e.target.value.trim())} spellCheck={false} />}
        </Field>
        <Field label="Model" field={f('model')} error={error} hint="The model name the endpoint serves.">
          {(p) => <input {...p} value={textOf(config['model'])} onChange={(e) => set('model', e.target.value.trim())} spellCheck={false} />}
        </Field>
      </div>
      <div className="form-grid three">
        <Field label="API key variable" field={f('api_key_env')} error={error} hint="The NAME of an environment variable of the workbench's process; empty: no key. The key itself is never stored.">
          {(p) => <input {...p} value={textOf(config['api_key_env'])} onChange={(e) => set('api_key_env', e.target.value.trim() === '' ? null : e.target.value.trim())} placeholder="OPENAI_API_KEY" spellCheck={false} />}
        </Field>
        <Field label="Temperature" field={f('temperature')} error={error} hint="An exact decimal, 0 to 2.">
          {(p) => <input {...p} value={textOf(config['temperature'])} onChange={(e) => set('temperature', e.target.value.trim())} inputMode="decimal" />}
        </Field>
        <Field label="Top-p" field={f('top_p')} error={error} hint="An exact decimal, 0 to 1.">
          {(p) => <input {...p} value={textOf(config['top_p'])} onChange={(e) => set('top_p', e.target.value.trim())} inputMode="decimal" />}
        </Field>
        <Field label="Max tokens" field={f('max_tokens')} error={error} hint="The longest answer, in tokens.">
          {(p) => <input {...p} value={textOf(config['max_tokens'])} onChange={(e) => set('max_tokens', integerOf(e.target.value, false))} inputMode="numeric" />}
        </Field>
        <Field label="Seed" field={f('seed')} error={error} hint="Sent to the endpoint; empty: none.">
          {(p) => <input {...p} value={textOf(config['seed'])} onChange={(e) => set('seed', integerOf(e.target.value, true))} inputMode="numeric" />}
        </Field>
        <Field label="Mode" field={f('mode')} error={error} hint={planner ? 'The model sets a target exit per person every k steps; a path follower moves them.' : 'The model moves every person each step (small crowds).'}>
          {(p) => (
            <select
              {...p}
              value={planner ? 'planner' : 'direct'}
              onChange={(e) => {
                const next: Config = { ...config, mode: e.target.value };
                if (e.target.value === 'planner') next['planner_interval'] = typeof config['planner_interval'] === 'number' ? config['planner_interval'] : 5;
                else delete next['planner_interval'];
                onText(JSON.stringify(next, null, 2));
              }}
            >
              <option value="direct">direct</option>
              <option value="planner">planner</option>
            </select>
          )}
        </Field>
        {planner && (
          <Field label="Planner interval (steps)" field={f('planner_interval')} error={error} hint="The model is asked again every k steps.">
            {(p) => <input {...p} value={textOf(config['planner_interval'])} onChange={(e) => set('planner_interval', integerOf(e.target.value, false))} inputMode="numeric" />}
          </Field>
        )}
      </div>
      <div className="form-grid three">
        <Field label="Input price per million tokens" field={f('pricing.input_per_million')} error={error} hint="An exact decimal; empty pricing: no cost is computed.">
          {(p) => <input {...p} value={textOf(pricing['input_per_million'])} onChange={(e) => onText(withPrice(config, 'input_per_million', e.target.value))} inputMode="decimal" />}
        </Field>
        <Field label="Output price per million tokens" field={f('pricing.output_per_million')} error={error}>
          {(p) => <input {...p} value={textOf(pricing['output_per_million'])} onChange={(e) => onText(withPrice(config, 'output_per_million', e.target.value))} inputMode="decimal" />}
        </Field>
        <Field label="Cost unit" field={f('pricing.cost_unit')} error={error} hint="USD, EUR, credits…">
          {(p) => <input {...p} value={textOf(pricing['cost_unit'])} onChange={(e) => onText(withPrice(config, 'cost_unit', e.target.value))} spellCheck={false} />}
        </Field>
      </div>
    </div>
  );
}
