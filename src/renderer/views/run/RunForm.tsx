/** The form that starts an evaluation (runs.start), with each field's error shown on that field. */

import { useRef, useState } from 'react';
import { useFocusOnError } from '../../a11y/focus.js';
import { useAction, useApi, useQuery } from '../../app/api-context.js';
import { useRememberedState } from '../../app/remembered-state.js';
import { ErrorMessage } from '../../components/ErrorMessage.js';
import { Field } from '../../components/Field.js';
import { count, shortHash } from '../../components/format.js';
import type { ApiError } from '../../../shared/api/result.js';
import { AgentFields, EMPTY_AGENT, agentChoice, isApiError, type AgentDraft } from './AgentFields.js';

/** Fields the form shows; an error naming another field is shown above the Start button. */
const FORM_FIELDS = ['manifestHash', 'packDigest', 'agent', 'modelId', 'jobs', 'actTimeoutMs', 'trials'];

export function RunForm({ defaultJobs, onStarted }: { defaultJobs: number | null; onStarted: (trialId: number) => void }) {
  const api = useApi();
  const manifests = useQuery((a) => a['manifests.list']({}), 'manifests', ['manifests']);
  const packs = useQuery((a) => a['packs.list']({}), 'packs', ['packs']);
  const agents = useQuery((a) => a['agents.list']({}), 'agents', []);
  const [manifestHash, setManifestHash] = useRememberedState('run.manifestHash', '');
  const [packDigest, setPackDigest] = useRememberedState('run.packDigest', '');
  const [agent, setAgent] = useRememberedState<AgentDraft>('run.agent', EMPTY_AGENT);
  const [modelId, setModelId] = useRememberedState('run.modelId', '');
  const [jobs, setJobs] = useRememberedState('run.jobs', '');
  const [deadline, setDeadline] = useRememberedState('run.deadline', '30');
  const [trials, setTrials] = useRememberedState('run.trials', '1');
  const start = useAction<{ trialId: number }>();
  const [localError, setLocalError] = useState<ApiError | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const builtins = agents.data?.builtins ?? [];
  const chosenManifest = manifestHash !== '' ? manifestHash : (manifests.data?.[0]?.manifestHash ?? '');
  const packsOfManifest = (packs.data ?? []).filter((p) => p.manifestHash === chosenManifest);
  const choice = agentChoice(agent, builtins);
  // The model ID defaults to a baseline's own name (as in the README's examples) or the language model's name.
  const defaultModel = isApiError(choice) ? '' : choice.kind === 'builtin' ? choice.id : choice.kind === 'openai-chat' && typeof choice.config.model === 'string' ? choice.config.model : '';
  const model = modelId.trim() !== '' ? modelId.trim() : defaultModel;
  const jobsValue = jobs.trim() === '' ? (defaultJobs ?? 1) : Number(jobs);
  const error = localError ?? start.error;
  // A refused Start puts the focus on the field at fault (or on the message).
  useFocusOnError(error, form);
  const generalError = error !== null && (error.field === undefined || !FORM_FIELDS.some((f) => error.field === f || error.field!.startsWith(f + '.'))) ? error : null;

  return (
    <form
      ref={form}
      className="card form run-form"
      onSubmit={(e) => {
        e.preventDefault();
        setLocalError(isApiError(choice) ? choice : null);
        if (isApiError(choice)) return;
        void start
          .run(() =>
            api['runs.start']({
              manifestHash: chosenManifest,
              packDigest: packsOfManifest.some((p) => p.packDigest === packDigest) ? packDigest : null,
              agent: choice,
              modelId: model,
              jobs: jobsValue,
              actTimeoutMs: Math.round(Number(deadline) * 1000),
              trials: Number(trials),
            }),
          )
          .then((r) => r && onStarted(r.trialId));
      }}
    >
      <h2>New evaluation</h2>
      <div className="form-grid">
        <Field label="Manifest" field="manifestHash" error={error} hint={manifests.data?.length === 0 ? 'No manifest yet: create one in Manifests.' : 'The episodes to run.'}>
          {(p) => (
            <select {...p} value={chosenManifest} onChange={(e) => setManifestHash(e.target.value)}>
              {manifests.data?.map((m) => (
                <option key={m.manifestHash} value={m.manifestHash}>
                  {m.suiteId} · {count(m.episodeCount, 'episode')} · {shortHash(m.manifestHash)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Environment pack (optional)" field="packDigest" error={error} hint="With a pack the trial is scored officially against it.">
          {(p) => (
            <select {...p} value={packDigest} onChange={(e) => setPackDigest(e.target.value)}>
              <option value="">None (unofficial score)</option>
              {packsOfManifest.map((pk) => (
                <option key={pk.packDigest} value={pk.packDigest}>
                  {pk.packId}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <AgentFields
        draft={agent}
        onChange={(next) => {
          // Another kind of agent shows other fields: an error about the old kind's field would highlight nothing.
          if (next.kind !== agent.kind) {
            start.clear();
            setLocalError(null);
          }
          setAgent(next);
        }}
        builtins={builtins}
        error={error}
      />
      <div className="form-grid three">
        <Field label="Model ID" field="modelId" error={error} hint="The name the trial is archived and scored under.">
          {(p) => <input {...p} value={modelId} onChange={(e) => setModelId(e.target.value)} placeholder={defaultModel !== '' ? defaultModel : 'e.g. my-model-v1'} spellCheck={false} />}
        </Field>
        <Field label="Concurrent episodes" field="jobs" error={error} hint={defaultJobs === null ? undefined : `Default ${defaultJobs} for this machine.`}>
          {(p) => <input {...p} type="number" min={1} value={jobs} onChange={(e) => setJobs(e.target.value)} placeholder={String(defaultJobs ?? 1)} />}
        </Field>
        {/* A language model's calls have their own deadline (request_timeout_ms in its configuration): the act deadline does not apply. */}
        {agent.kind !== 'openai-chat' && (
          <Field label="Deadline per act (seconds)" field="actTimeoutMs" error={error} hint="An agent slower than this on one step fails the episode with a timeout.">
            {(p) => <input {...p} type="number" min={0.001} step="any" value={deadline} onChange={(e) => setDeadline(e.target.value)} />}
          </Field>
        )}
        <Field label="Trials" field="trials" error={error} hint="Runs of the same configuration, one after another, each its own trial (3 or more for a stochastic model).">
          {(p) => <input {...p} type="number" min={1} max={20} value={trials} onChange={(e) => setTrials(e.target.value)} />}
        </Field>
      </div>
      <ErrorMessage error={generalError} onDismiss={() => (start.clear(), setLocalError(null))} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={start.busy || chosenManifest === ''}>
          {start.busy ? 'Starting…' : 'Start evaluation'}
        </button>
        {error !== null && error.field !== undefined && generalError === null && <span className="bad-text">Correct the highlighted field.</span>}
      </div>
    </form>
  );
}
