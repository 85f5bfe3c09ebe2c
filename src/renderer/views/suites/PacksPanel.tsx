/** Environment packs: build one from a manifest, verify a stored one. */

import { useState } from 'react';
import type { PackSummary, ValidationReport } from '../../../shared/api/contract.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { Busy } from '../../components/ProgressBar.js';
import { count, shortDateTime, shortHash } from '../../components/format.js';
import { readPackChecks, savePackCheck, type PackChecks } from './pack-checks.js';

export function PacksPanel() {
  const api = useApi();
  const packs = useQuery((a) => a['packs.list']({}), 'packs', ['packs']);
  const manifests = useQuery((a) => a['manifests.list']({}), 'manifests', ['manifests']);
  const [manifestHash, setManifestHash] = useState('');
  const build = useAction<PackSummary>();
  const verify = useAction<ValidationReport>();
  const [verified, setVerified] = useState<PackChecks>(() => readPackChecks());
  const chosen = manifestHash !== '' ? manifestHash : (manifests.data?.[0]?.manifestHash ?? '');

  return (
    <div className="card">
      <h2>Environment packs</h2>
      <form
        className="form inline"
        onSubmit={(e) => {
          e.preventDefault();
          void build.run(() => api['packs.build']({ manifestHash: chosen }));
        }}
      >
        <Field label="Manifest" field="manifestHash" error={build.error} hint="A pack freezes the suite and this manifest; official scores are computed against it.">
          {(p) => (
            <select {...p} value={chosen} onChange={(e) => setManifestHash(e.target.value)} disabled={(manifests.data?.length ?? 0) === 0}>
              {manifests.data?.length === 0 && <option value="">No manifest: create one in Manifests</option>}
              {manifests.data?.map((m) => (
                <option key={m.manifestHash} value={m.manifestHash}>
                  {m.suiteId} · {count(m.episodeCount, 'episode')} · {shortHash(m.manifestHash)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={build.busy || chosen === ''}>
          {build.busy ? 'Building pack…' : 'Build pack'}
        </button>
        {build.busy && <Busy label="Computing the references of every episode; this takes a while for large manifests." />}
      </form>
      <ErrorMessage error={build.error?.field === undefined ? build.error : null} onDismiss={build.clear} />
      <ErrorMessage error={verify.error} onDismiss={verify.clear} />
      {packs.data === null ? (
        packs.error === null ? <Busy label="Loading packs…" /> : <ErrorMessage error={packs.error} />
      ) : packs.data.length === 0 ? (
        <EmptyState title="No pack yet.">Choose a manifest above and build one to score trials officially.</EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Pack ID</th>
              <th>Manifest</th>
              <th className="num">Episodes</th>
              <th>Check</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {packs.data.map((p) => (
              <tr key={p.packDigest}>
                <td>
                  <code>{p.packId}</code>
                </td>
                <td>
                  <code>{shortHash(p.manifestHash)}</code>
                </td>
                <td className="num">{p.episodeCount}</td>
                <td>{verified[p.packDigest] === undefined ? <span className="muted">not checked</span> : <span className={verified[p.packDigest]!.valid ? 'ok-text' : 'bad-text'}>{verified[p.packDigest]!.message} <span className="muted small">(checked {shortDateTime(verified[p.packDigest]!.checkedAt)})</span></span>}</td>
                <td className="actions">
                  <button
                    type="button"
                    disabled={verify.busy}
                    onClick={() => void verify.run(() => api['packs.verify']({ packDigest: p.packDigest })).then((r) => r && setVerified((v) => savePackCheck(v, p.packDigest, r, new Date())))}
                  >
                    Verify
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
