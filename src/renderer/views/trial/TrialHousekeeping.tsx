/**
 * A trial's housekeeping on its page (docs/app.md "Trial housekeeping"):
 * its label, tags and notes (kept in the archive beside the trial, never in
 * a result, a score or a digest), its run log, and deleting it after a
 * confirmation that names what goes.
 */

import { useEffect, useState } from 'react';
import type { TrialDetail, TrialLogEntry, TrialRow } from '../../../shared/api/contract.js';
import { useAction, useApi } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { dateTime, duration } from '../../components/format.js';

/** Tags as typed: separated by spaces or commas (a tag has neither). */
export function tagsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t !== '');
}

export function AnnotationsCard({ detail }: { detail: TrialDetail }) {
  const api = useApi();
  const t = detail.trial;
  const [label, setLabel] = useState(t.label);
  const [tags, setTags] = useState(t.tags.join(' '));
  const [notes, setNotes] = useState(detail.notes);
  const [saved, setSaved] = useState(false);
  const save = useAction<TrialRow>();
  // Another window (or a save here) changed them: show what the archive holds.
  useEffect(() => {
    setLabel(t.label);
    setTags(t.tags.join(' '));
    setNotes(detail.notes);
  }, [t.label, t.tags, detail.notes]);
  const dirty = label !== t.label || tags.trim() !== t.tags.join(' ') || notes !== detail.notes;
  return (
    <form
      className="card form"
      aria-label="Label, tags and notes"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        void save.run(() => api['trials.annotate']({ trialId: t.trialId, label: label.trim(), notes, tags: tagsOf(tags) })).then((row) => setSaved(row !== null));
      }}
    >
      <h2>Label, tags and notes</h2>
      <p className="muted small">Kept in the archive beside the trial. They change no result, score or digest, and exports stay byte-identical.</p>
      <Field label="Label" field="label" error={save.error} hint="One line, up to 200 characters.">
        {(p) => <input {...p} value={label} onChange={(e) => (setLabel(e.target.value), setSaved(false))} />}
      </Field>
      <Field label="Tags" field="tags" error={save.error} hint="Separated by spaces or commas; letters, digits and . _ : - only; up to 20.">
        {(p) => <input {...p} value={tags} onChange={(e) => (setTags(e.target.value), setSaved(false))} spellCheck={false} />}
      </Field>
      <Field label="Notes" field="notes" error={save.error} hint="Free text, up to 20,000 characters.">
        {(p) => <textarea {...p} rows={4} value={notes} onChange={(e) => (setNotes(e.target.value), setSaved(false))} />}
      </Field>
      <ErrorMessage error={save.error?.field === undefined ? save.error : null} onDismiss={save.clear} />
      <div className="form-actions">
        <button type="submit" disabled={save.busy || !dirty}>
          {save.busy ? 'Saving…' : 'Save'}
        </button>
        {!dirty && !saved && <span className="muted small">Nothing changed yet.</span>}
        {saved && !dirty && (
          <span className="notice ok" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}

export function RunLogCard({ log, durationMs }: { log: readonly TrialLogEntry[]; durationMs: number | null }) {
  return (
    <details className="card" open={log.some((e) => e.level !== 'info')}>
      <summary>
        Run log ({log.length} {log.length === 1 ? 'entry' : 'entries'}
        {durationMs === null ? '' : `, ran ${duration(durationMs)}`})
      </summary>
      {log.length === 0 ? (
        <p className="muted">Nothing logged: the trial was imported, or run before the workbench kept run logs.</p>
      ) : (
        <ol className="plain small run-log" data-testid="run-log">
          {log.map((e) => (
            <li key={e.seq} className={`log-${e.level}`}>
              <span className="muted">{dateTime(e.at)}</span> <span className={`pill ${e.level === 'failure' ? 'incomplete' : e.level === 'warning' ? 'interrupted' : 'complete'}`}>{e.level}</span>{' '}
              <span className="log-message">{e.message}</span>
            </li>
          ))}
        </ol>
      )}
      <p className="muted small">The last 200 entries are kept, each cut to 4096 characters (keeping its end, where an agent's stderr is).</p>
    </details>
  );
}

export function DeletePanel({ trial, onDeleted }: { trial: TrialRow; onDeleted: () => void }) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const del = useAction<{ readonly trialId: number }>();
  const running = trial.status === 'running';
  return (
    <div className="card form">
      <h2>Delete</h2>
      {running ? (
        <p className="muted">A running trial cannot be deleted: cancel its run in Run first.</p>
      ) : !confirming ? (
        <div className="form-actions">
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete trial…
          </button>
        </div>
      ) : (
        <div role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-what" className="notice warn">
          <p id="delete-title">
            <strong>
              Delete trial {trial.trialId} ({trial.modelId}{trial.label === '' ? '' : `, “${trial.label}”`})?
            </strong>
          </p>
          <p id="delete-what">
            This removes its {trial.episodesCompleted + trial.episodesFailed} stored episode{trial.episodesCompleted + trial.episodesFailed === 1 ? '' : 's'}, its result
            {trial.scoreRounded === null ? '' : `, its score report (${trial.scoreRounded})`}, its notes, tags and run log, and every stored record only this trial uses; records other
            trials share stay. It cannot be undone: export the trial first to keep its files.
          </p>
          <ErrorMessage error={del.error} onDismiss={del.clear} />
          <div className="form-actions">
            <button type="button" className="danger" disabled={del.busy} onClick={() => void del.run(() => api['trials.delete']({ trialId: trial.trialId })).then((r) => r !== null && onDeleted())}>
              {del.busy ? 'Deleting…' : `Delete trial ${trial.trialId}`}
            </button>
            <button type="button" disabled={del.busy} onClick={() => (setConfirming(false), del.clear())}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
