/**
 * Official export of one model's trials (the Trial view) or two models' (the
 * Compare view): an official bundle written into a new folder on the
 * services' machine (export.bundle), re-authenticated from disk
 * (export.verifyBundle), and the self-contained HTML report of that bundle
 * with the episodes the user picks (export.htmlReport). The services refuse
 * an existing folder or file: nothing is ever overwritten.
 */

import { forwardRef, useRef, useState } from 'react';
import type { BundleSummary } from '../../shared/api/contract.js';
import { useFocusOn, useFocusOnError } from '../a11y/focus.js';
import { useAction, useApi } from '../app/api-context.js';
import { ErrorMessage } from './ErrorMessage.js';
import { Field } from './Field.js';
import { points } from './format.js';
import { SignerBadge, signerText } from './SignerBadge.js';
import '../replay/replay.css';

/** The report embeds at most this many replays (the services' limit too). */
const MAX_REPLAYS = 12;

export interface EpisodeChoice {
  readonly index: number;
  readonly label: string;
}

function NoOverwrite() {
  return <p className="muted small">Existing folders and files are never replaced: if one is refused because it exists, type a new name (or remove the old one yourself first).</p>;
}

const BundleNotice = forwardRef<HTMLDivElement, { summary: BundleSummary; verb: string }>(function BundleNotice({ summary, verb }, ref) {
  return (
    <div className="notice ok" role="status" data-testid="bundle-notice" tabIndex={-1} ref={ref}>
      {verb} <code>{summary.dir}</code>: pack {summary.packId}, {summary.files} files;{' '}
      {summary.models.map((m) => `${m.modelId} ${points(m.score)} (${m.trials} trial${m.trials === 1 ? '' : 's'})`).join(' vs ')}
      {summary.comparisonOutcome !== null && (
        <>
          {' '}
          · outcome <strong>{summary.comparisonOutcome}</strong>
        </>
      )}
      <div data-testid="bundle-signers">
        <SignerBadge signers={summary.signatures} /> {signerText(summary.signatures)}
        {summary.signatures?.map((s) => (
          <span key={s.publicKey} className="muted small">
            {' '}
            · <span className="fingerprint">{s.fingerprint}</span> signed at {s.signedAt}
          </span>
        ))}
      </div>
    </div>
  );
});

export function BundleExport({ a, b, official, episodes }: { a: readonly number[]; b: readonly number[]; official: boolean; episodes: readonly EpisodeChoice[] }) {
  const api = useApi();
  const [outDir, setOutDir] = useState('');
  const [sign, setSign] = useState(false);
  // The operator's signing time: "now" asks the services to read the clock, or a time typed in.
  const [signedAt, setSignedAt] = useState('now');
  const [passphrase, setPassphrase] = useState('');
  const [verifyDir, setVerifyDir] = useState('');
  const [htmlFile, setHtmlFile] = useState('');
  // The report's own bundle field: filled in by an export, never read from the Verify field.
  const [reportBundle, setReportBundle] = useState('');
  const [picked, setPicked] = useState<readonly number[]>([]);
  const bundle = useAction<BundleSummary>();
  const verify = useAction<BundleSummary>();
  const html = useAction<{ file: string; bytes: number; sha256: string }>();
  const [written, setWritten] = useState<BundleSummary | null>(null);
  const [verified, setVerified] = useState<BundleSummary | null>(null);
  const [report, setReport] = useState<{ file: string; bytes: number; sha256: string } | null>(null);
  const bundleDir = verifyDir.trim() !== '' ? verifyDir.trim() : (written?.dir ?? '');
  const reportBlocked = htmlReportBlocked(reportBundle, htmlFile);
  // Each part's result takes the focus when it arrives; a refusal sends it to the field at fault in that part.
  const parts = { bundle: useRef<HTMLDivElement>(null), verify: useRef<HTMLDivElement>(null), html: useRef<HTMLDivElement>(null) };
  const results = { written: useRef<HTMLDivElement>(null), verified: useRef<HTMLDivElement>(null), report: useRef<HTMLDivElement>(null) };
  useFocusOn(written, results.written);
  useFocusOn(verified, results.verified);
  useFocusOn(report, results.report);
  useFocusOnError(bundle.error, parts.bundle);
  useFocusOnError(verify.error, parts.verify);
  useFocusOnError(html.error, parts.html);

  if (!official) {
    return (
      <div className="card">
        <h2>Official bundle</h2>
        <p className="muted">Only trials scored against an environment pack (official) go into a bundle. Build a pack in Suites and packs, then run against it.</p>
      </div>
    );
  }
  return (
    <div className="card form" data-testid="bundle-export">
      <h2>Official bundle and shareable report</h2>
      <div className="form" ref={parts.bundle}>
        <form
          className="form inline"
          onSubmit={(e) => {
            e.preventDefault();
            setWritten(null);
            const signing = sign ? { sign: { signedAt: signedAt.trim(), ...(passphrase === '' ? {} : { passphrase }) } } : {};
            void bundle.run(() => api['export.bundle']({ a: [...a], b: [...b], outDir: outDir.trim(), ...signing })).then((s) => {
              setPassphrase('');
              setWritten(s);
              if (s !== null) {
                setVerifyDir(s.dir);
                setReportBundle(s.dir);
              }
            });
          }}
        >
          <Field label="New bundle folder" field="outDir" error={bundle.error} hint="Results, score reports, summaries, statistics, the comparison, the pack and an index of every file's digest, byte-identical to `emberbench bundle create`.">
            {(p) => <input {...p} value={outDir} onChange={(e) => setOutDir(e.target.value)} placeholder="e.g. /home/me/exports/bundle" spellCheck={false} />}
          </Field>
          <label className="check small" data-field="sign">
            <input type="checkbox" checked={sign} onChange={(e) => setSign(e.target.checked)} aria-label="Sign the bundle with this app's key" /> Sign with this app's key
          </label>
          {sign && (
            <>
              <Field label="Signed at" field="signedAt" error={bundle.error} hint="YYYY-MM-DDTHH:MM:SSZ (UTC), or now">
                {(p) => <input {...p} value={signedAt} onChange={(e) => setSignedAt(e.target.value)} spellCheck={false} size={22} />}
              </Field>
              <Field label="Key passphrase (sealed keys)" field="passphrase" error={bundle.error}>
                {(p) => <input {...p} type="password" autoComplete="off" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} size={16} />}
              </Field>
            </>
          )}
          <button type="submit" disabled={bundle.busy || outDir.trim() === ''}>
            {bundle.busy ? 'Writing…' : sign ? 'Export signed bundle' : 'Export bundle'}
          </button>
        </form>
        <ErrorMessage error={bundle.error} inlineFields={['outDir', 'signedAt', 'passphrase']} onDismiss={bundle.clear} />
        {bundle.error !== null && <NoOverwrite />}
        {written !== null && <BundleNotice summary={written} verb="Wrote" ref={results.written} />}
      </div>

      <div className="form" ref={parts.verify}>
        <form
          className="form inline"
          onSubmit={(e) => {
            e.preventDefault();
            setVerified(null);
            void verify.run(() => api['export.verifyBundle']({ dir: bundleDir })).then(setVerified);
          }}
        >
          <Field label="Bundle folder to verify" field="dir" error={verify.error} hint="Re-authenticates every file from disk: a changed, missing or extra file is named.">
            {(p) => <input {...p} value={verifyDir} onChange={(e) => setVerifyDir(e.target.value)} placeholder="e.g. /home/me/exports/bundle" spellCheck={false} />}
          </Field>
          <button type="submit" disabled={verify.busy || bundleDir === ''}>
            {verify.busy ? 'Verifying…' : 'Verify bundle'}
          </button>
        </form>
        <ErrorMessage error={verify.error} inlineFields={['dir']} onDismiss={verify.clear} />
        {verified !== null && <BundleNotice summary={verified} verb="Verified" ref={results.verified} />}
      </div>

      <div className="form" ref={parts.html}>
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            setReport(null);
            void html.run(() => api['export.htmlReport']({ bundleDir: reportBundle.trim(), outFile: htmlFile.trim(), ...(picked.length > 0 ? { episodes: [...picked].sort((x, y) => x - y) } : {}) })).then(setReport);
          }}
        >
          <fieldset className="pick-list" aria-label="Episodes to replay in the report">
            <legend className="small muted">
              Episodes replayed in the report ({picked.length} of at most {MAX_REPLAYS}; none picked: the three lowest-scoring)
            </legend>
            {episodes.map((e) => (
              <label key={e.index} className="check small">
                <input
                  type="checkbox"
                  checked={picked.includes(e.index)}
                  disabled={!picked.includes(e.index) && picked.length >= MAX_REPLAYS}
                  onChange={(ev) => setPicked(ev.target.checked ? [...picked, e.index] : picked.filter((x) => x !== e.index))}
                />
                {e.label}
              </label>
            ))}
          </fieldset>
          <div className="form inline">
            <Field label="Bundle folder of the report" field="bundleDir" error={html.error} hint="The bundle the report is made of: the one exported above, or any bundle folder.">
              {(p) => <input {...p} value={reportBundle} onChange={(e) => setReportBundle(e.target.value)} placeholder="e.g. /home/me/exports/bundle" spellCheck={false} />}
            </Field>
            <Field label="New HTML report file" field="outFile" error={html.error} hint="One self-contained file that opens offline in any browser (the same bytes as `emberbench report html`).">
              {(p) => <input {...p} value={htmlFile} onChange={(e) => setHtmlFile(e.target.value)} placeholder="e.g. /home/me/exports/report.html" spellCheck={false} />}
            </Field>
            <button type="submit" disabled={html.busy || reportBlocked !== null} aria-describedby={reportBlocked !== null ? 'html-report-blocked' : undefined}>
              {html.busy ? 'Writing…' : 'Write HTML report'}
            </button>
            {reportBlocked !== null && (
              <span className="hint" id="html-report-blocked" data-testid="html-report-blocked">
                {reportBlocked}
              </span>
            )}
          </div>
        </form>
        <ErrorMessage error={html.error} inlineFields={['bundleDir', 'outFile']} onDismiss={html.clear} />
        {html.error !== null && <NoOverwrite />}
        {report !== null && (
          <div className="notice ok" role="status" data-testid="report-notice" tabIndex={-1} ref={results.report}>
            Wrote <code>{report.file}</code> ({Math.round(report.bytes / 1024).toLocaleString()} KiB, sha256 {report.sha256.slice(0, 16)}…)
          </div>
        )}
      </div>
    </div>
  );
}

/** Why "Write HTML report" cannot be pressed yet, or null when it can. */
export function htmlReportBlocked(bundleDir: string, outFile: string): string | null {
  if (bundleDir.trim() === '') return 'Export a bundle above, or type the folder of one, to write its report.';
  if (outFile.trim() === '') return 'Type a new file name for the report.';
  return null;
}

export { downloadCsv } from './csv.js';
