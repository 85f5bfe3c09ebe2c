/** The agent of a run: a built-in baseline, a JavaScript module, or a command on the line protocol. */

import type { AgentChoice, BuiltinAgentInfo } from '../../shared/api/contract.js';
import type { ApiError } from '../../shared/api/result.js';
import { Field } from '../components/Field.js';

export type AgentKind = AgentChoice['kind'];

export interface AgentDraft {
  readonly kind: AgentKind;
  readonly builtin: string;
  readonly module: string;
  readonly exportName: string;
  readonly command: string;
  /** Folders the agent may load code from, one per line. */
  readonly paths: string;
}

export const EMPTY_AGENT: AgentDraft = { kind: 'builtin', builtin: '', module: '', exportName: 'makeAgent', command: '', paths: '' };

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

export function agentChoice(d: AgentDraft, builtins: readonly BuiltinAgentInfo[]): AgentChoice {
  switch (d.kind) {
    case 'builtin':
      return { kind: 'builtin', id: d.builtin !== '' ? d.builtin : (builtins[0]?.id ?? '') };
    case 'module':
      return { kind: 'module', module: d.module.trim(), exportName: d.exportName.trim(), agentPaths: lines(d.paths) };
    case 'command':
      return { kind: 'command', command: d.command.trim(), agentPaths: lines(d.paths) };
  }
}

const KINDS: readonly { kind: AgentKind; label: string }[] = [
  { kind: 'builtin', label: 'Baseline' },
  { kind: 'module', label: 'JS/TS module' },
  { kind: 'command', label: 'Command' },
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
            {(p) => <input {...p} value={draft.module} onChange={(e) => set({ module: e.target.value })} placeholder="my_agent" spellCheck={false} />}
          </Field>
          <Field label="Export" field="agent.exportName" error={error} hint="The exported function that makes the agent.">
            {(p) => <input {...p} value={draft.exportName} onChange={(e) => set({ exportName: e.target.value })} spellCheck={false} />}
          </Field>
        </>
      )}
      {draft.kind === 'command' && (
        <Field label="Command" field="agent.command" error={error} hint="A program that reads one JSON observation per line and writes one JSON action set per line.">
          {(p) => <input {...p} value={draft.command} onChange={(e) => set({ command: e.target.value })} placeholder="python3 agent.py" spellCheck={false} />}
        </Field>
      )}
      {draft.kind !== 'builtin' && (
        <Field label="Agent folders" field="agent.agentPaths" error={error} hint="Full paths on the machine the workbench runs on, one per line; the agent is loaded and run from there.">
          {(p) => <textarea {...p} rows={2} value={draft.paths} onChange={(e) => set({ paths: e.target.value })} placeholder="/home/me/agents" spellCheck={false} />}
        </Field>
      )}
    </fieldset>
  );
}
