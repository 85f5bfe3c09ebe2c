/**
 * The agent configuration of `builtin:openai-chat` (the `--agent-config`
 * file) and its inference configuration.
 *
 * The file is strict JSON with exactly these keys (optional ones may be
 * left out):
 *
 *   base_url               "http://127.0.0.1:8000/v1" (http or https; the
 *                          adapter POSTs to base_url + "/chat/completions")
 *   model                  the model name the endpoint serves
 *   provider_id            optional; default: the host of base_url
 *   api_key_env            the NAME of the environment variable holding the
 *                          API key, or null (no Authorization header). The
 *                          key itself never appears in any file.
 *   temperature, top_p    optional, default 1: decimals as JSON numbers or
 *                          strings (0.7, "0.70"); kept exact, in one spelling
 *                          ("0.7"), never as floats
 *   max_tokens             integer >= 1
 *   seed                   optional, default null: integer >= 0 or null
 *   system_prompt_version  "1.0" (the prompt texts of prompt.ts)
 *   adapter_version        must equal ADAPTER_VERSION (pins the adapter code)
 *   mode                   "direct" | "planner"
 *   planner_interval       integer >= 1 with mode "planner"; absent or null with "direct"
 *   request_timeout_ms     optional, default 60000: the deadline of one HTTP attempt
 *   max_retries            optional, default 4: retries after 429, 5xx, a
 *                          timeout or a dropped connection
 *   retry_base_ms          optional, default 500: backoff before retry n is
 *                          retry_base_ms * 2^(n-1)
 *   pricing                optional or null: {input_per_million,
 *                          output_per_million (decimals, as temperature), cost_unit}
 *
 * The inference configuration is every setting that can change an answer:
 * model, mode, planner_interval, temperature, top_p, max_tokens, seed,
 * system_prompt_version, adapter_version, with the defaults filled in. Its digest (SHA-256 of its
 * canonical JSON) pins a set of trials. Where the endpoint lives, the key,
 * the call policy and the prices are not part of it.
 */

import type { JsonObject, JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { decimalTextOfNumber, normalDecimalText } from '../json/decimal-text.js';
import { modelIdProblem } from '../eval/model-id.js';
import { inferenceConfigDigest } from '../scoring/operational.js';

/** The adapter's version: changes whenever prompts, parsing or the path follower change behaviour. */
export const ADAPTER_VERSION = '1.0';
/** System prompt versions this adapter can render. */
export const SYSTEM_PROMPT_VERSIONS = ['1.0'] as const;
export type SystemPromptVersion = (typeof SYSTEM_PROMPT_VERSIONS)[number];
export type AdapterMode = 'direct' | 'planner';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_RETRY_BASE_MS = 500;
/** The OpenAI API's own defaults, so a file without them asks for what the endpoint would do anyway. */
export const DEFAULT_TEMPERATURE = '1';
export const DEFAULT_TOP_P = '1';

export interface Pricing {
  /** Exact decimal price per million input tokens. */
  readonly input_per_million: string;
  readonly output_per_million: string;
  readonly cost_unit: string;
}

/** The settings that can change an answer; hashed into the inference configuration digest. */
export interface InferenceSettings {
  readonly adapter_version: string;
  readonly max_tokens: number;
  readonly mode: AdapterMode;
  readonly model: string;
  readonly planner_interval: number | null;
  readonly seed: number | null;
  readonly system_prompt_version: SystemPromptVersion;
  readonly temperature: string;
  readonly top_p: string;
}

export interface AgentConfig {
  readonly base_url: string;
  readonly provider_id: string;
  readonly api_key_env: string | null;
  readonly request_timeout_ms: number;
  readonly max_retries: number;
  readonly retry_base_ms: number;
  readonly pricing: Pricing | null;
  readonly inference: InferenceSettings;
  /** SHA-256 of the canonical JSON of `inference`. */
  readonly inference_config_digest: string;
}

const REQUIRED = ['base_url', 'model', 'api_key_env', 'max_tokens', 'system_prompt_version', 'adapter_version', 'mode'];
const OPTIONAL = ['provider_id', 'temperature', 'top_p', 'seed', 'planner_interval', 'request_timeout_ms', 'max_retries', 'retry_base_ms', 'pricing'];
/** A POSIX-style environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A non-negative decimal written as a JSON number (0.7; the file parser keeps
 * its exact text) or a string ("0.60"), in its one spelling ("0.6").
 */
function decimal(r: FieldReader, value: JsonValue | undefined, path: string, max?: number): string {
  const text = typeof value === 'number' ? decimalTextOfNumber(value) : typeof value === 'string' ? normalDecimalText(value) : undefined;
  if (text === undefined || text.startsWith('-')) {
    r.fail(path, `must be a non-negative decimal such as 0.7 or "0.7" (got ${JSON.stringify(value ?? null)})`);
  }
  // Comparing the integer part is exact: max is a small integer and the text has no sign or exponent.
  if (max !== undefined && (Number(text.split('.')[0]) > max || (Number(text.split('.')[0]) === max && text.includes('.')))) r.fail(path, `must be at most ${max} (got ${text})`);
  return text;
}

function id(r: FieldReader, value: JsonValue | undefined, path: string): string {
  const text = r.string(value, path);
  const problem = modelIdProblem(text);
  if (problem !== null) r.fail(path, problem);
  return text;
}

/** The host[:port] of an http(s) URL, or a ValidationError. Parsed by hand: core has no URL global in its lib. */
function urlHost(r: FieldReader, url: string): string {
  const m = /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?(\/[\x21-\x7e]*)?$/.exec(url);
  if (m === null) r.fail('base_url', 'must be an http:// or https:// URL without credentials, query or spaces');
  if (url.includes('?') || url.includes('#') || url.includes('@')) r.fail('base_url', 'must not hold credentials, a query or a fragment');
  return m[1]! + (m[2] ?? '');
}

function pricing(r: FieldReader, value: JsonValue | undefined): Pricing | null {
  if (value === undefined || value === null) return null;
  const obj = r.object(value, 'pricing', ['input_per_million', 'output_per_million', 'cost_unit']);
  return {
    input_per_million: decimal(r, obj['input_per_million'], 'pricing.input_per_million'),
    output_per_million: decimal(r, obj['output_per_million'], 'pricing.output_per_million'),
    cost_unit: id(r, obj['cost_unit'], 'pricing.cost_unit'),
  };
}

/** Validates an agent configuration value (ValidationError naming the field, exit 3). */
export function readAgentConfig(value: JsonValue, source: string): AgentConfig {
  const r = new FieldReader(source);
  const obj: JsonObject = r.object(value, '$', REQUIRED, OPTIONAL);
  const baseUrl = r.string(obj['base_url'], 'base_url');
  const host = urlHost(r, baseUrl);
  const model = id(r, obj['model'], 'model');
  const apiKeyEnv = obj['api_key_env'] === null ? null : r.string(obj['api_key_env'], 'api_key_env', ENV_NAME);
  const mode = r.literal(obj['mode'], 'mode', ['direct', 'planner'] as const);
  const interval = obj['planner_interval'];
  let plannerInterval: number | null = null;
  if (mode === 'planner') {
    if (interval === undefined || interval === null) r.fail('planner_interval', 'is required with mode "planner"');
    plannerInterval = r.integer(interval, 'planner_interval', 1, 1_000_000);
  } else if (interval !== undefined && interval !== null) {
    r.fail('planner_interval', 'applies only to mode "planner" (leave it out or null)');
  }
  const adapterVersion = r.string(obj['adapter_version'], 'adapter_version');
  if (adapterVersion !== ADAPTER_VERSION) r.fail('adapter_version', `this build is adapter version ${ADAPTER_VERSION}, the file pins ${JSON.stringify(adapterVersion)}`);
  const inference: InferenceSettings = {
    adapter_version: adapterVersion,
    max_tokens: r.integer(obj['max_tokens'], 'max_tokens', 1, 10_000_000),
    mode,
    model,
    planner_interval: plannerInterval,
    seed: obj['seed'] === undefined ? null : r.nullable(obj['seed'], 'seed', (v, p) => r.integer(v, p, 0)),
    system_prompt_version: r.literal(obj['system_prompt_version'], 'system_prompt_version', SYSTEM_PROMPT_VERSIONS),
    temperature: obj['temperature'] === undefined ? DEFAULT_TEMPERATURE : decimal(r, obj['temperature'], 'temperature', 2),
    top_p: obj['top_p'] === undefined ? DEFAULT_TOP_P : decimal(r, obj['top_p'], 'top_p', 1),
  };
  const optionalInt = (key: string, fallback: number, min: number, max: number): number =>
    obj[key] === undefined ? fallback : r.integer(obj[key], key, min, max);
  return {
    base_url: baseUrl.replace(/\/+$/, ''),
    provider_id: obj['provider_id'] === undefined ? host : id(r, obj['provider_id'], 'provider_id'),
    api_key_env: apiKeyEnv,
    request_timeout_ms: optionalInt('request_timeout_ms', DEFAULT_REQUEST_TIMEOUT_MS, 1, 3_600_000),
    max_retries: optionalInt('max_retries', DEFAULT_MAX_RETRIES, 0, 100),
    retry_base_ms: optionalInt('retry_base_ms', DEFAULT_RETRY_BASE_MS, 0, 600_000),
    pricing: pricing(r, obj['pricing']),
    inference,
    inference_config_digest: inferenceConfigDigest(inference),
  };
}
