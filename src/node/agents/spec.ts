/**
 * Agent specifications from the command line and module resolution.
 *
 * `--agent builtin:<id>` names a baseline, `--agent MODULE:EXPORT` a JS/TS
 * module found ONLY in the `--agent-path` directories (never the current
 * directory, never NODE_PATH: the current directory must not decide which
 * agent code runs, cli-v1.0.md "Agent factories"), and
 * `--agent-command "<program and args>"` an executable on the line protocol.
 */

import { readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { BASELINE_IDS, baselineFactory, isBaselineId } from '../../core/baselines/registry.js';
import { AgentError, UsageError } from '../../core/errors.js';
import type { AgentFactory } from '../../core/sim/agent.js';
import type { AgentIsolation } from './sandbox-options.js';
import type { LlmAgentOptions } from './openai-chat/session.js';

export type AgentSpec =
  | { readonly kind: 'builtin'; readonly id: string }
  | { readonly kind: 'module'; readonly module: string; readonly exportName: string }
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  /** `builtin:openai-chat --agent-config FILE`: the chat-completions adapter (openai-chat/session.ts). */
  | { readonly kind: 'llm'; readonly options: LlmAgentOptions };

/**
 * An opened agent: `factory` builds a fresh agent per episode (call the
 * agent's `close()` when the episode ends so its process is released);
 * `close()` ends every process the session started.
 */
export interface AgentSession {
  readonly factory: AgentFactory;
  close(): Promise<void>;
  /** A factory for the episode of manifest index `index` (the LLM adapter names its transcript by it); default `factory`. */
  readonly factoryFor?: (index: number) => AgentFactory;
  /** Episodes the in-thread runner may run at once with this session (network-bound agents); default 1. */
  readonly episodesInFlight?: number;
  /**
   * How the agent's code is isolated (sandbox.ts): `sandboxed` (bubblewrap)
   * or `none` (the user's full rights). Absent for builtins, which are the
   * evaluator's own code running in its process.
   */
  readonly isolation?: AgentIsolation;
}

/** The factory to use for manifest episode `index`. */
export function episodeFactory(session: AgentSession, index: number): AgentFactory {
  return session.factoryFor?.(index) ?? session.factory;
}

// ---------------------------------------------------------------------------
// Builtin baselines

/** The builtin agent ids (baselines_version 1.0). */
export function builtinAgentIds(): readonly string[] {
  return BASELINE_IDS;
}

/** The in-process factory of a builtin baseline; UsageError for an unknown id. */
export function builtinAgentFactory(id: string): AgentFactory {
  const factory = baselineFactory(id);
  if (factory === undefined) throw unknownBuiltin(id);
  return factory;
}

function unknownBuiltin(id: string): UsageError {
  return new UsageError(`unknown builtin agent "${id}"; builtin agents: ${BASELINE_IDS.join(', ')}`);
}

// ---------------------------------------------------------------------------
// --agent

const IDENTIFIER = '[A-Za-z_$][A-Za-z0-9_$]*';
const EXPORT_PATH = new RegExp(`^${IDENTIFIER}(\\.${IDENTIFIER})*$`);
const MODULE_SEGMENT = /^[A-Za-z0-9_.@-]+$/;

/** Module extensions the host can import, in the order a bare name tries them. */
export const AGENT_MODULE_EXTENSIONS: readonly string[] = ['.mjs', '.js', '.ts', '.mts', '.cjs'];

function malformed(text: string, why: string): UsageError {
  return new UsageError(`malformed --agent "${text}": ${why}; expected builtin:<id> or MODULE:EXPORT (for example my_agents:makeAgent)`);
}

/** Parses `--agent`: `builtin:<id>` or `MODULE:EXPORT`. Anything else is a UsageError (exit 2). */
export function parseAgentSpec(text: string): AgentSpec {
  const colon = text.indexOf(':');
  if (colon < 0) throw malformed(text, 'no ":"');
  const left = text.slice(0, colon);
  const right = text.slice(colon + 1);
  if (left === 'builtin') {
    if (!isBaselineId(right)) throw unknownBuiltin(right);
    return { kind: 'builtin', id: right };
  }
  if (right.includes(':')) throw malformed(text, 'more than one ":"');
  if (!EXPORT_PATH.test(right)) throw malformed(text, `EXPORT "${right}" is not an ASCII identifier path (a or a.b)`);
  const segments = left.split('/');
  for (const segment of segments) {
    if (!MODULE_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw malformed(
        text,
        `MODULE "${left}" must be a relative module name of ASCII segments [A-Za-z0-9_.@-] separated by "/", without "." or ".." segments`,
      );
    }
  }
  return { kind: 'module', module: left, exportName: right };
}

// ---------------------------------------------------------------------------
// --agent-command

/**
 * Splits `--agent-command` into argv with simple shell-like quoting; no shell
 * ever runs it. Outside quotes a backslash takes the next character
 * literally; inside '...' everything is literal; inside "..." a backslash
 * escapes only `"` and `\`. Whitespace separates words.
 */
export function parseAgentCommand(text: string): AgentSpec {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += ch;
    } else if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      if (ch === "'" || ch === '"') quote = ch;
      else if (ch === '\\') {
        if (i + 1 >= text.length) throw new UsageError(`malformed --agent-command "${text}": trailing backslash`);
        word += text[++i];
      } else word += ch;
    }
  }
  if (quote !== undefined) throw new UsageError(`malformed --agent-command "${text}": unterminated ${quote} quote`);
  if (inWord) argv.push(word);
  if (argv.length === 0) throw new UsageError('malformed --agent-command: empty command');
  if (argv[0] === '') throw new UsageError(`malformed --agent-command "${text}": empty program name`);
  return { kind: 'command', argv };
}

// ---------------------------------------------------------------------------
// Module resolution

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function hasModuleExtension(module: string): boolean {
  return AGENT_MODULE_EXTENSIONS.some((ext) => module.endsWith(ext));
}

/** A target of package.json "exports" for the import side; undefined if none applies. */
function exportsTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = exportsTarget(item);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if ('.' in record) return exportsTarget(record['.']);
  // A conditions object: the conditions Node's ESM loader would match.
  for (const condition of ['import', 'node', 'default']) {
    if (condition in record) {
      const target = exportsTarget(record[condition]);
      if (target !== undefined) return target;
    }
  }
  return undefined;
}

/** The entry file of a package directory: "exports" ".", then "main", then index.*. */
function packageEntry(dir: string): string | undefined {
  if (!isDirectory(dir)) return undefined;
  const root = resolve(dir);
  const candidates: string[] = [];
  const manifest = join(root, 'package.json');
  if (isFile(manifest)) {
    let pkg: unknown;
    try {
      pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch (error) {
      throw new AgentError('model_error', `cannot import agent package ${dir}: package.json is not valid JSON (${(error as Error).message})`);
    }
    if (typeof pkg === 'object' && pkg !== null) {
      const record = pkg as Record<string, unknown>;
      const target = exportsTarget(record.exports);
      if (target !== undefined) candidates.push(target);
      if (typeof record.main === 'string') candidates.push(record.main);
    }
  }
  for (const ext of AGENT_MODULE_EXTENSIONS) candidates.push('index' + ext);
  for (const candidate of candidates) {
    const file = resolve(root, candidate);
    // A package entry must stay inside its package.
    if (file !== root && !file.startsWith(root + sep)) continue;
    if (isFile(file)) return file;
  }
  return undefined;
}

function resolveIn(dir: string, module: string): string | undefined {
  const base = join(dir, ...module.split('/'));
  if (hasModuleExtension(module)) {
    if (isFile(base)) return base;
  } else {
    for (const ext of AGENT_MODULE_EXTENSIONS) {
      if (isFile(base + ext)) return base + ext;
    }
  }
  return packageEntry(base) ?? packageEntry(join(dir, 'node_modules', ...module.split('/')));
}

/**
 * The absolute file of an agent module, searching only `agentPaths` in order.
 * In each directory DIR: DIR/MODULE if MODULE has an extension, else
 * DIR/MODULE.mjs, .js, .ts, .mts, .cjs; then DIR/MODULE as a package
 * directory; then DIR/node_modules/MODULE. Not found -> AgentError model_error.
 */
export function resolveAgentModule(module: string, agentPaths: readonly string[]): string {
  for (const dir of agentPaths) {
    const found = resolveIn(resolve(dir), module);
    if (found !== undefined) return found;
  }
  const where = agentPaths.length === 0 ? 'no --agent-path directory was given' : `not found in --agent-path dirs ${agentPaths.join(', ')}`;
  throw new AgentError('model_error', `cannot import agent module ${module}: ${where}; ${moduleHint(module, agentPaths)}`);
}

/**
 * What to do about a module that is not found. The spec's examples name
 * Python modules (`my_agents:make_agent`); here a module is JavaScript or
 * TypeScript and a Python agent is a program on the line protocol.
 */
function moduleHint(module: string, agentPaths: readonly string[]): string {
  const kinds = `agent modules are JavaScript or TypeScript (${AGENT_MODULE_EXTENSIONS.join(', ')})`;
  const names = [...new Set([`${module}.py`, `${module.split('.').join('/')}.py`])];
  for (const dir of agentPaths.length === 0 ? ['.'] : agentPaths) {
    const python = names.find((name) => isFile(join(dir, name)));
    if (python !== undefined) {
      const file = join(dir, python);
      return `${file} is a Python file, but ${kinds}: run a Python agent with --agent-command "python3 ${file}" (docs/agents.md)`;
    }
  }
  return `${kinds}; a Python agent runs with --agent-command "python3 FILE.py" (docs/agents.md)`;
}

/**
 * The agent module's file, when it resolves: it is an input too, so an
 * output can never overwrite the agent's code. Resolving only looks at
 * files; an unresolvable module is reported when the agent is opened (exit 4).
 */
export function agentModuleInputs(spec: AgentSpec, agentPaths: readonly string[]): string[] {
  if (spec.kind !== 'module') return [];
  try {
    return [resolveAgentModule(spec.module, agentPaths)];
  } catch {
    return [];
  }
}
