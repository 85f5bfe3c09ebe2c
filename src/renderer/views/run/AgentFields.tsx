/** The agent of a run: a built-in baseline, a JavaScript module, a command on the line protocol, or a language model behind an OpenAI-compatible endpoint. */

import type { AgentChoice, BuiltinAgentInfo } from '../../../shared/api/contract.js';
import type { ApiError } from '../../../shared/api/result.js';
import { Field } from '../../components/Field.js';
import { LlmFields } from './LlmFields.js';

export type AgentKind = AgentChoice['kind'];

export interface AgentDraft {
  readonly kind: AgentKind;
  readonly builtin: string;
  readonly module: string;
  readonly exportName: string;
  readonly command: string;
  /** Folders the agent may load code from, one per line. */
  readonly paths: string;
  /** The language-model adapter's configuration as JSON text (docs/llm.md). */
  readonly llmConfig: string;
  readonly maxConnections: string;
}

/** A starting point for the adapter configuration: a local OpenAI-compatible server. */
const LLM_TEMPLATE = JSON.stringify(
  {
    base_url: 'http://127.0.0.1:8000/v1',
    model: 'Qwen/Qwen2.5-7B-Instruct',
    api_key_env: null,
    temperature: '0',
    top_p: '1',
    max_tokens: 1024,
    seed: 0,
    system_prompt_version: '1.0',
    adapter_version: '1.0',
    mode: 'planner',
    planner_interval: 5,
  },
  null,
  2,
);

export const EMPTY_AGENT: AgentDraft = { kind: 'builtin', builtin: '', module: '', exportName: 'makeAgent', command: '', paths: '', llmConfig: LLM_TEMPLATE, maxConnections: '8' };

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** The agent as the contract takes it, or the error of a field the page can check itself (the configuration's JSON syntax). */
export function agentChoice(d: AgentDraft, builtins: readonly BuiltinAgentInfo[]): AgentChoice | ApiError {
  switch (d.kind) {
    case 'builtin':
      return { kind: 'builtin', id: d.builtin !== '' ? d.builtin : (builtins[0]?.id ?? '') };
    case 'module':
      return { kind: 'module', module: d.module.trim(), exportName: d.exportName.trim(), agentPaths: lines(d.paths) };
    case 'command':
      return { kind: 'command', command: d.command.trim(), agentPaths: lines(d.paths) };
    case 'openai-chat': {
      let config: unknown;
      try {
        config = JSON.parse(d.llmConfig);
      } catch (error) {
        return { kind: 'usage', field: 'agent.config', message: `Adapter configuration: not JSON (${error instanceof Error ? error.message : String(error)})` };
      }
      if (typeof config !== 'object' || config === null || Array.isArray(config)) return { kind: 'usage', field: 'agent.config', message: 'Adapter configuration: must be a JSON object' };
      return { kind: 'openai-chat', config: config as Record<string, unknown>, maxConnections: Number(d.maxConnections) };
    }
  }
}

export function isApiError(value: AgentChoice | ApiError): value is ApiError {
  return 'message' in value;
}

const KINDS: readonly { kind: AgentKind; label: string }[] = [
  { kind: 'builtin', label: 'Baseline' },
  { kind: 'module', label: 'JS/TS module' },
  { kind: 'command', label: 'Command' },
  { kind: 'openai-chat', label: 'Language model' },
];

export function AgentFields({ draft, onChange, builtins, error }: { draft: AgentDraft; onChange: (d: AgentDraft) => void; builtins: readonly BuiltinAgentInfo[]; error: ApiError | null }) {
  const set = (patch: Partial<AgentDraft>) => onChange({ ...draft, ...patch });
  const chosenBuiltin = draft.builtin !== '' ? draft.builtin : (builtins[0]?.id ?? '');
  return (
    <fieldset className="fieldset">
      <legend>Agent</legend>
      <div className="segmented" role="radiogroup" aria-label="Kind of agent">
        {KINDS.map((k) => (
          <label key={k.kind} className={draft.kind === k.kind ? 'on' : ''}>
            <input type="radio" name="agent-kind" value={k.kind} checked={draft.kind === k.kind} onChange={() => set({ kind: k.kind })} />
            {k.label}
          </label>
        ))}
      </div>
      {draft.kind === 'builtin' && (
        <Field label="Baseline agent" field="agent.id" error={error} hint={builtins.find((b) => b.id === chosenBuiltin)?.description}>
          {(p) => (
            <select {...p} value={chosenBuiltin} onChange={(e) => set({ builtin: e.target.value })}>
              {builtins.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.id}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {draft.kind === 'module' && (
        <>
          <Field label="Module" field="agent.module" error={error} hint="The module file, relative to one of the folders below (my_agent or my_agent.js).">
            {(p) => <input {...p} value={draft.module} onChange={(e) => set({ module: e.target.value })} placeholder="e.g. my_agent" spellCheck={false} />}
          </Field>
          <Field label="Export" field="agent.exportName" error={error} hint="The exported function that makes the agent.">
            {(p) => <input {...p} value={draft.exportName} onChange={(e) => set({ exportName: e.target.value })} spellCheck={false} />}
          </Field>
        </>
      )}
      {draft.kind === 'command' && (
        <Field label="Agent command" field="agent.command" error={error} hint="A program that reads one JSON observation per line and writes one JSON action set per line.">
          {(p) => <input {...p} value={draft.command} onChange={(e) => set({ command: e.target.value })} placeholder="e.g. python3 agent.py" spellCheck={false} />}
        </Field>
      )}
      {draft.kind === 'openai-chat' && (
        <>
          <LlmFields text={draft.llmConfig} onText={(llmConfig) => set({ llmConfig })} error={error} />
          <Field label="Adapter configuration (JSON)" field="agent.config" error={error} hint="Every setting, as in an --agent-config file (see docs/llm.md); the fields above edit it. The API key stays in the environment variable named by api_key_env.">
            {(p) => <textarea {...p} className="code" rows={8} value={draft.llmConfig} onChange={(e) => set({ llmConfig: e.target.value })} spellCheck={false} />}
          </Field>
          <Field label="Model calls at once" field="agent.maxConnections" error={error} hint="How many requests may be in flight to the endpoint.">
            {(p) => <input {...p} type="number" min={1} max={256} value={draft.maxConnections} onChange={(e) => set({ maxConnections: e.target.value })} />}
          </Field>
        </>
      )}
      {(draft.kind === 'module' || draft.kind === 'command') && (
        <Field label="Agent folders" field="agent.agentPaths" error={error} hint="Full paths on the machine the workbench runs on, one per line; the agent is loaded and run from there.">
          {(p) => <textarea {...p} rows={2} value={draft.paths} onChange={(e) => set({ paths: e.target.value })} placeholder="e.g. /home/me/agents" spellCheck={false} />}
        </Field>
      )}
    </fieldset>
  );
}
