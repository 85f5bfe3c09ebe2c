// One writer per output, as processes (issue 24): a shard killed mid-run,
// then two `evaluation run --resume` started at once on it -- what an Indexed
// Job does when it starts a replacement pod while the old one is still
// terminating. Every round must end with one valid result, byte-identical to
// an uninterrupted run, and one refusal (exit 6) naming the holder (a few
// rounds here; 20 in the cluster stage, test/cluster/). And SIGTERM to the
// CLI running as PID 1 of a PID namespace (a container) stops it at an
// episode boundary with exit 130, the journal whole, the lock released, and
// --resume finishes the same bytes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committed, errorOf, finished, round, runArgs, setUpWriters, start, tearDownWriters, waitFor } from './one-writer-kit.js';

const ROUNDS = 3;
let scratch: string;
let uninterrupted: Buffer;

beforeAll(async () => {
  ({ scratch, uninterrupted } = await setUpWriters());
}, 120_000);

afterAll(tearDownWriters);

describe('one writer per output', () => {
  it(`two resumes of a killed shard at once: one valid result and one refusal, ${ROUNDS} rounds out of ${ROUNDS}`, async () => {
    await Promise.all(Array.from({ length: ROUNDS }, (_, k) => round(k)));
  }, 300_000);
});

function canUnsharePid(): boolean {
  return spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
}

/** The host pid of the first child of `pid` (the process unshare forked: PID 1 inside). */
function childOf(pid: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return children === '' ? undefined : Number(children.split(' ')[0]);
  } catch {
    return undefined;
  }
}

describe('SIGTERM', () => {
  it.skipIf(!canUnsharePid())('as PID 1 of a PID namespace: exits 130 at an episode boundary, journal whole, lock released; --resume gives the uninterrupted bytes', async () => {
    const dir = join(scratch, 'pid1');
    mkdirSync(dir);
    const out = join(dir, 'shard.json');
    const wrapper = start(['--pid', '--fork', '--mount-proc', process.execPath, ...runArgs(out, '--jobs', '2')], 'unshare');
    const exit = finished(wrapper);
    await waitFor(() => committed(out) >= 1, 'the first journal entry');
    const pid1 = childOf(wrapper.pid!);
    expect(pid1).toBeDefined();
    // It is PID 1 in its namespace: the kernel delivers SIGTERM only because the CLI handles it.
    expect(readFileSync(`/proc/${pid1}/status`, 'utf8')).toMatch(/^NSpid:\s+\d+\s+1$/m);
    const before = committed(out);
    process.kill(pid1!, 'SIGTERM');
    const result = await exit;
    expect(result.code).toBe(130);
    expect(errorOf(result.stderr)).toEqual({ exit_code: 130, kind: 'interrupted', message: 'interrupted' });
    // Only the journal: whole lines (no torn entry), at least what was committed before the signal, and not the end.
    expect(readdirSync(dir)).toEqual(['shard.json.journal']);
    const journal = readFileSync(`${out}.journal`, 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    expect(committed(out)).toBeGreaterThanOrEqual(before);
    expect(committed(out)).toBeLessThan(6);

    const resumed = await finished(start(runArgs(out, '--resume')));
    expect(resumed.code).toBe(0);
    expect(readFileSync(out)).toEqual(uninterrupted);
  }, 120_000);
});
