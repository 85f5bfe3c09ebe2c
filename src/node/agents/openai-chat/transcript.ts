/**
 * Episode transcripts of `builtin:openai-chat`: one JSON Lines file per
 * episode (transcript_version 1.0), each line one canonical JSON object.
 *
 *   {"type":"episode", ...}  first line: transcript_version, episode (the
 *                            manifest index, or null for `episode run`),
 *                            model_id... (see TranscriptHeader)
 *   {"type":"call", ...}     one per model call, in call order: the step the
 *                            answer drove (direct: that step; planner: the
 *                            plan holds from that step until the next call),
 *                            the user prompt, the raw answer (null when the
 *                            call failed), status ok | invalid_output |
 *                            model_error | timeout, the error message,
 *                            attempts, retries, timeouts, latency_ms, tokens,
 *                            cached
 *   {"type":"summary", ...}  last line: the usage totals and the outcome
 *
 * The file is written once, atomically, when the episode ends (also when it
 * fails), so a transcript on disk is always whole. An episode only runs
 * again when its earlier run was cut (a cancel, Ctrl+C, a crash, a stop at
 * a refused key) and never committed: the cut run's transcript is then moved
 * to `cut/episode-<index>.run-<n>.jsonl` first, so its calls and tokens are
 * kept and counted apart in the operational record (`cut`). It never holds the API
 * key: every text that came from the endpoint is scrubbed of it.
 */

import { link, mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { ValidationError, type FailureKind } from '../../../core/errors.js';
import { canonicalJson, type JsonObject, type JsonValue } from '../../../core/json/canonical.js';
import { FieldReader } from '../../../core/json/fields.js';
import { parseJsonInput } from '../../../core/json/strict-parse.js';
import type { UsageTotals } from '../../../core/llm/cost.js';
import type { InferenceSettings } from '../../../core/llm/config.js';

export const TRANSCRIPT_VERSION = '1.0';

export interface TranscriptHeader {
  readonly type: 'episode';
  readonly transcript_version: string;
  readonly episode: number | null;
  readonly provider_id: string;
  readonly inference_config_digest: string;
  readonly inference: InferenceSettings;
  readonly system_prompt: string;
}

export type CallStatus = 'ok' | 'invalid_output' | FailureKind;

export interface TranscriptCall {
  readonly type: 'call';
  readonly step: number;
  readonly prompt: string;
  readonly answer: string | null;
  readonly status: CallStatus;
  readonly error: string | null;
  readonly attempts: number;
  readonly retries: number;
  readonly timeouts: number;
  readonly latency_ms: number;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly cached: boolean;
}

export interface TranscriptSummary {
  readonly type: 'summary';
  readonly outcome: 'ended' | 'failed';
  readonly failure: FailureKind | null;
  readonly calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly retries: number;
  readonly timeouts: number;
  readonly latency_ms: number;
  readonly cache_hits: number;
  readonly unmetered: number;
}

export interface Transcript {
  readonly header: TranscriptHeader;
  readonly calls: readonly TranscriptCall[];
  readonly summary: TranscriptSummary;
}

/** The transcript file of an episode: `episode-<index>.jsonl`, or `episode.jsonl` for `episode run`. */
export function transcriptFile(dir: string, episode: number | null): string {
  return join(dir, episode === null ? 'episode.jsonl' : `episode-${episode}.jsonl`);
}

export function summaryOf(usage: UsageTotals, failure: FailureKind | null): TranscriptSummary {
  return {
    type: 'summary',
    outcome: failure === null ? 'ended' : 'failed',
    failure,
    calls: usage.calls,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    retries: usage.retries,
    timeouts: usage.timeouts,
    latency_ms: usage.latencyMs,
    cache_hits: usage.cacheHits,
    unmetered: usage.unmetered,
  };
}

export function transcriptText(t: Transcript): string {
  const lines = [t.header, ...t.calls, t.summary].map((line) => canonicalJson(line));
  return lines.join('\n') + '\n';
}

let tmpCounter = 0;

/** Writes a transcript atomically (temporary file, then rename). */
export async function writeTranscript(dir: string, t: Transcript): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = transcriptFile(dir, t.header.episode);
  const tmp = `${file}.${process.pid}-${threadId}.${tmpCounter++}.tmp`;
  await writeFile(tmp, transcriptText(t));
  if (t.header.episode !== null) await keepCutRun(dir, t.header.episode);
  await rename(tmp, file);
  return file;
}

/** The folder of the transcripts of cut episode runs. */
export function cutTranscriptDir(dir: string): string {
  return join(dir, CUT_DIR);
}

const CUT_DIR = 'cut';

/** Moves an earlier (cut) run's transcript of `episode` into cut/ under the first free run number, if there is one. */
async function keepCutRun(dir: string, episode: number): Promise<void> {
  const file = transcriptFile(dir, episode);
  const cut = cutTranscriptDir(dir);
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await mkdir(cut, { recursive: true });
  for (let n = 1; ; n++) {
    try {
      // link refuses an existing name (rename would replace it), so no cut run is ever overwritten.
      await link(file, join(cut, `episode-${episode}.run-${n}.jsonl`));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code === 'EEXIST') continue;
      throw error;
    }
    await unlink(file);
    return;
  }
}

/** Every transcript of a cut episode run in `dir` (none when the folder does not exist). */
export async function readCutTranscripts(dir: string): Promise<ReadTranscript[]> {
  const cut = cutTranscriptDir(dir);
  let names: string[];
  try {
    names = await readdir(cut);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: ReadTranscript[] = [];
  for (const name of names.filter((n) => /^episode-\d+\.run-\d+\.jsonl$/.test(n)).sort()) {
    const file = join(cut, name);
    out.push(parseTranscriptText(await readFile(file, 'utf8'), file));
  }
  return out;
}

const FAILURE_KINDS: readonly FailureKind[] = ['invalid_output', 'model_error', 'timeout'];
const CALL_STATUSES: readonly CallStatus[] = ['ok', ...FAILURE_KINDS];

function readSummary(value: JsonValue, r: FieldReader, path: string): TranscriptSummary {
  const keys = ['type', 'outcome', 'failure', 'calls', 'input_tokens', 'output_tokens', 'retries', 'timeouts', 'latency_ms', 'cache_hits', 'unmetered'];
  const obj = r.object(value, path, keys);
  const outcome = r.literal(obj['outcome'], `${path}.outcome`, ['ended', 'failed'] as const);
  const failure = obj['failure'] === null ? null : r.literal(obj['failure'], `${path}.failure`, FAILURE_KINDS);
  const count = (key: string): number => r.integer(obj[key], `${path}.${key}`, 0);
  const calls = count('calls');
  const inputTokens = count('input_tokens');
  const outputTokens = count('output_tokens');
  const retries = count('retries');
  const timeouts = count('timeouts');
  const latencyMs = count('latency_ms');
  const cacheHits = count('cache_hits');
  return {
    type: r.literal(obj['type'], `${path}.type`, ['summary'] as const),
    outcome,
    failure,
    calls,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    retries,
    timeouts,
    latency_ms: latencyMs,
    cache_hits: cacheHits,
    unmetered: count('unmetered'),
  };
}

function readCall(value: JsonValue, r: FieldReader, path: string): TranscriptCall {
  const call = r.object(value, path, ['type', 'step', 'prompt', 'answer', 'status', 'error', 'attempts', 'retries', 'timeouts', 'latency_ms', 'input_tokens', 'output_tokens', 'cached']);
  const type = r.literal(call['type'], `${path}.type`, ['call'] as const);
  const count = (key: string): number => r.integer(call[key], `${path}.${key}`, 0);
  const text = (key: string): string | null => r.nullable(call[key], `${path}.${key}`, (v, p) => r.string(v, p));
  const tokens = (key: string): number | null => r.nullable(call[key], `${path}.${key}`, (v, p) => r.integer(v, p, 0));
  const step = count('step');
  const prompt = r.string(call['prompt'], `${path}.prompt`);
  const answer = text('answer');
  const status = r.literal(call['status'], `${path}.status`, CALL_STATUSES);
  const error = text('error');
  const attempts = count('attempts');
  const retries = count('retries');
  const timeouts = count('timeouts');
  const latencyMs = count('latency_ms');
  const inputTokens = tokens('input_tokens');
  const outputTokens = tokens('output_tokens');
  const cached = r.boolean(call['cached'], `${path}.cached`);
  return { type, step, prompt, answer, status, error, attempts, retries, timeouts, latency_ms: latencyMs, input_tokens: inputTokens, output_tokens: outputTokens, cached };
}

function inferenceAsWritten(r: FieldReader, value: JsonValue | undefined): JsonObject {
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) r.fail('line 1.inference', 'must be an object');
  return value;
}

/** A transcript as read back: the header's inference settings are kept as written (only their digest is compared). */
export interface ReadTranscript {
  readonly header: Omit<TranscriptHeader, 'inference'> & { readonly inference: JsonObject };
  readonly calls: readonly TranscriptCall[];
  readonly summary: TranscriptSummary;
}

/** Reads a transcript file (for the operational record and the app): every line checked field by field. */
export function parseTranscriptText(text: string, source: string): ReadTranscript {
  if (!text.endsWith('\n')) throw new ValidationError(`${source}: a transcript ends with a line break`);
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 2) throw new ValidationError(`${source}: a transcript has a header and a summary line`);
  const values = lines.map((line, k) => parseJsonInput(line, `${source} line ${k + 1}`));
  const r = new FieldReader(source);
  const header = r.object(values[0]!, 'line 1', ['type', 'transcript_version', 'episode', 'provider_id', 'inference_config_digest', 'inference', 'system_prompt']);
  const type = r.literal(header['type'], 'line 1.type', ['episode'] as const);
  const version = r.literal(header['transcript_version'], 'line 1.transcript_version', [TRANSCRIPT_VERSION]);
  const summary = readSummary(values[values.length - 1]!, r, `line ${values.length}`);
  const calls = values.slice(1, -1).map((v, k) => readCall(v, r, `line ${k + 2}`));
  return {
    header: {
      type,
      transcript_version: version,
      episode: r.nullable(header['episode'], 'line 1.episode', (v, p) => r.integer(v, p, 0)),
      provider_id: r.string(header['provider_id'], 'line 1.provider_id'),
      inference_config_digest: r.string(header['inference_config_digest'], 'line 1.inference_config_digest'),
      inference: inferenceAsWritten(r, header['inference']),
      system_prompt: r.string(header['system_prompt'], 'line 1.system_prompt'),
    },
    calls,
    summary,
  };
}

/** Reads the transcript of an episode from a directory. */
export async function readTranscript(dir: string, episode: number | null): Promise<ReadTranscript> {
  const file = transcriptFile(dir, episode);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ValidationError(`${file}: cannot read the transcript (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseTranscriptText(text, file);
}
