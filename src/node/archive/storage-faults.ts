/**
 * Fault injection for the archive's storage, for tests only: a full disk
 * without filling a real disk. Inert in production: nothing happens unless
 * a test installs a fault in-process (injectStorageFault) or the process is
 * started with the test-only variable below; a user cannot trigger it by
 * any input, setting or file.
 *
 *   EMBER_TEST_STORAGE_FAULT=enospc-after-commits:N
 *
 * makes every archive write transaction after the first N of the process
 * fail as SQLite fails on a full disk (SQLITE_FULL, rolled back), until the
 * process ends. Any other value is refused at the first write (the process
 * test must not silently run without its fault). The process says so on
 * stderr when the fault is armed. docs/archive.md "Testing disk full".
 */

export const STORAGE_FAULT_VARIABLE = 'EMBER_TEST_STORAGE_FAULT';

/** Called inside every archive write transaction, before it commits; throws to fail it. */
export type StorageFault = (path: string) => void;

let injected: StorageFault | undefined;
let fromEnvironment: StorageFault | undefined | null = null;

/** Installs (or with undefined removes) an in-process fault: unit tests of the stores and the run manager. */
export function injectStorageFault(fault: StorageFault | undefined): void {
  injected = fault;
}

/** The error SQLite raises when a write finds no space (its code and words), for a fault to throw. */
export function diskFullFault(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/** A fault that lets `commits` writes through, then fails every later one with diskFullFault until `release()`. */
export function enospcAfter(commits: number): StorageFault & { release(): void; readonly failed: number } {
  let seen = 0;
  let released = false;
  let failed = 0;
  const fault = (): void => {
    if (released || seen++ < commits) return;
    failed++;
    throw diskFullFault();
  };
  return Object.defineProperties(fault, {
    release: {
      value: () => {
        released = true;
      },
    },
    failed: { get: () => failed },
  }) as unknown as StorageFault & { release(): void; readonly failed: number };
}

function environmentFault(): StorageFault | undefined {
  if (fromEnvironment !== null) return fromEnvironment;
  const value = process.env[STORAGE_FAULT_VARIABLE];
  if (value === undefined || value === '') return (fromEnvironment = undefined);
  const match = /^enospc-after-commits:(0|[1-9][0-9]{0,8})$/.exec(value);
  if (match === null) throw new Error(`${STORAGE_FAULT_VARIABLE}=${JSON.stringify(value)}: the only fault is enospc-after-commits:N`);
  process.stderr.write(`${STORAGE_FAULT_VARIABLE}: test fault armed, archive writes after ${match[1]} commits fail as on a full disk\n`);
  return (fromEnvironment = enospcAfter(Number(match[1])));
}

/** Runs the installed faults (none in production). */
export function checkStorageFault(path: string): void {
  injected?.(path);
  environmentFault()?.(path);
}
