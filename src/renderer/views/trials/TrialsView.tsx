/** Trials: the whole archive as a sortable, filterable, virtualized table, and importing a CLI result. */

import { useEffect, useMemo, useRef, useState } from 'react';
import { trialStatuses, type TrialRow, type TrialStatus } from '../../../shared/api/contract.js';
import { useApi, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { FilterSelect, type FilterChoice } from '../../components/FilterSelect.js';
import { usePagedRows } from '../../components/paged-rows.js';
import { Busy } from '../../components/ProgressBar.js';
import { TrialScore } from '../../components/TrialScore.js';
import { IsolationBadge } from '../../components/IsolationBadge.js';
import { VirtualTable, type Column, type SortState } from '../../components/VirtualTable.js';
import { duration, shortDateTime } from '../../components/format.js';
import { ImportPanel } from './ImportPanel.js';
import { ColumnChooser } from './ColumnChooser.js';
import { readHiddenColumns } from './trial-columns.js';
import { TRIAL_LISTS } from '../../app/archive-changes.js';

type TrialSort = 'created' | 'model' | 'score' | 'status' | 'episodes' | 'dead' | 'official';

const COLUMNS: readonly Column<TrialRow, TrialSort>[] = [
  // The model ID gets the room: long IDs (dated model names) must read whole at 1440 px. The minimums of the
  // default columns add up to what a 1360 px window leaves (about 1020 px), with the date, the score and its
  // interval and "ember-public" whole: no sideways scroll bar (e2e/llm.e2e.ts measures it).
  {
    id: 'model',
    label: 'Model',
    width: 'minmax(200px, 3fr)',
    sort: 'model',
    render: (t) => (
      <span className="model" title={`${t.modelId} · ${t.agentLabel}${t.label === '' ? '' : ` · ${t.label}`}`}>
        {t.modelId}
        {t.label === '' ? '' : <span className="muted"> · {t.label}</span>}
      </span>
    ),
  },
  { id: 'suite', label: 'Suite', width: 'minmax(120px, 1fr)', render: (t) => <span title={t.suiteId}>{t.suiteId}</span> },
  { id: 'score', label: 'Score', width: '136px', numeric: true, sort: 'score', render: (t) => <TrialScore trial={t} /> },
  { id: 'official', label: 'Official', width: '80px', sort: 'official', render: (t) => (t.official ? <span className="pill official">official</span> : <span className="muted">no</span>) },
  { id: 'status', label: 'Status', width: '104px', sort: 'status', render: (t) => <span className={`pill ${t.status}`}>{t.status}</span> },
  { id: 'episodes', label: 'Episodes', width: '84px', numeric: true, sort: 'episodes', render: (t) => `${t.episodesCompleted}/${t.episodesScheduled}` },
  { id: 'dead', label: 'Dead', width: '60px', numeric: true, sort: 'dead', render: (t) => t.dead },
  { id: 'origin', label: 'Origin', width: '70px', render: (t) => t.origin },
  { id: 'isolation', label: 'Isolation', width: '104px', render: (t) => <IsolationBadge isolation={t.isolation} /> },
  { id: 'tags', label: 'Tags', width: 'minmax(70px, 1fr)', render: (t) => <span title={t.tags.join(' ')}>{t.tags.map((tag) => <span key={tag} className="pill tag">{tag}</span>)}</span> },
  { id: 'duration', label: 'Duration', width: '96px', numeric: true, render: (t) => (t.durationMs === null ? <span className="muted" title="imported, or run before durations were kept">–</span> : duration(t.durationMs)) },
  { id: 'created', label: 'Date', width: '156px', sort: 'created', render: (t) => shortDateTime(t.created) },
];

interface Filters {
  readonly model: string;
  readonly status: '' | TrialStatus;
  readonly official: '' | 'yes' | 'no';
  readonly family: string;
  readonly tag: string;
}

const NO_FILTERS: Filters = { model: '', status: '', official: '', family: '', tag: '' };
const OFFICIAL_CHOICES: readonly FilterChoice<'yes' | 'no'>[] = [
  { value: 'yes', label: 'official only' },
  { value: 'no', label: 'unofficial only' },
];

export function TrialsView({ go }: { go: Navigate }) {
  const api = useApi();
  const suites = useQuery((a) => a['suites.list']({}), 'suites', ['suites']);
  const tags = useQuery((a) => a['trials.tags']({}), 'tags', TRIAL_LISTS);
  const [sort, setSort] = useState<SortState<TrialSort>>({ column: 'created', direction: 'desc' });
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [model, setModel] = useState('');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => readHiddenColumns());
  const modelBox = useRef<HTMLInputElement>(null);
  // Typing in the model box filters after a short pause, not on every key.
  useEffect(() => {
    const timer = window.setTimeout(() => setFilters((f) => (f.model === model ? f : { ...f, model })), 250);
    return () => window.clearTimeout(timer);
  }, [model]);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === '/' && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement)) {
        e.preventDefault();
        modelBox.current?.focus();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const filter = useMemo(
    () => ({
      ...(filters.model.trim() !== '' ? { model: filters.model.trim() } : {}),
      ...(filters.status !== '' ? { status: filters.status } : {}),
      ...(filters.official !== '' ? { official: filters.official === 'yes' } : {}),
      ...(filters.family !== '' ? { family: filters.family } : {}),
      ...(filters.tag !== '' ? { tag: filters.tag } : {}),
    }),
    [filters],
  );
  const key = JSON.stringify([sort, filter]);
  const rows = usePagedRows((offset, limit) => api['trials.list']({ sort: sort.column, direction: sort.direction, filter, offset, limit }), key, TRIAL_LISTS);
  const families = [...new Set((suites.data ?? []).flatMap((s) => s.families))].sort();
  const filtered = Object.keys(filter).length > 0;

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Trials</h1>
        <p>Every evaluation in the archive. Click a column to sort; press / to filter by model; Enter opens the selected trial.</p>
      </header>
      <div className="card">
        <div className="filters" role="search">
          <label>
            Model
            <input ref={modelBox} type="search" value={model} onChange={(e) => setModel(e.target.value)} placeholder="e.g. part of a model ID" aria-label="Filter by model" />
          </label>
          <FilterSelect label="Status" value={filters.status} choices={trialStatuses} onChange={(status) => setFilters({ ...filters, status })} ariaLabel="Filter by status" />
          <FilterSelect label="Official" value={filters.official} choices={OFFICIAL_CHOICES} onChange={(official) => setFilters({ ...filters, official })} ariaLabel="Filter by official" />
          <FilterSelect label="Family" value={filters.family} choices={families} onChange={(family) => setFilters({ ...filters, family })} ariaLabel="Filter by family" />
          <FilterSelect
            label="Tag"
            value={filters.tag}
            choices={(tags.data ?? []).map((t) => ({ value: t.tag, label: `${t.tag} (${t.trials})` }))}
            onChange={(tag) => setFilters({ ...filters, tag })}
            ariaLabel="Filter by tag"
          />
          <span className="spacer" />
          <span className="muted" aria-live="polite">
            {rows.total === null ? '' : `${rows.total.toLocaleString()} trial${rows.total === 1 ? '' : 's'}`}
          </span>
          {filtered && (
            <button type="button" className="link" onClick={() => (setFilters(NO_FILTERS), setModel(''))}>
              Clear filters
            </button>
          )}
          <ColumnChooser
            hidden={hidden}
            onHidden={setHidden}
            fetchPage={(offset, limit) => api['trials.list']({ sort: sort.column, direction: sort.direction, filter, offset, limit }).then((r) => (r.ok ? r.value : null))}
          />
        </div>
        <ErrorMessage error={rows.error} />
        {rows.total === null ? (
          rows.error === null && <Busy label="Loading trials…" />
        ) : rows.total === 0 ? (
          filtered ? (
            <EmptyState title="No trial matches these filters.">Loosen or clear the filters.</EmptyState>
          ) : (
            <EmptyState title="The archive has no trial yet.">Start an evaluation in Run, or import a result made with the CLI below.</EmptyState>
          )
        ) : (
          <VirtualTable label="trials" columns={COLUMNS.filter((c) => !hidden.has(c.id))} rows={rows} sort={sort} onSort={setSort} rowKey={(t) => String(t.trialId)} onOpen={(t) => go({ view: 'trial', trialId: t.trialId })} />
        )}
      </div>
      <ImportPanel onOpen={(trialId) => go({ view: 'trial', trialId })} />
    </section>
  );
}
