/** Exports a trial's artifacts into a new folder on the services' machine, byte-identical to the CLI's files. */

import { useState } from 'react';
import type { ExportedFile } from '../../../shared/api/contract.js';
import { useAction, useApi } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';

export function ExportPanel({ trialId }: { trialId: number }) {
  const api = useApi();
  const [outDir, setOutDir] = useState('');
  const exp = useAction<{ dir: string; files: readonly ExportedFile[] }>();
  const [done, setDone] = useState<{ dir: string; files: readonly ExportedFile[] } | null>(null);
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        void exp.run(() => api['archive.export']({ trialId, outDir: outDir.trim() })).then(setDone);
      }}
    >
      <h2>Export</h2>
      <Field label="New folder" field="outDir" error={exp.error} hint="The full path of a folder that does not exist yet (its parent must), on the machine the workbench runs on; the result, manifest and score report are written there exactly as the CLI writes them.">
        {(p) => <input {...p} value={outDir} onChange={(e) => setOutDir(e.target.value)} placeholder="e.g. /home/me/exports/trial" spellCheck={false} />}
      </Field>
      <ErrorMessage error={exp.error?.field === undefined ? exp.error : null} onDismiss={exp.clear} />
      <div className="form-actions">
        <button type="submit" disabled={exp.busy || outDir.trim() === ''}>
          {exp.busy ? 'Exporting…' : 'Export trial'}
        </button>
      </div>
      {done !== null && (
        <div className="notice ok" role="status">
          Wrote {done.files.length} files to <code>{done.dir}</code>:
          <ul className="plain small">
            {done.files.map((f) => (
              <li key={f.file}>
                <code>{f.file}</code> <span className="muted">sha256 {f.sha256.slice(0, 16)}…</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
