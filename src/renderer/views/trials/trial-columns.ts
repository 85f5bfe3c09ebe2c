/**
 * The Trials table's columns as the user chooses them: which are shown (kept
 * in the browser's storage across reloads), and the same columns as CSV for
 * a spreadsheet, with exact values (the score as the archive holds it, dates
 * in ISO 8601) rather than the table's rounded display.
 */

import type { TrialRow } from '../../../shared/api/contract.js';

/** A column the table can show: its id (as in TrialsView's COLUMNS), label, and its CSV cells. */
export interface TrialColumnInfo {
  readonly id: string;
  readonly label: string;
  /** Header and cell of each CSV column it stands for (the score gives its interval too). */
  readonly csv: readonly { readonly header: string; readonly cell: (t: TrialRow) => string | number | null }[];
}

export const TRIAL_COLUMNS: readonly TrialColumnInfo[] = [
  { id: 'model', label: 'Model', csv: [{ header: 'model_id', cell: (t) => t.modelId }, { header: 'agent', cell: (t) => t.agentLabel }, { header: 'label', cell: (t) => t.label }] },
  { id: 'suite', label: 'Suite', csv: [{ header: 'suite_id', cell: (t) => t.suiteId }] },
  {
    id: 'score',
    label: 'Score',
    csv: [
      { header: 'score', cell: (t) => t.score },
      { header: 'interval_low', cell: (t) => t.intervalLow },
      { header: 'interval_high', cell: (t) => t.intervalHigh },
    ],
  },
  { id: 'official', label: 'Official', csv: [{ header: 'official', cell: (t) => (t.official ? 'yes' : 'no') }, { header: 'pack_id', cell: (t) => t.packId }] },
  { id: 'status', label: 'Status', csv: [{ header: 'status', cell: (t) => t.status }] },
  {
    id: 'episodes',
    label: 'Episodes',
    csv: [
      { header: 'episodes_completed', cell: (t) => t.episodesCompleted },
      { header: 'episodes_failed', cell: (t) => t.episodesFailed },
      { header: 'episodes_scheduled', cell: (t) => t.episodesScheduled },
    ],
  },
  { id: 'dead', label: 'Dead', csv: [{ header: 'dead', cell: (t) => t.dead }] },
  { id: 'origin', label: 'Origin', csv: [{ header: 'origin', cell: (t) => t.origin }] },
  { id: 'isolation', label: 'Isolation', csv: [{ header: 'isolation', cell: (t) => t.isolation ?? null }] },
  { id: 'tags', label: 'Tags', csv: [{ header: 'tags', cell: (t) => t.tags.join(' ') }] },
  { id: 'duration', label: 'Duration', csv: [{ header: 'duration_ms', cell: (t) => t.durationMs }] },
  { id: 'created', label: 'Date', csv: [{ header: 'created_utc', cell: (t) => t.created }] },
];

/** The model column names the row: it is always shown. */
export const ALWAYS_SHOWN = 'model';

const STORAGE_KEY = 'ember.trialColumns.v1';

interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function browserStore(): KeyValueStore | undefined {
  return (globalThis as { localStorage?: KeyValueStore }).localStorage;
}

/**
 * Hidden until the user shows them (the column chooser): how a trial came
 * (origin), its sandbox and its run time are on the trial's page too. With
 * them hidden the other columns fit a 1360 px window without a sideways
 * scroll bar (the Trials e2e measures it).
 */
export const DEFAULT_HIDDEN: ReadonlySet<string> = new Set(['origin', 'isolation', 'duration']);

/** The hidden columns the user chose (unknown ids and the model column are ignored); DEFAULT_HIDDEN until they choose, or when the choice cannot be read. */
export function readHiddenColumns(storage: Pick<KeyValueStore, 'getItem'> | undefined = browserStore()): ReadonlySet<string> {
  try {
    const stored = storage?.getItem(STORAGE_KEY) ?? null;
    if (stored === null) return DEFAULT_HIDDEN;
    const raw: unknown = JSON.parse(stored);
    if (!Array.isArray(raw)) return DEFAULT_HIDDEN;
    const known = new Set(TRIAL_COLUMNS.map((c) => c.id));
    return new Set(raw.filter((id): id is string => typeof id === 'string' && known.has(id) && id !== ALWAYS_SHOWN));
  } catch {
    return DEFAULT_HIDDEN;
  }
}

export function saveHiddenColumns(hidden: ReadonlySet<string>, storage: Pick<KeyValueStore, 'setItem'> | undefined = browserStore()): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify([...hidden].sort()));
  } catch {
    // Storage full or disabled: the choice holds for this page.
  }
}

/** The CSV header and rows of the shown columns, in table order; the trial ID comes first so a row can be found again. */
export function trialsCsv(rows: readonly TrialRow[], hidden: ReadonlySet<string>): { header: string[]; rows: (string | number | null)[][] } {
  const cells = TRIAL_COLUMNS.filter((c) => !hidden.has(c.id)).flatMap((c) => c.csv);
  return { header: ['trial_id', ...cells.map((c) => c.header)], rows: rows.map((t) => [t.trialId, ...cells.map((c) => c.cell(t))]) };
}

/** Every row of a sorted, filtered trial list, page by page (the table loads only what is in view). */
export async function allTrialRows(page: (offset: number, limit: number) => Promise<{ total: number; rows: readonly TrialRow[] } | null>, pageSize = 1000): Promise<TrialRow[] | null> {
  const rows: TrialRow[] = [];
  for (;;) {
    const next = await page(rows.length, pageSize);
    if (next === null) return null;
    rows.push(...next.rows);
    if (next.rows.length === 0 || rows.length >= next.total) return rows;
  }
}
