/** Importing a result file made by `emberbench evaluation run`: authenticated by the services, refused whole if anything is wrong. */

import { useState } from 'react';
import { useAction, useApi } from '../app/api-context.js';
import { ErrorMessage } from '../components/ErrorMessage.js';
import { Busy } from '../components/ProgressBar.js';

export function ImportPanel({ onOpen }: { onOpen: (trialId: number) => void }) {
  const api = useApi();
  const imp = useAction<{ trialId: number; duplicate: boolean }>();
  const [done, setDone] = useState<{ trialId: number; duplicate: boolean; fileName: string } | null>(null);
  const [reading, setReading] = useState(false);

  async function onFile(file: File) {
    setDone(null);
    setReading(true);
    let text: string;
    try {
      text = await file.text();
    } finally {
      setReading(false);
    }
    const r = await imp.run(() => api['archive.import']({ fileName: file.name, text }));
    if (r !== null) setDone({ ...r, fileName: file.name });
  }

  return (
    <div className="card">
      <h2>Import a result</h2>
      <p className="muted">
        Choose an evaluation result (<code>result.json</code>) written by <code>emberbench evaluation run</code>. Every episode is replayed and checked before anything is stored; a
        file that fails is refused with the reason.
      </p>
      <div className="form-actions">
        <label className="file-button">
          <input
            type="file"
            accept=".json,application/json"
            disabled={imp.busy || reading}
            aria-label="Choose a result file to import"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file !== undefined) void onFile(file);
            }}
          />
          Choose a result file…
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
