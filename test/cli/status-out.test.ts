// evaluation status --out OUT (issue 26): a single run's output as status sees it, in-process
// (main()). A journal is made as an interrupted run leaves it (header + the first episode's
// line, journal-lines.ts), and the command status prints finishes it to the uninterrupted bytes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultEpisode } from '../../src/core/eval/result.js';
import { journalEntryLine, journalHeaderLine } from '../../src/node/eval/journal-lines.js';
import { SUITE, jsonError } from './run-cli.js';
import { runMain } from './in-process.js';

let scratch: string;
let manifestPath: string;
let resultPath: string;
let manifestHash: string;

async function statusJson(args: readonly string[]): Promise<Record<string, unknown>> {
  const run = await runMain(['evaluation', 'status', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ember-status-out-'));
  manifestPath = join(scratch, 'manifest.json');
  resultPath = join(scratch, 'result.json');
  expect((await runMain(['evaluation', 'manifest', '--suite', SUITE, '--seed', '1', '--seed', '2', '--out', manifestPath])).code).toBe(0);
  expect((await runMain(['evaluation', 'run', '--suite', SUITE, '--manifest', manifestPath, '--model-id', 'stay', '--agent', 'builtin:always-stay', '--out', resultPath])).code).toBe(0);
  manifestHash = (JSON.parse(readFileSync(resultPath, 'utf8')) as { manifest_hash: string }).manifest_hash;
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('evaluation status --out', () => {
  it('an interrupted run: journal, entries committed, and the command that finishes it (which does)', async () => {
    const out = join(scratch, 'interrupted.json');
    const result = JSON.parse(readFileSync(resultPath, 'utf8')) as { episodes: ResultEpisode[] };
    writeFileSync(`${out}.journal`, journalHeaderLine({ manifestHash, modelId: 'stay' } as Parameters<typeof journalHeaderLine>[0]) + journalEntryLine({ kind: 'episode', episode: result.episodes[0]! }));
    const status = await statusJson(['--out', out]);
    expect(status).toMatchObject({ out, state: 'partial', journal: true, committed: 1, scheduled: null, complete: false, manifest_hash: manifestHash, model_id: 'stay', holder: null });
    expect(status.command).toBe(`emberbench evaluation run --suite SUITE_DIR --manifest MANIFEST --model-id stay --agent AGENT --out ${out} --resume`);
    const human = await runMain(['evaluation', 'status', '--out', out, '--suite', SUITE, '--manifest', manifestPath]);
    expect(human.stdout).toContain(`${out}: interrupted, journal ${out}.journal holds 1/4 committed (model stay)`);
    const command = `emberbench evaluation run --suite ${SUITE} --manifest ${manifestPath} --model-id stay --agent AGENT --out ${out} --resume`;
    expect(human.stdout).toContain(command);
    // The printed command, with the interrupted run's agent, finishes it byte-identical.
    const words = command.split(' ').slice(1).map((w) => (w === 'AGENT' ? 'builtin:always-stay' : w));
    expect((await runMain(words)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(resultPath, 'utf8'));
    expect(await statusJson(['--out', out, '--suite', SUITE, '--manifest', manifestPath])).toMatchObject({ state: 'done', journal: false, committed: 4, scheduled: 4, complete: true, command: null });
  });

  it('a finished result: authenticated and complete with the suite and manifest, else the verify command', async () => {
    expect(await statusJson(['--out', resultPath])).toMatchObject({ state: 'done', complete: null, command: `emberbench evaluation verify --suite SUITE_DIR --result ${resultPath}` });
    const other = join(scratch, 'other.json');
    expect((await runMain(['evaluation', 'manifest', '--suite', SUITE, '--seed', '3', '--out', other])).code).toBe(0);
    const wrong = await statusJson(['--out', resultPath, '--suite', SUITE, '--manifest', other]);
    expect(wrong).toMatchObject({ state: 'invalid', command: null });
    expect(wrong.problem).toContain(`a result of manifest ${manifestHash}, not the given manifest's`);
  });

  it('nothing yet is missing; --out and --run-dir are one or the other', async () => {
    expect(await statusJson(['--out', join(scratch, 'none.json')])).toMatchObject({ state: 'missing', journal: false, committed: 0, command: null });
    const both = await runMain(['evaluation', 'status', '--out', resultPath, '--run-dir', scratch, '--json']);
    expect(both.code).toBe(2);
    expect(jsonError(both.stderr).message).toBe("give exactly one of --run-dir DIR (a sharded run folder) or --out OUT (a single run's output)");
    const half = await runMain(['evaluation', 'status', '--out', resultPath, '--suite', SUITE, '--json']);
    expect(half.code).toBe(2);
    expect((await runMain(['evaluation', 'status', '--json'])).code).toBe(2);
  });
});
