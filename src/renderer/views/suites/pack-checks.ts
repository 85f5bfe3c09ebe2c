/**
 * The last Verify result of each pack, kept in the browser's storage so that
 * a reload does not turn "valid" back into "not checked". A pack is stored by
 * its digest and never changes, so a result stays true of it; the time of the
 * check is shown with it, and Verify checks again from the archive.
 */

import type { ValidationReport } from '../../../shared/api/contract.js';

const STORAGE_KEY = 'ember.packChecks.v1';

export interface PackCheck extends ValidationReport {
  /** When the check ran (ISO 8601, the browser's clock): shown, never compared. */
  readonly checkedAt: string;
}

export type PackChecks = Readonly<Record<string, PackCheck>>;

/** The part of the browser's Storage used here (tests pass their own). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function browserStore(): KeyValueStore | undefined {
  return (globalThis as { localStorage?: KeyValueStore }).localStorage;
}

function isCheck(value: unknown): value is PackCheck {
  const v = value as Partial<PackCheck> | null;
  return typeof v === 'object' && v !== null && typeof v.valid === 'boolean' && typeof v.message === 'string' && typeof v.checkedAt === 'string';
}

/** The stored checks; anything malformed in storage is left out (it is only a display cache). */
export function readPackChecks(storage: Pick<KeyValueStore, 'getItem'> | undefined = browserStore()): PackChecks {
  try {
    const raw: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '{}');
    if (typeof raw !== 'object' || raw === null) return {};
    return Object.fromEntries(Object.entries(raw).filter(([digest, check]) => /^[0-9a-f]{64}$/.test(digest) && isCheck(check)));
  } catch {
    return {};
  }
}

/** Adds one check and stores the whole set; returns the new set (storage that refuses a write keeps it for this page). */
export function savePackCheck(checks: PackChecks, digest: string, report: ValidationReport, now: Date, storage: Pick<KeyValueStore, 'setItem'> | undefined = browserStore()): PackChecks {
  const next = { ...checks, [digest]: { valid: report.valid, message: report.message, checkedAt: now.toISOString() } };
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the result still shows until the page reloads.
  }
  return next;
}
