/**
 * Who a process is, precisely enough to prove that it has ended: a pid is
 * reused, a hostname is shared by the pods of one Indexed Job, a container
 * has its own pid namespace. The lock on an output (output-lock.ts) records
 * this for its holder, and breaks a lock only when its holder is provably
 * dead on this very machine and namespace.
 */

import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { errnoCode } from './errno.js';

export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** /proc/sys/kernel/random/boot_id: changes on every boot, differs between machines ('' where there is none). */
  readonly bootId: string;
  /** The pid namespace (`pid:[4026531836]`): pids mean something only inside it ('' where there is none). */
  readonly pidNamespace: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat field 22): a reused pid has another. */
  readonly startTicks: string;
}

function readOr(read: () => string): string {
  try {
    return read().trim();
  } catch {
    return '';
  }
}

/** Field 22 of /proc/PID/stat (after the command name, which may hold spaces and parentheses). */
export function startTicksOf(pid: number): string {
  return readOr(() => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  });
}

let self: ProcessIdentity | undefined;

/** This process. */
export function currentProcess(): ProcessIdentity {
  self ??= {
    pid: process.pid,
    host: hostname(),
    bootId: readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: readOr(() => readlinkSync('/proc/self/ns/pid')),
    startTicks: startTicksOf(process.pid),
  };
  return self;
}

/** Whether pids of `other` can be checked from here: the same host, boot and pid namespace. */
export function sameProcessSpace(other: ProcessIdentity): boolean {
  const me = currentProcess();
  return other.host === me.host && other.bootId === me.bootId && other.pidNamespace === me.pidNamespace;
}

/**
 * 'dead' only when provable: same host, boot and pid namespace, and the pid
 * is gone or now belongs to a process started at another time. 'alive' when
 * it runs here; 'unknown' for a process elsewhere (another node on a shared
 * volume, another container), which is never presumed dead.
 */
export function processState(other: ProcessIdentity): 'alive' | 'dead' | 'unknown' {
  if (!sameProcessSpace(other)) return 'unknown';
  try {
    process.kill(other.pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    if (errnoCode(error) === 'ESRCH') return 'dead';
  }
  const ticks = startTicksOf(other.pid);
  if (other.startTicks !== '' && ticks !== '' && ticks !== other.startTicks) return 'dead';
  return 'alive';
}
