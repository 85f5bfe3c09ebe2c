// Compares the TypeScript episode score and decimal functions with the Python
// reference (score_reference.py, Python's decimal / libmpdec), digit for digit.
// python3 runs once per suite on all inputs.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { canonicalJson, type JsonValue } from '../../src/core/json/canonical.js';
import { SCORING_CONSTANTS } from '../../src/core/scoring/constants.js';
import { dec, div, exp, ln, pow, toExact } from '../../src/core/scoring/decimal.js';
import { episodeScoreDigits, scoreEpisode, type EpisodeScoreInput, type HazardInput, type RatioInput } from '../../src/core/scoring/episode-score.js';
import { Xoshiro128ss } from '../../src/core/world/rng.js';

const SCRIPT = fileURLToPath(new URL('./score_reference.py', import.meta.url));

function runPython(lines: readonly string[]): string[] {
  let stdout: string;
  try {
    stdout = execFileSync('python3', [SCRIPT], { input: lines.join('\n') + '\n', maxBuffer: 1 << 28, encoding: 'utf8' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error('python3 is required by this test (the Python reference of the episode score) but was not found on PATH');
    throw error;
  }
  const out = stdout.trimEnd().split('\n');
  if (out.length !== lines.length) throw new Error(`python3 answered ${out.length} lines for ${lines.length} inputs`);
  return out;
}

/** Seeded generator of score inputs that covers the corners of the formula. */
class Cases {
  private readonly rng = new Xoshiro128ss([0x454d4245, 0x52203130, 0x73636f72, 0x65000001]);

  private below(n: number): number {
    if (n <= 0x1_0000_0000) return this.rng.uniform(n);
    // Two draws for bounds above 2^32 (every bound here is below 2^53).
    const high = Math.floor(n / 0x1_0000_0000);
    for (;;) {
      const v = this.rng.uniform(high + 1) * 0x1_0000_0000 + this.rng.next();
      if (v < n) return v;
    }
  }

  between(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  chance(percent: number): boolean {
    return this.rng.uniform(100) < percent;
  }

  maxEvacuated(): number {
    const kind = this.rng.uniform(100);
    if (kind < 20) return this.between(1, 10);
    if (kind < 60) return this.between(11, 1000);
    if (kind < 85) return this.between(1001, 1_000_000);
    return this.between(1_000_001, 1_000_000_000_000);
  }

  /** Avoidable casualties and stranded with c + s <= m. */
  losses(m: number): [number, number] {
    const kind = this.rng.uniform(100);
    const split = (total: number): [number, number] => {
      const c = this.between(0, total);
      return [c, total - c];
    };
    if (kind < 15) return [0, 0];
    if (kind < 35) {
      // 1 + c or 1 + s near a power of two.
      const k = this.between(0, Math.max(0, Math.floor(Math.log2(m))));
      const n = Math.min(m, Math.max(0, 2 ** k - 1 + this.between(-1, 1)));
      const other = this.between(0, Math.min(m - n, 3));
      return this.chance(50) ? [n, other] : [other, n];
    }
    if (kind < 50) return split(Math.min(m, Math.ceil(m / 2) - 1 + this.between(0, 1))); // at the gate
    if (kind < 70) return split(Math.min(m, this.between(1, 5)));
    return split(this.between(0, m));
  }

  ratio(): RatioInput {
    const kind = this.rng.uniform(100);
    const den = this.between(1, this.chance(50) ? 1000 : 1_000_000_000_000);
    if (kind < 15) return { bound: den, actual: den };
    if (kind < 30) {
      const big = this.between(2, 1_000_000_000_000);
      return { bound: big - this.between(1, 3), actual: big };
    }
    if (kind < 50) {
      const half = this.between(1, 1_000_000);
      return { bound: Math.max(0, half + this.between(-1, 1)), actual: 2 * half };
    }
    if (kind < 60) return { bound: 1, actual: 10 ** this.between(1, 15) };
    if (kind < 61) return { bound: 0, actual: den };
    return { bound: this.between(1, den), actual: den };
  }

  hazard(): HazardInput {
    const steps = this.between(1, this.chance(50) ? 1000 : 1_000_000_000_000);
    const kind = this.rng.uniform(100);
    let avoidable: number;
    if (kind < 20) avoidable = 0;
    else if (kind < 45) avoidable = Math.max(0, Math.min(steps, Math.floor(steps / 4) + this.between(-1, 1)));
    else if (kind < 50) avoidable = steps - this.between(0, Math.min(steps, 2));
    else avoidable = this.between(0, steps);
    const fewest = this.between(0, 1000);
    return { dangerStates: fewest + avoidable, fewestDangerStates: fewest, evacuationSteps: steps };
  }

  episode(): EpisodeScoreInput {
    if (this.chance(1)) {
      return { maxEvacuated: 0, population: this.between(0, 50), evacuated: 0, avoidableCasualties: 0, avoidableStranded: 0, time: null, hazard: null, path: null, replanning: null };
    }
    const m = this.maxEvacuated();
    const [c, s] = this.losses(m);
    const evacuated = m - c - s;
    const some = evacuated > 0;
    return {
      maxEvacuated: m,
      population: m + (this.chance(50) ? 0 : this.between(1, m)),
      evacuated,
      avoidableCasualties: c,
      avoidableStranded: s,
      time: some ? this.ratio() : null,
      hazard: some ? this.hazard() : null,
      path: some ? this.ratio() : null,
      replanning: this.chance(40) ? null : this.ratio(),
    };
  }

  /** A valid episode broken in one way the validator must reject. */
  invalid(): EpisodeScoreInput {
    let e = this.episode();
    while (e.evacuated === 0) e = this.episode();
    switch (this.rng.uniform(5)) {
      case 0:
        return { ...e, time: { bound: 11, actual: 10 } };
      case 1:
        return { ...e, evacuated: Number(e.evacuated) + 1 };
      case 2:
        return { ...e, hazard: { dangerStates: 3, fewestDangerStates: 4, evacuationSteps: 10 } };
      case 3:
        return { ...e, avoidableStranded: -1 };
      default:
        return { ...e, path: null };
    }
  }

  digits(n: number): string {
    let text = String(this.between(1, 9));
    for (let i = 1; i < n; i++) text += String(this.rng.uniform(10));
    return text;
  }

  /** A decimal d.ddd...e<adjusted exponent>. */
  decimal(maxDigits: number, expLo: number, expHi: number): string {
    const d = this.digits(this.between(1, maxDigits));
    return `${d[0]}.${d.slice(1)}0e${this.between(expLo, expHi)}`;
  }
}

type Operation = { op: 'ln' | 'exp'; x: string } | { op: 'pow' | 'div'; x: string; y: string };

function operations(cases: Cases, n: number): Operation[] {
  const ops: Operation[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 7) {
      case 0:
        ops.push({ op: 'ln', x: cases.decimal(60, -70, 10) });
        break;
      case 1:
        ops.push({ op: 'ln', x: cases.chance(50) ? `1.${'0'.repeat(cases.between(0, 40))}${cases.digits(cases.between(1, 20))}` : `0.${'9'.repeat(cases.between(1, 40))}${cases.digits(cases.between(1, 20))}` });
        break;
      case 2:
        ops.push({ op: 'exp', x: (cases.chance(50) ? '-' : '') + cases.decimal(55, -60, 2) });
        break;
      case 3:
        ops.push({ op: 'pow', x: cases.decimal(50, -20, 1), y: String(cases.between(-3, 12)) });
        break;
      case 4:
        ops.push({ op: 'pow', x: cases.decimal(50, -20, 1), y: (cases.chance(50) ? '-' : '') + cases.decimal(50, -51, 0) });
        break;
      case 5:
        ops.push({ op: 'pow', x: `0.${cases.digits(cases.between(1, 50))}`, y: cases.decimal(50, -51, 1) });
        break;
      default:
        ops.push({ op: 'div', x: cases.decimal(60, -10, 10), y: cases.decimal(60, -10, 10) });
    }
  }
  return ops;
}

const WIDE = Decimal.clone({ precision: 70, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

/**
 * Operations whose correctly rounded value a different algorithm would
 * likely miss: ln and exp within about 1e-19 ulp of a tie, integer squares
 * whose 53-digit intermediate ends in 500 (libmpdec's double rounding), and
 * exact non-integer powers that are ties (no exact-result detection).
 */
function nearTies(cases: Cases, n: number): Operation[] {
  const ops: Operation[] = [];
  for (let i = 0; i < n; i++) {
    // A tie at 50 digits: 51 significant digits ending in 5.
    const tie = new WIDE(`${cases.digits(50)}5e${cases.between(-60, -48)}`);
    ops.push({ op: 'exp', x: WIDE.ln(tie).toString() });
    if (tie.lt(100)) ops.push({ op: 'ln', x: WIDE.exp(tie).toString() });
  }
  for (let found = 0; found < n; ) {
    const b = BigInt(cases.digits(50));
    const square = (b * b).toString();
    const rest = BigInt(square.slice(53) || '0');
    const half = 5n * 10n ** BigInt(Math.max(0, square.length - 54));
    let head = BigInt(square.slice(0, 53));
    if (rest > half || (rest === half && (head & 1n) === 1n)) head += 1n;
    if (head % 1000n !== 500n) continue;
    ops.push({ op: 'pow', x: `0.${b}`, y: '2' });
    found++;
  }
  // s^n with s = d.5 and n odd, of 51 digits: (s^2)^(n/2) is an exact tie.
  for (let found = 0; found < n; ) {
    const s = `${cases.between(1, 99)}5`;
    const places = cases.between(1, s.length);
    const odd = 2 * cases.between(10, 60) + 1;
    const power = (BigInt(s) ** BigInt(odd)).toString().replace(/0+$/, '');
    if (power.length !== 51) continue;
    const base = new WIDE(`${s}e-${places}`);
    ops.push({ op: 'pow', x: base.times(base).toFixed(), y: String(odd / 2) });
    found++;
  }
  return ops;
}

function evaluate(o: Operation): string {
  const x = dec(o.x);
  switch (o.op) {
    case 'ln':
      return toExact(ln(x));
    case 'exp':
      return toExact(exp(x));
    case 'pow':
      return toExact(pow(x, dec(o.y)));
    case 'div':
      return toExact(div(x, dec(o.y)));
  }
}

function tsResult(input: EpisodeScoreInput): unknown {
  try {
    return { result: scoreEpisode(input), digits: episodeScoreDigits(input) };
  } catch (error) {
    if (error instanceof ValidationError) return { error: 'rejected' };
    throw error;
  }
}

describe('the episode score equals the Python decimal reference', () => {
  it('which uses the official constants', () => {
    const [constants] = runPython([JSON.stringify({ op: 'constants' })]);
    const python = JSON.parse(constants!) as Record<string, unknown>;
    for (const [key, value] of Object.entries(python)) expect([key, value]).toEqual([key, SCORING_CONSTANTS[key as keyof typeof SCORING_CONSTANTS]]);
    expect(Object.keys(python).length).toBeGreaterThanOrEqual(11);
  });

  it('on 10,000 seeded random inputs: the report values and all 50 digits of every unrounded value (and rejects the same broken inputs)', () => {
    const cases = new Cases();
    const inputs: EpisodeScoreInput[] = [];
    for (let i = 0; i < 10_000; i++) inputs.push(i % 100 === 99 ? cases.invalid() : cases.episode());
    const python = runPython(inputs.map((e) => JSON.stringify(e)));
    const statuses = new Map<string, number>();
    const severe = new Set<string>();
    for (let i = 0; i < inputs.length; i++) {
      const expected = JSON.parse(python[i]!) as { error?: string; result?: { status: string; severe: string[] } };
      const actual = tsResult(inputs[i]!);
      const normalized = expected.error === undefined ? expected : { error: 'rejected' };
      if (canonicalJson(actual as JsonValue) !== canonicalJson(normalized as JsonValue)) {
        expect({ index: i, input: inputs[i], actual }).toEqual({ index: i, input: inputs[i], actual: normalized });
      }
      const key = expected.result?.status ?? 'rejected';
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      for (const k of expected.result?.severe ?? []) severe.add(k);
    }
    // The generator reaches every status and every severe component.
    expect([...statuses.keys()].sort()).toEqual(['catastrophic', 'not_applicable', 'rejected', 'scored']);
    expect(statuses.get('scored')!).toBeGreaterThan(4000);
    expect([...severe].sort()).toEqual(['hazard', 'path', 'replanning', 'time']);
  }, 240_000); // 10,000 Python round trips: ~25 s alone, several times that on a busy machine

  it('on 3,500 seeded ln, exp, pow and div operations and 400 near ties, every digit', () => {
    const cases = new Cases();
    const ops = [...operations(cases, 3500), ...nearTies(cases, 100)];
    const python = runPython(ops.map((o) => JSON.stringify(o)));
    const mismatches = ops.map((o, i) => ({ o, ts: evaluate(o), py: JSON.parse(python[i]!) as string })).filter((r) => r.ts !== r.py);
    expect(mismatches).toEqual([]);
  });
});
