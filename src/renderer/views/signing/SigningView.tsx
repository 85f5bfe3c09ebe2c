/**
 * Signing keys (settings): the app's own Ed25519 key, made here or imported
 * from `emberbench keys create`, kept in the app's data folder as a 0600 key
 * file (never in the archive); its secret is never shown or sent back. And
 * the trust list: the public keys whose signatures make an official result,
 * bundle or trial "signed by a trusted key" (docs/bundles.md).
 */

import { useRef, useState } from 'react';
import type { SigningStatus } from '../../../shared/api/contract.js';
import { useFocusOn, useFocusOnError } from '../../a11y/focus.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';

function OwnKey({ status, onChange }: { status: SigningStatus; onChange: (s: SigningStatus) => void }) {
  const api = useApi();
  const act = useAction<SigningStatus>();
  const [passphrase, setPassphrase] = useState('');
  const [replace, setReplace] = useState(false);
  // What the last action did, said where the focus goes next (the button pressed may vanish or go disabled);
  // shown while the status is the one that action left (a change in the trust list below retires it).
  const [notice, setNotice] = useState<{ text: string; after: SigningStatus } | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  useFocusOn(notice, noticeRef);
  useFocusOnError(act.error, card);
  const done = (what: string) => (s: SigningStatus | null) => {
    setPassphrase('');
    if (s === null) return;
    setReplace(false);
    onChange(s);
    setNotice({ text: what + (s.key === null ? '' : ` Fingerprint ${s.key.fingerprint}.`), after: s });
  };
  const pass = passphrase === '' ? {} : { passphrase };
  async function onImport(file: File) {
    setNotice(null);
    const text = await file.text();
    done(`Imported the key from ${file.name}.`)(await act.run(() => api['signing.importKey']({ text, ...pass, replace })));
  }
  const key = status.key;
  return (
    <div className="card form" data-testid="own-key" ref={card}>
      <h2>This app's signing key</h2>
      {key === null ? (
        <p className="muted">No signing key yet. Make one here, or import a key file made by <code>emberbench keys create</code>. It is kept in {status.dataDir} (readable by you only), never in the archive.</p>
      ) : (
        <dl className="facts">
          <dt>Fingerprint</dt>
          <dd className="fingerprint" data-testid="own-fingerprint">{key.fingerprint}</dd>
          <dt>Public key</dt>
          <dd className="fingerprint" data-testid="own-public-key">{key.publicKey}</dd>
          <dt>Secret</dt>
          <dd>{key.sealed ? 'sealed with a passphrase (asked for when you sign)' : 'not sealed: protected by the file\'s permissions only'}; stored in {status.keyFile}, never shown</dd>
        </dl>
      )}
      <div className="form inline">
        <Field label="Passphrase (optional)" field="passphrase" error={act.error} hint="Seals a new key; opens an imported sealed key. Never stored.">
          {(p) => <input {...p} type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />}
        </Field>
        {key !== null && (
          <label className="check small" data-field="replace">
            <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace the current key (it is then gone)
          </label>
        )}
        <button type="button" disabled={act.busy || (key !== null && !replace)} onClick={() => (setNotice(null), void act.run(() => api['signing.createKey']({ ...pass, replace })).then(done(key === null ? 'Created a signing key.' : 'Replaced the signing key.')))}>
          {act.busy ? 'Working…' : 'Create signing key'}
        </button>
        <label className="file-button">
          <input
            type="file"
            accept=".json,.key,application/json"
            disabled={act.busy || (key !== null && !replace)}
            aria-label="Import a key file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file !== undefined) void onImport(file);
            }}
          />
          Import a key file…
        </label>
        {key !== null && !status.trusted.some((t) => t.publicKey === key.publicKey) && (
          <button type="button" disabled={act.busy} onClick={() => (setNotice(null), void act.run(() => api['trust.add']({ publicKey: key.publicKey, label: 'this app' })).then(done('Trusted this app\'s key as "this app".')))}>
            Trust this key
          </button>
        )}
      </div>
      <ErrorMessage error={act.error} onDismiss={act.clear} />
      {notice !== null && notice.after === status && (
        <div className="notice ok" role="status" tabIndex={-1} ref={noticeRef} data-testid="own-key-notice">
          {notice.text}
        </div>
      )}
    </div>
  );
}

function TrustList({ status, onChange }: { status: SigningStatus; onChange: (s: SigningStatus) => void }) {
  const api = useApi();
  const act = useAction<SigningStatus>();
  const [publicKey, setPublicKey] = useState('');
  const [label, setLabel] = useState('');
  const [notice, setNotice] = useState<{ text: string; after: SigningStatus } | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  useFocusOn(notice, noticeRef);
  useFocusOnError(act.error, card);
  return (
    <div className="card form" data-testid="trust-list" ref={card}>
      <h2>Trusted keys</h2>
      <p className="muted">
        A signature by a key listed here marks an official result, bundle or trial as signed by a trusted key. Public keys only; compare each fingerprint with the one its
        operator published. Removing a key revokes it everywhere at once.
      </p>
      {status.trusted.length === 0 ? (
        <p className="muted">No trusted keys.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Label</th>
              <th>Fingerprint</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {status.trusted.map((t) => (
              <tr key={t.publicKey} data-testid="trusted-key">
                <td>{t.label}</td>
                <td className="fingerprint" title={t.publicKey}>
                  {t.fingerprint}
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    disabled={act.busy}
                    aria-label={`Remove ${t.label}`}
                    onClick={() => {
                      setNotice(null);
                      void act.run(() => api['trust.remove']({ publicKey: t.publicKey })).then((s) => {
                        if (s === null) return;
                        onChange(s);
                        setNotice({ text: `Removed "${t.label}" (${t.fingerprint}): its signatures are no longer trusted.`, after: s });
                      });
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="form inline"
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(null);
          const added = label.trim();
          void act.run(() => api['trust.add']({ publicKey: publicKey.trim(), label: added })).then((s) => {
            if (s === null) return;
            setPublicKey('');
            setLabel('');
            onChange(s);
            setNotice({ text: `Trusted "${added}".`, after: s });
          });
        }}
      >
        <Field label="Public key (64 hex digits, from emberbench keys show)" field="publicKey" error={act.error}>
          {(p) => <input {...p} value={publicKey} onChange={(e) => setPublicKey(e.target.value)} spellCheck={false} size={66} />}
        </Field>
        <Field label="Label" field="label" error={act.error}>
          {(p) => <input {...p} value={label} onChange={(e) => setLabel(e.target.value)} placeholder="e.g. Lab A operator" />}
        </Field>
        <button type="submit" disabled={act.busy || publicKey.trim() === ''}>
          Trust key
        </button>
      </form>
      <ErrorMessage error={act.error} onDismiss={act.clear} />
      {notice !== null && notice.after === status && (
        <div className="notice ok" role="status" tabIndex={-1} ref={noticeRef} data-testid="trust-notice">
          {notice.text}
        </div>
      )}
    </div>
  );
}

export function SigningView() {
  const query = useQuery((api) => api['signing.status']({}), 'signing', []);
  const [latest, setLatest] = useState<SigningStatus | null>(null);
  const status = latest ?? query.data;
  return (
    <section className="view">
      <h1 tabIndex={-1}>Signing keys</h1>
      <p className="muted">Sign official bundles with this app's key, and choose whose signatures you trust (docs/bundles.md, Signatures).</p>
      <ErrorMessage error={query.error} />
      {status !== null && (
        <>
          <OwnKey status={status} onChange={setLatest} />
          <TrustList status={status} onChange={setLatest} />
        </>
      )}
    </section>
  );
}
