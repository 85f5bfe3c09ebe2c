/**
 * What the person at the screen reads when an input is refused: the label of
 * the control they typed into and a plain sentence, never the contract's
 * internal field path (`agent.agentPaths`) or a schema library's wording
 * ("Too small: expected string to have >=1 characters"). Both the schema
 * check in dispatch and the services' own `field: problem` messages go
 * through here; the CLI writes flags instead (src/cli/field-flags.ts).
 */

/** Contract field (dotted path, array indexes dropped) -> the label its control shows. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  dir: 'Folder',
  bundleDir: 'Bundle folder of the report',
  outDir: 'New folder',
  outFile: 'New HTML report file',
  seeds: 'Seeds',
  batchSeed: 'Batch seed',
  configText: 'Configuration JSON',
  suiteHash: 'Suite',
  manifestHash: 'Manifest',
  packDigest: 'Environment pack',
  modelId: 'Model ID',
  jobs: 'Concurrent episodes',
  actTimeoutMs: 'Deadline per act',
  trials: 'Trials',
  agent: 'Agent',
  'agent.id': 'Baseline agent',
  'agent.module': 'Module',
  'agent.exportName': 'Export',
  'agent.agentPaths': 'Agent folders',
  agentPaths: 'Agent folders',
  'agent.command': 'Agent command',
  'agent.config': 'Adapter configuration',
  'agent.maxConnections': 'Model calls at once',
  passphrase: 'Passphrase',
  signedAt: 'Signed at',
  publicKey: 'Public key',
  label: 'Label',
  resamples: 'Resamples',
  trialId: 'Trial',
  a: 'Trials A',
  b: 'Trials B',
  text: 'File',
  fileName: 'File name',
  episodes: 'Episodes',
};

/** The label of a contract field: its own, else its parent's (`agent.agentPaths.0` -> "Agent folders"), else the path itself. */
export function fieldLabel(field: string): string {
  const parts = field.split('.').filter((p) => !/^\d+$/.test(p));
  for (let n = parts.length; n > 0; n--) {
    const label = FIELD_LABELS[parts.slice(0, n).join('.')];
    if (label !== undefined) return label;
  }
  return field;
}

/** The parts of a schema issue the sentence needs (zod 4's issue shape, kept structural so src/shared needs no zod types here). */
export interface SchemaIssue {
  readonly code: string;
  readonly message: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly input?: unknown;
  readonly expected?: string;
}

function plural(n: number | bigint, one: string): string {
  return `${String(n)} ${one}${Number(n) === 1 ? '' : 's'}`;
}

/** A plain sentence for a schema issue, without the label ("is required", "must be at most 20"). */
export function issueSentence(issue: SchemaIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'is required: it is empty' : `needs at least ${plural(issue.minimum ?? 1, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return Number(issue.minimum) <= 1 ? 'needs at least one entry' : `needs at least ${String(issue.minimum)} entries`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${plural(issue.maximum ?? 0, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `takes at most ${String(issue.maximum)} entries`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'int' || issue.expected === 'number') return 'must be a whole number';
      return `must be ${issue.expected === undefined ? 'of another type' : `a ${issue.expected}`}`;
    case 'invalid_format':
    case 'custom':
      // Messages written in contract.ts ("must be 64 lowercase hex digits") already read as sentences.
      return issue.message;
    case 'not_multiple_of':
    case 'invalid_value':
    case 'invalid_union':
      return 'is not one of the accepted values';
    case 'unrecognized_keys':
      return 'has a setting this form does not know';
    default:
      return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  }
}

/** The whole message of a refused schema input: "Module is required: it is empty." */
export function schemaMessage(field: string, issue: SchemaIssue): string {
  const subject = field === '' ? 'The request' : fieldLabel(field);
  return `${subject} ${issueSentence(issue)}.`;
}

/**
 * A service's `field: problem` message with the field written as its label
 * (`outDir: exists` -> `New folder: exists`); any other message is returned as is.
 */
export function labelledMessage(message: string, field: string | undefined): string {
  if (field === undefined) return message;
  const prefix = `${field}:`;
  if (!message.startsWith(prefix)) return message;
  return fieldLabel(field) + ':' + message.slice(prefix.length);
}
