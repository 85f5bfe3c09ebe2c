/**
 * Generate: a generator configuration (a form over its JSON text, and the
 * text itself for power users), a batch seed, map previews of what they give,
 * and Freeze, which stores the batch as a generated suite listed beside the
 * public suite. The same generator and checks as `emberbench generated
 * create` (docs/generated-suites.md): the services name the configuration
 * field at fault and this view marks its control.
 */

import { useEffect, useRef, useState, type RefObject } from 'react';
import { SEED_ROLES, SUITE_VISIBILITIES } from '../../../core/world/suite.js';
import type { Outputs } from '../../../shared/api/contract.js';
import { useFocusOn, useFocusOnInvalid } from '../../a11y/focus.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import type { Navigate } from '../../app/navigate.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { Busy } from '../../components/ProgressBar.js';
import { PreviewLegend, ScenarioPreview } from '../../components/ScenarioPreview.js';
import { count, shortHash } from '../../components/format.js';
import { FamilyTable } from './FamilyTable.js';
import { configFault, formatConfig, getAt, readConfig, setAt, type ConfigObject, type JsonPath } from './generate-form.js';
import './generate.css';

type Preview = Outputs['generated.preview'];
type Frozen = Outputs['generated.create'];

/** Maps drawn per preview: enough to judge a configuration, few enough to draw at once. */
const PREVIEW_LIMIT = 12;

export function GenerateView({ go }: { go: Navigate }) {
  const api = useApi();
  const shipped = useQuery((a) => a['generated.defaultConfig']({}), 'generated-default', []);
  const [configText, setConfigText] = useState<string | null>(null);
  const [batchSeed, setBatchSeed] = useState('1');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [frozen, setFrozen] = useState<Frozen | null>(null);
  const previewing = useAction<Preview>();
  const freezing = useAction<Frozen>();

  // The form starts from the shipped default configuration, once it arrives.
  useEffect(() => {
    if (configText === null && shipped.data !== null) setConfigText(shipped.data.configText);
  }, [configText, shipped.data]);

  const text = configText ?? '';
  const read = readConfig(text);
  const defaults = shipped.data === null ? null : readConfig(shipped.data.configText);
  const error = freezing.error ?? previewing.error;

  function edit(next: string) {
    setConfigText(next);
    // What is on screen must be what the configuration gives: an edit retires the preview and the last answer.
    setPreview(null);
    setFrozen(null);
    previewing.clear();
    freezing.clear();
  }

  function setValue(path: JsonPath, value: Parameters<typeof setAt>[2]) {
    if (read.ok) edit(formatConfig(setAt(read.value, path, value) as ConfigObject));
  }

  const input = { configText: text, batchSeed: batchSeed.trim() };
  const runPreview = () => void previewing.run(() => api['generated.preview']({ ...input, limit: PREVIEW_LIMIT })).then((p) => p !== null && setPreview(p));
  const runFreeze = () => void freezing.run(() => api['generated.create'](input)).then((f) => f !== null && setFrozen(f));
  const busy = previewing.busy || freezing.busy;
  // After Preview the focus goes to the preview's heading, after Freeze to its notice, after a refusal to the control at fault.
  const configCard = useRef<HTMLDivElement>(null);
  const frozenNotice = useRef<HTMLDivElement>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  useFocusOn(preview, previewHeading);
  useFocusOn(frozen, frozenNotice);
  useFocusOnInvalid(error, configCard);

  return (
    <section className="view">
      <header className="view-header">
        <h1 tabIndex={-1}>Generate</h1>
        <p>Generate a batch of scenarios from a configuration and a batch seed, look at their maps, then freeze the batch into a suite you can make manifests of and evaluate.</p>
      </header>
      <ErrorMessage error={shipped.error} />
      <div className="card" ref={configCard}>
        <h2>Configuration</h2>
        {configText === null ? (
          shipped.error === null && <Busy label="Loading the default configuration…" />
        ) : (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              runPreview();
            }}
          >
            {read.ok ? (
              <>
                <div className="form-grid generate-top">
                  <Field label="Batch seed" field="batchSeed" error={error} hint="0 to 18446744073709551615; the same configuration and seed give the same files everywhere.">
                    {(p) => <input {...p} value={batchSeed} onChange={(e) => (setBatchSeed(e.target.value), setPreview(null), setFrozen(null))} autoComplete="off" spellCheck={false} />}
                  </Field>
                  <TextSetting label="Suite ID" path={['suite_id']} config={read.value} error={error} onSet={setValue} />
                  <TextSetting label="Suite version" path={['suite_version']} config={read.value} error={error} onSet={setValue} />
                  <ChoiceSetting label="Visibility" path={['visibility']} choices={SUITE_VISIBILITIES} config={read.value} error={error} onSet={setValue} />
                  <ChoiceSetting label="Seed role" path={['seed_role']} choices={SEED_ROLES} config={read.value} error={error} onSet={setValue} />
                </div>
                <FamilyTable config={read.value} defaults={defaults?.ok === true ? defaults.value : null} error={error} onSet={setValue} />
              </>
            ) : (
              <div className="notice bad">The JSON below does not parse ({read.message}): correct it there to use the form again.</div>
            )}
            <details className="raw-config" open={!read.ok || error?.field === 'configText' ? true : undefined}>
              <summary>Configuration JSON (generator_config_version 1.0)</summary>
              <Field label="Configuration JSON" field="configText" error={error?.field === 'configText' ? error : null} hint="Every field is required; unknown fields are refused. The form above writes here, and edits here show in the form.">
                {(p) => <textarea {...p} className="code" rows={16} value={text} onChange={(e) => edit(e.target.value)} spellCheck={false} />}
              </Field>
            </details>
            <ErrorMessage error={error} inlineFields={['batchSeed']} onDismiss={() => (previewing.clear(), freezing.clear())} />
            <div className="form-actions">
              <button type="submit" disabled={busy}>
                {previewing.busy ? 'Generating…' : 'Preview'}
              </button>
              <button type="button" disabled={busy || preview === null} title={preview === null ? 'Preview the batch first' : undefined} onClick={runFreeze}>
                {freezing.busy ? 'Freezing…' : 'Freeze batch'}
              </button>
              <button type="button" className="link" disabled={busy || shipped.data === null} onClick={() => shipped.data !== null && edit(shipped.data.configText)}>
                Reset to the default configuration
              </button>
              {busy && <Busy label={freezing.busy ? 'Generating and storing the batch…' : 'Generating the batch…'} />}
            </div>
          </form>
        )}
        {frozen !== null && (
          <div className="notice ok" role="status" tabIndex={-1} ref={frozenNotice} data-testid="frozen-notice">
            Batch <code>{frozen.batchId}</code> frozen as suite <strong>{frozen.suite.suiteId}</strong> (suite hash <code title={frozen.suite.suiteHash}>{shortHash(frozen.suite.suiteHash)}</code>, {count(frozen.suite.scenarioCount, 'scenario')}), listed as generated in{' '}
            <button type="button" className="link" onClick={() => go({ view: 'suites' })}>
              Suites and packs
            </button>
            .{' '}
            <button type="button" className="link" onClick={() => go({ view: 'manifests' })}>
              Make a manifest of it →
            </button>
          </div>
        )}
      </div>
      {preview !== null && <PreviewCard preview={preview} heading={previewHeading} />}
    </section>
  );
}

function PreviewCard({ preview, heading }: { preview: Preview; heading: RefObject<HTMLHeadingElement | null> }) {
  return (
    <div className="card" aria-label="Preview">
      <div className="card-head">
        <div>
          <h2 tabIndex={-1} ref={heading}>
            Preview of batch {preview.batchId}
          </h2>
          <span className="muted small">
            {count(preview.scenarioCount, 'scenario')} · configuration hash <code>{shortHash(preview.configHash)}</code>
            {preview.scenarios.length < preview.scenarioCount && ` · the first ${preview.scenarios.length} shown`}
          </span>
        </div>
      </div>
      <PreviewLegend />
      <div className="previews">
        {preview.scenarios.map((s) => (
          <div key={s.scenarioId} className="preview-card">
            <h3>{s.scenarioId}</h3>
            <div className="muted small">
              {s.families.join(', ')} · <code>{shortHash(s.scenarioHash)}</code>
            </div>
            <ScenarioPreview text={s.text} source={s.scenarioId} maxWidth={300} />
          </div>
        ))}
      </div>
    </div>
  );
}

type Setter = (path: JsonPath, value: string) => void;
type ApiErrorOrNull = Parameters<typeof configFault>[0];

function TextSetting({ label, path, config, error, onSet }: { label: string; path: JsonPath; config: ConfigObject; error: ApiErrorOrNull; onSet: Setter }) {
  const value = getAt(config, path);
  return (
    <Field label={label} field={`configText.${path.join('.')}`} error={configFault(error, path) ? error : null}>
      {(p) => <input {...p} value={typeof value === 'string' ? value : ''} onChange={(e) => onSet(path, e.target.value)} autoComplete="off" spellCheck={false} />}
    </Field>
  );
}

function ChoiceSetting({ label, path, choices, config, error, onSet }: { label: string; path: JsonPath; choices: readonly string[]; config: ConfigObject; error: ApiErrorOrNull; onSet: Setter }) {
  const value = getAt(config, path);
  const current = typeof value === 'string' ? value : '';
  return (
    <Field label={label} field={`configText.${path.join('.')}`} error={configFault(error, path) ? error : null}>
      {(p) => (
        <select {...p} value={current} onChange={(e) => onSet(path, e.target.value)}>
          {!choices.includes(current) && <option value={current}>{current === '' ? '(missing)' : current}</option>}
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
