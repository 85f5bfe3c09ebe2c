/**
 * The Generate view's form over the configuration text. The text is the one
 * source of truth (the raw JSON editor edits it directly); each form control
 * reads one value from it and writes one value back, so both stay in step.
 * The checks are the generator's own, in the services: a value the form
 * cannot read as an integer is written as typed, and the services answer
 * with the configuration field at fault.
 */

import type { ApiError } from '../../../shared/api/result.js';

export type JsonPath = readonly (string | number)[];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type ConfigObject = { [key: string]: Json };

/** The configuration object, or why the text is not one. */
export function readConfig(text: string): { ok: true; value: ConfigObject } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'the configuration must be a JSON object' };
  return { ok: true, value: value as ConfigObject };
}

export function getAt(value: Json | undefined, path: JsonPath): Json | undefined {
  let at: Json | undefined = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? (typeof key === 'number' ? at[key] : undefined) : typeof key === 'string' ? at[key] : undefined;
  }
  return at;
}

/** A copy of `root` with the value at `path` replaced (or removed, for `undefined`); missing containers are made. */
export function setAt(root: Json, path: JsonPath, next: Json | undefined): Json {
  if (path.length === 0) return next ?? null;
  const [key, ...rest] = path;
  if (typeof key === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    if (rest.length === 0 && next === undefined) list.splice(key, 1);
    else list[key] = setAt(list[key] ?? null, rest, next);
    return list;
  }
  const obj: { [key: string]: Json } = root !== null && typeof root === 'object' && !Array.isArray(root) ? { ...root } : {};
  if (rest.length === 0 && next === undefined) delete obj[key!];
  else obj[key!] = setAt(obj[key!] ?? null, rest, next);
  return obj;
}

/**
 * The configuration as text in the shipped files' layout: one field per
 * line, each family entry on one line, so the raw editor stays readable
 * after the form has written to it.
 */
export function formatConfig(value: ConfigObject): string {
  const lines = Object.entries(value).map(([key, v]) => {
    if (Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object')) {
      return `  ${JSON.stringify(key)}: [\n${v.map((x) => `    ${inline(x)}`).join(',\n')}\n  ]`;
    }
    return `  ${JSON.stringify(key)}: ${inline(v)}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

function inline(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** What a numeric control writes: an integer when the input is one, else the text as typed (the services name the field). */
export function numberInput(text: string): Json {
  return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text;
}

/** The configuration path of a path list, as the services write it: `families[2].rows[0]`. */
export function pathText(path: JsonPath): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/**
 * True when the error is about the configuration value at `path` or inside
 * it (`families[2]` covers `families[2].rows[0]`). An error about a whole
 * range (`families[2].rows`) covers both of its ends.
 */
export function configFault(error: ApiError | null, path: JsonPath): boolean {
  const field = error?.field;
  if (field === undefined || !field.startsWith('configText.')) return false;
  const at = field.slice('configText.'.length);
  const mine = pathText(path);
  if (at === mine || at.startsWith(mine + '.') || at.startsWith(mine + '[')) return true;
  // The range itself is at fault and `path` is one of its ends.
  return typeof path[path.length - 1] === 'number' && at === pathText(path.slice(0, -1));
}
