/**
 * Manifests: an ordered list of episodes (every scenario of a suite with
 * every seed). Seed values are typed here once and never shown again, as in
 * the CLI: a manifest is listed by its hash, suite and counts.
 */

import { useRef, useState } from 'react';
import { useFocusOn, useFocusOnError } from '../../a11y/focus.js';
import type { ManifestSummary } from '../../../shared/api/contract.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { Busy } from '../../components/ProgressBar.js';
import { count, shortHash } from '../../components/format.js';
import { createBlockedReason, splitSeeds } from './seeds.js';

export function ManifestsView({ go }: { go: Navigate }) {
  const api = useApi();
  const suites = useQuery((a) => a['suites.list']({}), 'suites', ['suites']);
  const manifests = useQuery((a) => a['manifests.list']({}), 'manifests', ['manifests']);
  const [suiteHash, setSuiteHash] = useState('');
  const [seeds, setSeeds] = useState('');
  // `existed`: the archive held this manifest already (same suite and seeds give the same hash), so nothing new was made.
  const [created, setCreated] = useState<{ manifest: ManifestSummary; existed: boolean } | null>(null);
  const create = useAction<ManifestSummary>();
  const chosen = suiteHash !== '' ? suiteHash : (suites.data?.[0]?.suiteHash ?? '');
  const parts = splitSeeds(seeds);
  const blocked = createBlockedReason(chosen !== '', seeds);
  const form = useRef<HTMLFormElement>(null);
  const notice = useRef<HTMLDivElement>(null);
  useFocusOn(created, notice);
  useFocusOnError(create.error, form);

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Manifests</h1>
        <p>A manifest fixes which episodes an evaluation runs: every scenario of a suite with every seed, in order.</p>
      </header>
      <div className="card">
        <h2>New manifest</h2>
        <form
          ref={form}
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            setCreated(null);
            const known = new Set((manifests.data ?? []).map((m) => m.manifestHash));
            void create.run(() => api['manifests.create']({ suiteHash: chosen, seeds: parts })).then((m) => {
              if (m === null) return;
              setCreated({ manifest: m, existed: known.has(m.manifestHash) });
              setSeeds('');
            });
          }}
        >
          <Field label="Suite" field="suiteHash" error={create.error}>
            {(p) => (
              <select {...p} value={chosen} onChange={(e) => setSuiteHash(e.target.value)}>
                {suites.data?.length === 0 && <option value="">No suite: add one in Suites and packs</option>}
                {suites.data?.map((s) => (
                  <option key={s.suiteHash} value={s.suiteHash}>
                    {s.suiteId} v{s.suiteVersion} ({count(s.scenarioCount, 'scenario')})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Seeds" field="seeds" error={create.error} hint="Whole numbers from 0 to 18446744073709551615, or ranges such as 0..29, separated by commas or spaces.">
            {(p) => <input {...p} value={seeds} onChange={(e) => setSeeds(e.target.value)} placeholder="e.g. 0..29" autoComplete="off" spellCheck={false} />}
          </Field>
          <ErrorMessage error={create.error?.field === undefined ? create.error : null} onDismiss={create.clear} />
          <div className="form-actions">
            <button type="submit" disabled={create.busy || chosen === '' || parts.length === 0} aria-describedby={blocked !== null ? "manifest-blocked" : undefined}>
              {create.busy ? 'Creating…' : 'Create manifest'}
            </button>
            {blocked !== null && (
              <span className="hint" id="manifest-blocked" data-testid="manifest-blocked">
                {blocked}
              </span>
            )}
            {create.busy && <Busy label="Building the manifest…" />}
          </div>
        </form>
        {created !== null && (
          <div className="notice ok" role="status" tabIndex={-1} ref={notice} data-testid="manifest-created">
            Manifest <code>{shortHash(created.manifest.manifestHash)}</code> {created.existed ? 'already exists (the same suite and seeds): nothing new was made' : 'created'}:{' '}
            {count(created.manifest.episodeCount, 'episode')} ({count(created.manifest.scenarioCount, 'scenario')} × {count(created.manifest.seedCount, 'seed')}).{' '}
            <button type="button" className="link" onClick={() => go({ view: 'run' })}>
              Run an evaluation on it →
            </button>
          </div>
        )}
      </div>

      <div className="card">
        <h2>Manifests in the archive</h2>
        <ErrorMessage error={manifests.error} />
        {manifests.data === null ? (
          manifests.error === null && <Busy label="Loading manifests…" />
        ) : manifests.data.length === 0 ? (
          <EmptyState title="No manifest yet.">Choose a suite and seeds above; seed 0 alone makes a quick first evaluation.</EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Manifest hash</th>
                <th>Suite</th>
                <th className="num">Scenarios</th>
                <th className="num">Seeds</th>
                <th className="num">Episodes</th>
              </tr>
            </thead>
            <tbody>
              {manifests.data.map((m) => (
                <tr key={m.manifestHash}>
                  <td>
                    <code title={m.manifestHash}>{shortHash(m.manifestHash)}</code>
                  </td>
                  <td>{m.suiteId}</td>
                  <td className="num">{m.scenarioCount}</td>
                  <td className="num">{m.seedCount}</td>
                  <td className="num">{m.episodeCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
