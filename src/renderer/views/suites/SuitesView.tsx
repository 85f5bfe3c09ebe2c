/** Suites and packs: the stored suites with their scenario maps, validation, adding a folder, and the packs. */

import { useRef, useState } from 'react';
import { useFocusOnError } from '../../a11y/focus.js';
import type { SuiteSummary, ValidationReport } from '../../../shared/api/contract.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { Busy } from '../../components/ProgressBar.js';
import { PreviewLegend, ScenarioPreview } from '../../components/ScenarioPreview.js';
import { count, shortHash } from '../../components/format.js';
import { PacksPanel } from './PacksPanel.js';

export function SuitesView() {
  const suites = useQuery((a) => a['suites.list']({}), 'suites', ['suites']);
  const [selected, setSelected] = useState<string | null>(null);
  const current = suites.data?.find((s) => s.suiteHash === selected) ?? suites.data?.[0] ?? null;

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Suites and packs</h1>
        <p>A suite is a folder of scenarios; a pack freezes a suite and a manifest for official scoring.</p>
      </header>
      <ErrorMessage error={suites.error} />
      <div className="split">
        <div className="card list-card">
          <h2>Suites</h2>
          {suites.data === null ? (
            <Busy label="Loading suites…" />
          ) : suites.data.length === 0 ? (
            <EmptyState title="No suite yet.">Add a suite folder below.</EmptyState>
          ) : (
            <ul className="select-list" aria-label="Suites">
              {suites.data.map((s) => (
                <li key={s.suiteHash}>
                  {/* A list of buttons (not a listbox): each is its own tab stop, the one shown marked as current. */}
                  <button type="button" aria-current={current?.suiteHash === s.suiteHash ? 'true' : undefined} className={current?.suiteHash === s.suiteHash ? 'selected' : ''} onClick={() => setSelected(s.suiteHash)}>
                    <strong>{s.suiteId}</strong>
                    <span className="muted small">
                      v{s.suiteVersion} · {count(s.scenarioCount, 'scenario')} · {s.source}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <AddSuiteForm onAdded={(s) => setSelected(s.suiteHash)} />
        </div>
        {current !== null && <SuiteDetail key={current.suiteHash} suite={current} />}
      </div>
      <PacksPanel />
    </section>
  );
}

function AddSuiteForm({ onAdded }: { onAdded: (suite: SuiteSummary) => void }) {
  const api = useApi();
  const [dir, setDir] = useState('');
  const add = useAction<SuiteSummary>();
  const form = useRef<HTMLFormElement>(null);
  useFocusOnError(add.error, form);
  return (
    <form
      ref={form}
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void add.run(() => api['suites.add']({ dir: dir.trim() })).then((s) => s && (onAdded(s), setDir('')));
      }}
    >
      <h3>Add a suite folder</h3>
      <Field label="Folder" field="dir" error={add.error} hint="The full path of a folder with manifest.json, on the machine the workbench runs on.">
        {(p) => <input {...p} value={dir} onChange={(e) => setDir(e.target.value)} placeholder="e.g. /home/me/scenarios/my-suite" />}
      </Field>
      <ErrorMessage error={add.error?.field === undefined ? add.error : null} onDismiss={add.clear} />
      <button type="submit" disabled={add.busy || dir.trim() === ''}>
        {add.busy ? 'Validating and adding…' : 'Add suite'}
      </button>
    </form>
  );
}

/** Maps drawn at first: a generated suite can hold hundreds of scenarios. */
const PREVIEW_LIMIT = 24;

function SuiteDetail({ suite }: { suite: SuiteSummary }) {
  const api = useApi();
  const detail = useQuery((a) => a['suites.get']({ suiteHash: suite.suiteHash }), suite.suiteHash, ['suites']);
  const validate = useAction<ValidationReport>();
  const [report, setReport] = useState<ValidationReport | null>(null);
  const [showAll, setShowAll] = useState(false);
  return (
    <div className="card grow">
      <div className="card-head">
        <div>
          <h2>{suite.suiteId}</h2>
          <span className="muted small">
            suite hash <code>{shortHash(suite.suiteHash)}</code> · {suite.visibility} · seeds {suite.seedRole} · families {suite.families.join(', ')}
          </span>
        </div>
        <button type="button" disabled={validate.busy} onClick={() => void validate.run(() => api['suites.validate']({ suiteHash: suite.suiteHash })).then(setReport)}>
          {validate.busy ? 'Validating…' : 'Validate'}
        </button>
      </div>
      <ErrorMessage error={validate.error} onDismiss={validate.clear} />
      {report !== null && <div className={report.valid ? 'notice ok' : 'notice bad'}>{report.message}</div>}
      <ErrorMessage error={detail.error} />
      {detail.data === null ? (
        detail.error === null && <Busy label="Loading scenarios…" />
      ) : (
        <>
          <PreviewLegend />
          <div className="previews">
            {detail.data.scenarios.slice(0, showAll ? undefined : PREVIEW_LIMIT).map((s) => (
              <div key={s.scenarioId} className="preview-card">
                <h3>{s.title}</h3>
                <div className="muted small">
                  {s.scenarioId} · {s.families.join(', ')}
                </div>
                <ScenarioPreview text={s.text} source={s.scenarioId} maxWidth={300} />
              </div>
            ))}
          </div>
          {!showAll && detail.data.scenarios.length > PREVIEW_LIMIT && (
            <button type="button" className="show-all" onClick={() => setShowAll(true)}>
              Show all {detail.data.scenarios.length} scenarios
            </button>
          )}
        </>
      )}
    </div>
  );
}
