import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputError } from '../core/errors.js';
import { ResourceScope } from './lifetime.js';
import { acquireOutputLock, lockPath, lockStatus, parseLockText, withOutputLock } from './output-lock.js';
import { currentProcess } from './process-identity.js';

let dir: string;
let n = 0;
const fresh = (): string => join(dir, `out-${n++}.json`);

/** A lock file text as another process would write it. */
function lockOf(fields: Partial<Record<'pid' | 'host' | 'boot_id' | 'pid_ns' | 'start_ticks' | 'nonce', unknown>>): string {
  const me = currentProcess();
  return JSON.stringify({
    ember_lock: '1',
    pid: me.pid,
    host: me.host,
    boot_id: me.bootId,
    pid_ns: me.pidNamespace,
    start_ticks: me.startTicks,
    started_at: '2026-01-01T00:00:00.000Z',
    nonce: 'x',
    ...fields,
  });
}

/** The pid of a process that has exited (reaped). */
function deadPid(): number {
  const child = spawnSync('/bin/sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ember-output-lock-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('acquireOutputLock', () => {
  it('holds OUT.lock naming this process, refuses a second holder naming it, and removes it on release', async () => {
    const out = fresh();
    const lock = await acquireOutputLock(out);
    const holder = parseLockText(readFileSync(lockPath(out), 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: currentProcess().host });
    const second = acquireOutputLock(out);
    await expect(second).rejects.toBeInstanceOf(OutputError);
    await expect(second).rejects.toThrow(`output ${out} is being written by another process (pid ${process.pid} on host ${currentProcess().host}, started `);
    expect(lockStatus(out)).toMatchObject({ state: 'alive', holder: { pid: process.pid } });
    await lock.release();
    expect(existsSync(lockPath(out))).toBe(false);
    expect(lockStatus(out)).toBeUndefined();
    // Nothing else is left in the folder (the temporary file the lock was linked from).
    expect(readdirSync(dir).filter((f) => f.includes(`out-${n - 1}.`))).toEqual([]);
  });

  it('never removes a lock file that is no longer its own', async () => {
    const out = fresh();
    const lock = await acquireOutputLock(out);
    writeFileSync(lockPath(out), lockOf({ nonce: 'someone else' }));
    await lock.release();
    expect(existsSync(lockPath(out))).toBe(true);
  });

  it('is released with its scope and at process exit (the scope exit hook)', async () => {
    const scope = ResourceScope.root();
    const out = fresh();
    await acquireOutputLock(out, { scope });
    expect(existsSync(lockPath(out))).toBe(true);
    scope.runExitHooks();
    expect(existsSync(lockPath(out))).toBe(false);
  });

  it('takes over the lock of a dead process on this host, with a notice', async () => {
    const out = fresh();
    const pid = deadPid();
    writeFileSync(lockPath(out), lockOf({ pid, start_ticks: '1' }));
    const notices: string[] = [];
    const lock = await acquireOutputLock(out, { onNotice: (t) => notices.push(t) });
    expect(notices).toEqual([`took over the lock of ${out}: its holder (pid ${pid} on host ${currentProcess().host}, started 2026-01-01T00:00:00.000Z) is no longer running on this host`]);
    expect(parseLockText(readFileSync(lockPath(out), 'utf8'))?.pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to a process started at another time (pid reuse)', async () => {
    if (currentProcess().startTicks === '') return; // no /proc
    const out = fresh();
    writeFileSync(lockPath(out), lockOf({ start_ticks: '1' }));
    await withOutputLock(out, {}, async () => expect(parseLockText(readFileSync(lockPath(out), 'utf8'))?.startTicks).toBe(currentProcess().startTicks));
  });

  it.each([
    ['another host', { host: 'node-7' }],
    ['another boot of this host', { boot_id: 'another-boot' }],
    ['another pid namespace (container)', { pid_ns: 'pid:[1]' }],
  ])('never breaks a lock held on %s, and says how to clear it', async (_what, fields) => {
    const out = fresh();
    writeFileSync(lockPath(out), lockOf({ pid: deadPid(), ...fields }));
    await expect(acquireOutputLock(out)).rejects.toThrow(`if no emberbench process there writes ${out} any more (e.g. its pod or job is gone), remove ${lockPath(out)} and run again`);
    expect(existsSync(lockPath(out))).toBe(true);
  });

  it('refuses a lock file it cannot read as a lock', async () => {
    const out = fresh();
    writeFileSync(lockPath(out), 'not a lock');
    await expect(acquireOutputLock(out)).rejects.toThrow(`${lockPath(out)} is not an emberbench lock (version 1); if no emberbench process writes ${out}, remove it and run again`);
  });

  it('refuses when a takeover of the stale lock was interrupted by the breaker dying', async () => {
    const out = fresh();
    writeFileSync(lockPath(out), lockOf({ pid: deadPid() }));
    writeFileSync(`${lockPath(out)}.takeover`, lockOf({ pid: deadPid() }));
    await expect(acquireOutputLock(out)).rejects.toThrow(`remove ${lockPath(out)} and ${lockPath(out)}.takeover and run again`);
  });

  it('gives a stale lock to exactly one of many concurrent takers', async () => {
    for (let round = 0; round < 10; round++) {
      const out = fresh();
      writeFileSync(lockPath(out), lockOf({ pid: deadPid() }));
      const takers = await Promise.allSettled(Array.from({ length: 8 }, () => acquireOutputLock(out)));
      const won = takers.filter((t) => t.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const t of takers) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(OutputError);
      await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireOutputLock>>>).value.release();
      expect(readdirSync(dir).filter((f) => f.startsWith(`out-${n - 1}.`) || f.startsWith(`.out-${n - 1}.`))).toEqual([]);
    }
  });

  it('refuses a missing output folder as an output error', async () => {
    await expect(acquireOutputLock(join(dir, 'missing', 'out.json'))).rejects.toThrow(`cannot create lock ${join(dir, 'missing', 'out.json')}.lock: ENOENT`);
  });
});
