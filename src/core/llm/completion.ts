/**
 * Reading a chat-completions response body (the OpenAI wire format that
 * vLLM, llama.cpp, Ollama, LM Studio and hosted APIs share). Only what the
 * adapter needs: the first choice's message content and the usage fields.
 * A body without them is the endpoint's failure (`model_error`), not the
 * model's answer.
 */

import { AgentError } from '../errors.js';
import type { JsonValue } from '../json/canonical.js';
import { parseStrictJson } from '../json/strict-parse.js';

export interface Completion {
  readonly content: string;
  /** usage.prompt_tokens and usage.completion_tokens, or null when the body has no usage. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
}

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
}

function count(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** Parses a 200 response body; AgentError model_error when it is not a chat completion with text content. */
export function readCompletion(body: string): Completion {
  let value: JsonValue;
  try {
    value = parseStrictJson(body);
  } catch (error) {
    throw new AgentError('model_error', `the endpoint answered with a body that is not JSON (${(error as Error).message})`);
  }
  const choices = field(value, 'choices');
  if (!Array.isArray(choices) || choices.length === 0) throw new AgentError('model_error', 'the endpoint answered without "choices"');
  const content = field(field(choices[0], 'message'), 'content');
  if (typeof content !== 'string') throw new AgentError('model_error', 'the endpoint answered without a text message content');
  const usage = field(value, 'usage');
  const input = count(field(usage, 'prompt_tokens'));
  const output = count(field(usage, 'completion_tokens'));
  return { content, usage: input === undefined || output === undefined ? null : { inputTokens: input, outputTokens: output } };
}

/** The request body of one call (settings from the inference configuration). */
export function completionRequest(
  settings: { readonly model: string; readonly temperature: string; readonly top_p: string; readonly max_tokens: number; readonly seed: number | null },
  messages: readonly { readonly role: string; readonly content: string }[],
): string {
  return JSON.stringify({
    model: settings.model,
    messages,
    temperature: Number(settings.temperature),
    top_p: Number(settings.top_p),
    max_tokens: settings.max_tokens,
    ...(settings.seed === null ? {} : { seed: settings.seed }),
    stream: false,
  });
}
