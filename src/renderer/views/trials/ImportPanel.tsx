/** Importing a result file made by `emberbench evaluation run`: authenticated by the services, refused whole if anything is wrong. */

import { useState } from 'react';
import { useAction, useApi } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Busy } from '../../components/ProgressBar.js';
import { splitImportFiles } from './import-files.js';

export function ImportPanel({ onOpen }: { onOpen: (trialId: number) => void }) {
  const api = useApi();
  const imp = useAction<{ trialId: number; duplicate: boolean }>();
  const [done, setDone] = useState<{ trialId: number; duplicate: boolean; fileName: string } | null>(null);
  const [reading, setReading] = useState(false);

  // The result, and optionally its operational record (named *.operational.json by `evaluation run`), chosen together.
  async function onFiles(files: readonly File[]) {
    setDone(null);
    const { result, operational, signature, problem } = splitImportFiles(files);
    if (result === undefined) {
      void imp.run(() => Promise.resolve({ ok: false, error: { kind: 'usage', message: problem } }));
      return;
    }
    setReading(true);
    let text: string;
    let record: { fileName: string; text: string } | undefined;
    let signed: { fileName: string; text: string } | undefined;
    try {
      text = await result.text();
      record = operational === undefined ? undefined : { fileName: operational.name, text: await operational.text() };
      signed = signature === undefined ? undefined : { fileName: signature.name, text: await signature.text() };
    } finally {
      setReading(false);
    }
    const r = await imp.run(() => api['archive.import']({ fileName: result.name, text, ...(record === undefined ? {} : { operational: record }), ...(signed === undefined ? {} : { signature: signed }) }));
    if (r !== null) setDone({ ...r, fileName: result.name });
  }

  return (
    <div className="card">
      <h2>Import a result</h2>
      <p className="muted">
        Choose an evaluation result (<code>result.json</code>) written by <code>emberbench evaluation run</code>, and with it, if you have it, its operational record (
        <code>result.operational.json</code>: how the agent was isolated, its time and tokens) and its signatures (<code>result.sig.json</code>, from <code>emberbench result sign</code>). Every episode is replayed and checked before anything is stored; a
        file that fails is refused with the reason.
      </p>
      <div className="form-actions">
        <label className="file-button">
          <input
            type="file"
            accept=".json,application/json"
            multiple
            disabled={imp.busy || reading}
            aria-label="Choose a result file to import"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              if (files.length > 0) void onFiles(files);
            }}
          />
          Choose a result file (and its operational record, signatures)…
        </label>
        {reading && <Busy label="Reading the file…" />}
        {imp.busy && <Busy label="Authenticating: replaying every episode of the result…" />}
      </div>
      <ErrorMessage error={imp.error} onDismiss={imp.clear} />
      {done !== null && (
        <div className="notice ok" role="status">
          {done.duplicate ? `${done.fileName} is already in the archive.` : `${done.fileName} imported.`}{' '}
          <button type="button" className="link" onClick={() => onOpen(done.trialId)}>
            Open the trial →
          </button>
        </div>
      )}
    </div>
  );
}
