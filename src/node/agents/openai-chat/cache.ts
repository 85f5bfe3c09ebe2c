/**
 * The optional response cache (`--response-cache DIR`): an answer is stored
 * under SHA-256 of the canonical JSON of {inference_config_digest,
 * messages}, so a cached answer is only ever reused for the same inference
 * configuration and the same prompt. A hit makes no network call and
 * spends no tokens; the operational record counts the hits
 * (`response_cache_hits`), and `score --pack` refuses such a record (an
 * official score needs answers the model actually gave in this run).
 */

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { digestOf } from '../../../core/hash.js';
import type { ChatMessage } from '../../../core/llm/prompt.js';

let tmpCounter = 0;

export class ResponseCache {
  constructor(
    private readonly dir: string,
    private readonly configDigest: string,
  ) {}

  key(messages: readonly ChatMessage[]): string {
    return digestOf({ inference_config_digest: this.configDigest, messages: messages.map((m) => ({ role: m.role, content: m.content })) });
  }

  /** The cached answer text, or undefined. A damaged entry is treated as absent. */
  async get(messages: readonly ChatMessage[]): Promise<string | undefined> {
    try {
      const value = JSON.parse(await readFile(join(this.dir, `${this.key(messages)}.json`), 'utf8')) as { answer?: unknown };
      return typeof value.answer === 'string' ? value.answer : undefined;
    } catch {
      return undefined;
    }
  }

  async put(messages: readonly ChatMessage[], answer: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${this.key(messages)}.json`);
    const tmp = `${file}.${process.pid}-${threadId}.${tmpCounter++}.tmp`;
    await writeFile(tmp, JSON.stringify({ answer }) + '\n');
    await rename(tmp, file);
  }
}
