/** The Trials table's "Columns" menu and its CSV export of the shown columns over every matching trial. */

import { useState } from 'react';
import type { TrialRow } from '../../../shared/api/contract.js';
import { downloadCsv } from '../../components/csv.js';
import { ALWAYS_SHOWN, TRIAL_COLUMNS, allTrialRows, saveHiddenColumns, trialsCsv } from './trial-columns.js';

export function ColumnChooser({
  hidden,
  onHidden,
  fetchPage,
}: {
  hidden: ReadonlySet<string>;
  onHidden: (hidden: ReadonlySet<string>) => void;
  /** One page of the table's current sort and filters; null when the call failed (its error shows on the table). */
  fetchPage: (offset: number, limit: number) => Promise<{ total: number; rows: readonly TrialRow[] } | null>;
}) {
  const [exporting, setExporting] = useState(false);
  const [failed, setFailed] = useState(false);
  function toggle(id: string, shown: boolean) {
    const next = new Set(hidden);
    if (shown) next.delete(id);
    else next.add(id);
    saveHiddenColumns(next);
    onHidden(next);
  }
  async function exportCsv() {
    setExporting(true);
    setFailed(false);
    const rows = await allTrialRows(fetchPage);
    setExporting(false);
    if (rows === null) return setFailed(true);
    const csv = trialsCsv(rows, hidden);
    downloadCsv('trials.csv', csv.header, csv.rows);
  }
  return (
    <>
      <details className="column-chooser">
        <summary>Columns</summary>
        <fieldset>
          <legend className="small muted">Columns shown (and exported)</legend>
          {TRIAL_COLUMNS.map((c) => (
            <label key={c.id} className="check small">
              <input type="checkbox" checked={!hidden.has(c.id)} disabled={c.id === ALWAYS_SHOWN} onChange={(e) => toggle(c.id, e.target.checked)} />
              {c.label}
            </label>
          ))}
        </fieldset>
      </details>
      <button type="button" onClick={() => void exportCsv()} disabled={exporting} data-testid="trials-csv">
        {exporting ? 'Exporting…' : 'Export CSV'}
      </button>
      {failed && (
        <span className="bad-text small" role="alert">
          The export could not read the trials: see the message above the table, then try again.
        </span>
      )}
    </>
  );
}
