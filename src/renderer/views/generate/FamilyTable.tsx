/**
 * The families of a generator configuration: one row per family kind, with
 * whether it is in the batch, its count and its [min, max] ranges. A row or
 * a range end the services named in their last error is marked.
 */

import { FAMILY_KINDS, MIN_SIZE, type FamilyKind } from '../../../core/generate/kinds.js';
import type { ApiError } from '../../../shared/api/result.js';
import { configFault, getAt, numberInput, type ConfigObject, type JsonPath } from './generate-form.js';

type Json = ReturnType<typeof numberInput>;

/** The ranges of a family entry, in the order of the columns. */
const RANGES = [
  ['rows', 'Rows'],
  ['cols', 'Columns'],
  ['people', 'People'],
  ['spread_permille', 'Spread ‰'],
  ['max_steps', 'Max steps'],
] as const;

/** A new entry for a family the configuration leaves out: the default configuration's, else a small valid one. */
export function newFamilyEntry(kind: FamilyKind, defaults: ConfigObject | null): Json {
  const shipped = (getAt(defaults, ['families']) as Json[] | undefined)?.find((f) => getAt(f, ['family']) === kind);
  if (shipped !== undefined) return shipped;
  const min = MIN_SIZE[kind];
  const rows = Math.max(min.rows, 12);
  const cols = Math.max(min.cols, 20);
  return { family: kind, count: 2, rows: [rows, rows + 4], cols: [cols, cols + 8], people: [10, 20], spread_permille: [100, 200], max_steps: [100, 130] };
}

export function FamilyTable({
  config,
  defaults,
  error,
  onSet,
}: {
  config: ConfigObject;
  defaults: ConfigObject | null;
  error: ApiError | null;
  /** Writes one value (undefined removes it). */
  onSet: (path: JsonPath, value: Json | undefined) => void;
}) {
  const entries = (Array.isArray(config['families']) ? config['families'] : []) as Json[];
  const indexOf = (kind: FamilyKind) => entries.findIndex((f) => getAt(f, ['family']) === kind);
  const shown = (v: Json | undefined) => (v === undefined || v === null || typeof v === 'object' ? '' : String(v));
  const total = entries.reduce<number>((sum, f) => sum + (typeof getAt(f, ['count']) === 'number' ? (getAt(f, ['count']) as number) : 0), 0);

  return (
    <div className={error?.field === 'configText.families' ? 'families invalid' : 'families'}>
      <table className="table family-table" aria-label="Families">
        <thead>
          <tr>
            <th>Family</th>
            <th className="num">Count</th>
            {RANGES.map(([key, label]) => (
              <th key={key} className="num" title="Inclusive range: min – max">
                {label} <span className="muted">min–max</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {FAMILY_KINDS.map((kind) => {
            const i = indexOf(kind);
            const on = i >= 0;
            const at = (...rest: (string | number)[]): JsonPath => ['families', i, ...rest];
            const input = (path: JsonPath, label: string) => (
              <input
                className="num-input"
                inputMode="numeric"
                aria-label={label}
                aria-invalid={configFault(error, path)}
                value={shown(getAt(config, path))}
                onChange={(e) => onSet(path, numberInput(e.target.value))}
              />
            );
            return (
              <tr key={kind} className={on && configFault(error, ['families', i]) ? 'invalid' : on ? '' : 'off'} data-family={kind}>
                <td>
                  <label className="family-name">
                    <input type="checkbox" checked={on} onChange={() => (on ? onSet(['families', i], undefined) : onSet(['families', entries.length], newFamilyEntry(kind, defaults)))} />
                    <code>{kind}</code>
                  </label>
                </td>
                <td className="num">{on && input(at('count'), `${kind} count`)}</td>
                {RANGES.map(([key, label]) => (
                  <td key={key} className="num">
                    {on && (
                      <span className="range">
                        {input(at(key, 0), `${kind} ${label} min`)}
                        <span aria-hidden="true">–</span>
                        {input(at(key, 1), `${kind} ${label} max`)}
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="muted small">
        {entries.length} of {FAMILY_KINDS.length} families, {total} scenarios in the batch. Each scenario draws its values uniformly from the inclusive ranges; spread is in thousandths (150 is a spread probability of 0.15).
      </div>
    </div>
  );
}
