import { describe, expect, test } from 'vitest';
import type { TrialRow } from '../../../shared/api/contract.js';
import { csvText } from '../../components/csv-text.js';
import { TRIAL_COLUMNS, allTrialRows, readHiddenColumns, saveHiddenColumns, trialsCsv } from './trial-columns.js';
import { MemoryStorage } from '../../../../test/kits/memory-storage.js';

function trial(id: number, modelId: string): TrialRow {
  return {
    trialId: id, modelId, manifestHash: 'a'.repeat(64), suiteId: 'ember-public', packId: null, official: false, status: 'complete',
    score: '55.75', scoreRounded: '55.8', intervalLow: '50.1', intervalHigh: '60.2', episodesScheduled: 30, episodesCompleted: 29, episodesFailed: 1,
    evacuated: 100, dead: 3, stranded: 0, origin: 'run', created: '2026-12-02T09:00:00Z', agentLabel: 'builtin:x', isolation: 'in_process',
    label: '', tags: [], durationMs: null, signers: [],
  } as TrialRow;
}

describe('Trials columns', () => {
  test('the CSV has the shown columns with exact values, the trial ID first', () => {
    const all = trialsCsv([trial(7, 'gpt-4.1-mini-2025-04-14-long-name')], new Set());
    expect(all.header.slice(0, 6)).toEqual(['trial_id', 'model_id', 'agent', 'label', 'suite_id', 'score']);
    expect(all.rows[0]!.slice(0, 6)).toEqual([7, 'gpt-4.1-mini-2025-04-14-long-name', 'builtin:x', '', 'ember-public', '55.75']);
    // Every column of the table can be chosen, in the table's order (housekeeping's tags and duration too).
    expect(TRIAL_COLUMNS.map((c) => c.id)).toEqual(['model', 'suite', 'score', 'official', 'status', 'episodes', 'dead', 'origin', 'isolation', 'tags', 'duration', 'created']);
    const few = trialsCsv([trial(7, 'm')], new Set(['suite', 'score', 'official', 'episodes', 'dead', 'origin', 'isolation', 'tags', 'duration']));
    expect(few.header).toEqual(['trial_id', 'model_id', 'agent', 'label', 'status', 'created_utc']);
    expect(csvText(few.header, few.rows)).toBe('trial_id,model_id,agent,label,status,created_utc\r\n7,m,builtin:x,,complete,2026-12-02T09:00:00Z\r\n');
  });

  test('a model ID a spreadsheet would run as a formula is written as text; numbers stay numbers', () => {
    expect(csvText(['m', 'd'], [['=HYPERLINK("x")', '-3/4']])).toBe('m,d\r\n"\'=HYPERLINK(""x"")",-3/4\r\n');
  });

  test('the choice of hidden columns is kept; the model column cannot be hidden', () => {
    const storage = new MemoryStorage();
    saveHiddenColumns(new Set(['suite', 'model', 'nope']), storage);
    expect([...readHiddenColumns(storage)]).toEqual(['suite']);
    storage.setItem('ember.trialColumns.v1', '[]');
    expect(readHiddenColumns(storage).size).toBe(0);
    // Unreadable, or never chosen: the default (origin, isolation and duration hidden, so the table fits 1360 px).
    storage.setItem('ember.trialColumns.v1', '{');
    expect([...readHiddenColumns(storage)]).toEqual(['origin', 'isolation', 'duration']);
    expect([...readHiddenColumns(new MemoryStorage())]).toEqual(['origin', 'isolation', 'duration']);
  });

  test('the export reads every page, not only the rows in view', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => trial(i + 1, `m${i}`));
    const calls: number[] = [];
    const all = await allTrialRows(async (offset, limit) => (calls.push(offset), { total: rows.length, rows: rows.slice(offset, offset + limit) }));
    expect(all?.length).toBe(2500);
    expect(calls).toEqual([0, 1000, 2000]);
    expect(await allTrialRows(async () => null)).toBeNull();
  });
});
