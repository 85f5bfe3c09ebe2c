/** A trial's episodes (episodes.list), virtualized and sortable, filterable by family and status. */

import { useState } from 'react';
import { episodeStatuses, type EpisodeRow, type EpisodeStatus } from '../../../shared/api/contract.js';
import { useApi } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { FilterSelect } from '../../components/FilterSelect.js';
import { usePagedRows } from '../../components/paged-rows.js';
import { VirtualTable, type Column, type SortState } from '../../components/VirtualTable.js';
import { points } from '../../components/format.js';

type EpisodeSort = 'index' | 'score' | 'scenario' | 'family' | 'status' | 'evacuated' | 'dead' | 'stranded' | 'steps';

const dash = (v: number | null) => (v === null ? '–' : v);

const COLUMNS: readonly Column<EpisodeRow, EpisodeSort>[] = [
  { id: 'index', label: '#', width: '50px', numeric: true, sort: 'index', render: (e) => e.index },
  { id: 'scenario', label: 'Scenario', width: 'minmax(200px, 2fr)', sort: 'scenario', render: (e) => e.scenarioId },
  { id: 'family', label: 'Family', width: 'minmax(140px, 1.4fr)', sort: 'family', render: (e) => e.family },
  { id: 'status', label: 'Status', width: '90px', sort: 'status', render: (e) => <span className={`pill ${e.status}`} title={e.failureKind ?? undefined}>{e.failureKind ?? e.status}</span> },
  { id: 'score', label: 'Score', width: '70px', numeric: true, sort: 'score', render: (e) => points(e.score) },
  { id: 'evacuated', label: 'Evacuated', width: '100px', numeric: true, sort: 'evacuated', render: (e) => dash(e.evacuated) },
  { id: 'dead', label: 'Dead', width: '60px', numeric: true, sort: 'dead', render: (e) => dash(e.dead) },
  { id: 'stranded', label: 'Stranded', width: '90px', numeric: true, sort: 'stranded', render: (e) => dash(e.stranded) },
  { id: 'steps', label: 'Steps', width: '64px', numeric: true, sort: 'steps', render: (e) => dash(e.steps) },
  { id: 'termination', label: 'End', width: 'minmax(110px, 1fr)', render: (e) => e.termination ?? '–' },
];

/** `onOpen`: a click (or Enter) on an episode row, e.g. to open its replay. */
export function EpisodeTable({ trialId, families, onOpen }: { trialId: number; families: readonly string[]; onOpen?: (row: EpisodeRow) => void }) {
  const api = useApi();
  const [sort, setSort] = useState<SortState<EpisodeSort>>({ column: 'index', direction: 'asc' });
  const [status, setStatus] = useState<'' | EpisodeStatus>('');
  const [family, setFamily] = useState('');
  const filter = { ...(status !== '' ? { status } : {}), ...(family !== '' ? { family } : {}) };
  const rows = usePagedRows((offset, limit) => api['episodes.list']({ trialId, sort: sort.column, direction: sort.direction, filter, offset, limit }), JSON.stringify([trialId, sort, filter]), [{ trialId }]);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Episodes</h2>
        <div className="filters">
          <FilterSelect label="Status" value={status} choices={episodeStatuses} onChange={setStatus} />
          <FilterSelect label="Family" value={family} choices={families} onChange={setFamily} />
          <span className="muted">{rows.total === null ? '' : `${rows.total.toLocaleString()} episodes`}</span>
        </div>
      </div>
      <ErrorMessage error={rows.error} />
      {rows.total === 0 ? (
        <p className="muted">No episode matches.</p>
      ) : (
        <VirtualTable label="episodes" columns={COLUMNS} rows={rows} sort={sort} onSort={setSort} rowKey={(e) => `${e.trialId}-${e.index}`} height={420} onOpen={onOpen} />
      )}
    </div>
  );
}
