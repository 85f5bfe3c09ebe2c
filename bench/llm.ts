/**
 * The chat-completions adapter (`npm run bench -- llm`), against the scripted
 * endpoint of test/llm/scripted-server.ts running as its own process, so
 * that the figures are the evaluator's alone:
 *
 * - evaluator overhead per model call outside the network wait: CPU time of
 *   the evaluator process (prompt rendering, request, response and answer
 *   parsing, the simulator step, the replay check, the transcript) divided
 *   by the number of model calls;
 * - episodes per second with 32 calls in flight (--max-connections 32, one
 *   thread), the endpoint answering after a fixed 20 ms "network" delay.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildManifest } from '../src/core/eval/manifest.js';
import type { JsonValue } from '../src/core/json/canonical.js';
import { readAgentConfig, type AgentConfig } from '../src/core/llm/config.js';
import { createSlots } from '../src/node/agents/openai-chat/slots.js';
import { defaultEntryPoints } from '../src/node/entry-points.js';
import { runEvaluation } from '../src/node/eval/runner.js';
import { MemorySink } from '../src/node/eval/sink.js';
import { loadSuiteDir } from '../src/node/inputs.js';
import { PUBLIC_SUITE, ROOT, type Figure } from './harness.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Starts the scripted server process; resolves its base URL. */
function startServer(script: string, delayMs: number): Promise<{ child: ChildProcess; baseUrl: string }> {
  const args = ['--import', TSX, join(ROOT, 'test', 'llm', 'scripted-server.ts'), '--port', '0', '--script', script, '--delay-ms', String(delayMs)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)\n/.exec(out);
      if (m) resolve({ child, baseUrl: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`scripted server exited (${code})`)));
  });
}

function config(baseUrl: string, mode: 'direct' | 'planner'): AgentConfig {
  return readAgentConfig(
    {
      base_url: baseUrl,
      model: 'bench',
      api_key_env: null,
      temperature: '0',
      top_p: '1',
      max_tokens: 4096,
      seed: null,
      system_prompt_version: '1.0',
      adapter_version: '1.0',
      mode,
      ...(mode === 'planner' ? { planner_interval: 1 } : {}),
    } as unknown as JsonValue,
    'bench config',
  );
}

async function evaluate(baseUrl: string, mode: 'direct' | 'planner', seeds: readonly string[], maxConnections: number, transcriptDir: string) {
  const suite = loadSuiteDir(PUBLIC_SUITE);
  const manifest = buildManifest(suite, seeds);
  const c = config(baseUrl, mode);
  const cpu = process.cpuUsage();
  const began = performance.now();
  const summary = await runEvaluation({
    suite,
    suiteDir: PUBLIC_SUITE,
    manifest,
    modelId: 'bench',
    agent: { kind: 'llm', options: { config: c, maxConnections, slots: createSlots(maxConnections), transcriptDir, responseCacheDir: null } },
    agentPaths: [],
    actTimeoutMs: 30_000,
    sink: new MemorySink(),
    continueOnFailure: false,
    jobs: 1,
    entryPoints: defaultEntryPoints(),
  });
  const seconds = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  const steps = summary.result.episodes.reduce((sum, e) => sum + e.record.steps, 0);
  return { seconds, cpuMs: (used.user + used.system) / 1000, episodes: summary.result.episodes.length, calls: steps };
}

export async function benchLlm(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ember-bench-llm-'));
  const figures: Figure[] = [];
  try {
    // Overhead: no delay, one call at a time, direct mode (one call per step).
    const fast = await startServer('greedy', 0);
    try {
      const r = await evaluate(fast.baseUrl, 'direct', ['0'], 1, join(dir, 'overhead'));
      figures.push({ name: `evaluator CPU per model call outside the network wait (direct mode, public suite seed 0, ${r.calls} calls)`, value: r.cpuMs / r.calls, unit: 'ms' });
    } finally {
      fast.child.kill();
    }
    // Throughput: 20 ms per answer, 32 calls in flight, one thread; planner mode with planner_interval 1 (one call per step).
    const slow = await startServer('planner', 20);
    try {
      const r = await evaluate(slow.baseUrl, 'planner', ['0', '1', '2', '3'], 32, join(dir, 'throughput'));
      figures.push({ name: `episodes per second, 32 calls in flight, 20 ms per answer (${r.episodes} episodes, ${r.calls} calls)`, value: r.episodes / r.seconds, unit: 'episodes/s' });
      // 32 calls of 20 ms each in flight allow at most 1600 calls/s.
      figures.push({ name: 'model calls per second, 32 in flight (ceiling 1600)', value: r.calls / r.seconds, unit: 'calls/s' });
    } finally {
      slow.child.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
