/**
 * Test-only helpers for the reference and capacity-bound tests: a
 * brute-force forward search of the single-person optimum (an independent
 * check of the backward induction in references.ts) and a seeded random
 * small-world generator. Nothing in the library imports this file.
 */

import type { EpisodeObserver, EpisodeOutcome } from '../../src/core/sim/events.js';
import { EpisodeSimulation } from '../../src/core/sim/simulation.js';
import { EXIT, FLOOR, STAY, WALL, manhattan, neighbour, type CellPair, type Direction, type Grid } from '../../src/core/world/grid.js';
import { Xoshiro128ss } from '../../src/core/world/rng.js';
import type { EpisodeStart, FireWorld } from '../../src/core/world/scenario-types.js';
import { HAZARD_RADIUS, NO_ESCAPE, type References } from '../../src/core/scoring/references.js';

export interface BruteForceEscape {
  /** Earliest evacuation step, or NO_ESCAPE. */
  readonly earliest: number;
  /** Fewest moves of any escape, or NO_ESCAPE. */
  readonly fewestMoves: number;
  /** Fewest danger-zone person-states of any escape, or NO_ESCAPE. */
  readonly fewestDanger: number;
}

function burningAt(fire: FireWorld, cell: number, t: number): boolean {
  return fire.ignitionStep[cell]! <= t;
}

/** Danger-zone test by scanning every burning cell: 0 < d <= HAZARD_RADIUS. */
export function inDangerZoneBruteForce(grid: Grid, fire: FireWorld, cell: number, t: number): boolean {
  let nearest = Infinity;
  for (let b = 0; b < grid.kinds.length; b++) {
    if (burningAt(fire, b, t)) nearest = Math.min(nearest, manhattan(grid, cell, b));
  }
  return nearest > 0 && nearest <= HAZARD_RADIUS;
}

/**
 * Forward search over (cell, t) states from one start state: layer by layer,
 * keeping per reached cell the fewest moves and the fewest danger states so
 * far (the two objectives are minimized independently).
 */
export function bruteForceEscape(grid: Grid, fire: FireWorld, start: number, t0: number): BruteForceEscape {
  const H = fire.maxSteps;
  let earliest = NO_ESCAPE;
  let fewestMoves = NO_ESCAPE;
  let fewestDanger = NO_ESCAPE;
  if (grid.kinds[start] !== FLOOR || burningAt(fire, start, t0)) return { earliest, fewestMoves, fewestDanger };
  let layer = new Map<number, { moves: number; danger: number }>([[start, { moves: 0, danger: 0 }]]);
  for (let t = t0; t < H && layer.size > 0; t++) {
    const next = new Map<number, { moves: number; danger: number }>();
    for (const [x, { moves, danger }] of layer) {
      const here = danger + (inDangerZoneBruteForce(grid, fire, x, t) ? 1 : 0);
      const [r, c] = [Math.floor(x / grid.cols), x % grid.cols];
      const options: [number, number][] = [
        [x, 0],
        [r > 0 ? x - grid.cols : -1, 1],
        [c + 1 < grid.cols ? x + 1 : -1, 1],
        [r + 1 < grid.rows ? x + grid.cols : -1, 1],
        [c > 0 ? x - 1 : -1, 1],
      ];
      for (const [y, cost] of options) {
        if (y < 0 || grid.kinds[y] === WALL || burningAt(fire, y, t)) continue;
        if (grid.kinds[y] === EXIT) {
          earliest = Math.min(earliest, t + 1);
          fewestMoves = Math.min(fewestMoves, moves + cost);
          fewestDanger = Math.min(fewestDanger, here);
          continue;
        }
        if (burningAt(fire, y, t + 1)) continue;
        const old = next.get(y);
        if (old === undefined) next.set(y, { moves: moves + cost, danger: here });
        else next.set(y, { moves: Math.min(old.moves, moves + cost), danger: Math.min(old.danger, here) });
      }
    }
    layer = next;
  }
  return { earliest, fewestMoves, fewestDanger };
}

export interface RandomWorldSpec {
  readonly map: string[];
  readonly fire: { cell: CellPair; step: number }[];
  readonly people: CellPair[];
  readonly maxSteps: number;
}

/**
 * A random small world from a seed: walls, floor and at least one exit, a
 * random ignition step per flammable cell (or none), and people on floor
 * cells that do not burn at step 0 (each with probability `density`).
 */
export function randomWorld(seed: number, options: { rows: number; cols: number; maxSteps: number; density: number }): RandomWorldSpec {
  const rng = new Xoshiro128ss([seed >>> 0, 0x2545f491, 0x9e3779b9, 12345]);
  const { rows, cols, maxSteps } = options;
  const chars: string[][] = [];
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < cols; c++) {
      const u = rng.uniform(100);
      row.push(u < 22 ? '#' : u < 30 ? 'E' : '.');
    }
    chars.push(row);
  }
  if (!chars.some((row) => row.includes('E'))) chars[rng.uniform(rows)]![rng.uniform(cols)] = 'E';
  const fire: { cell: CellPair; step: number }[] = [];
  const people: CellPair[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ch = chars[r]![c]!;
      if (ch === '#') continue;
      // Most cells never burn; the rest ignite at a uniform step (fire is monotone by construction).
      const step = rng.uniform(3) === 0 ? rng.uniform(maxSteps + 1) : -1;
      if (step >= 0) fire.push({ cell: [r, c], step });
      if (ch === '.' && step !== 0 && rng.uniform(1000) < options.density * 1000) people.push([r, c]);
    }
  }
  return { map: chars.map((row) => row.join('')), fire, people, maxSteps };
}

/**
 * A random world with a bottleneck: a wall row with one or two door gaps
 * between a crowded upper room and a lower hall with one to three exits on
 * its bottom row, plus random fire in the hall and the room.
 */
export function roomWorld(seed: number, options: { maxSteps: number; density: number }): RandomWorldSpec {
  const rng = new Xoshiro128ss([seed >>> 0, 0x68e31da4, 0xb5297a4d, 99]);
  const rows = 6 + rng.uniform(3);
  const cols = 5 + rng.uniform(5);
  const wallRow = 2 + rng.uniform(rows - 4);
  const chars: string[][] = Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => (r === 0 || c === 0 || c === cols - 1 || r === wallRow ? '#' : '.')));
  for (let k = 1 + rng.uniform(2); k > 0; k--) chars[wallRow]![1 + rng.uniform(cols - 2)] = '.';
  for (let k = 1 + rng.uniform(3); k > 0; k--) chars[rows - 1]![1 + rng.uniform(cols - 2)] = 'E';
  for (let c = 0; c < cols; c++) if (chars[rows - 1]![c] !== 'E') chars[rows - 1]![c] = '#';
  const fire: { cell: CellPair; step: number }[] = [];
  const people: CellPair[] = [];
  const { maxSteps } = options;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ch = chars[r]![c]!;
      if (ch === '#') continue;
      const step = rng.uniform(6) === 0 ? 1 + rng.uniform(maxSteps) : -1;
      if (step >= 0) fire.push({ cell: [r, c], step });
      if (ch === '.' && r < wallRow && rng.uniform(1000) < options.density * 1000) people.push([r, c]);
    }
  }
  return { map: chars.map((row) => row.join('')), fire, people, maxSteps };
}

/** A policy on direction codes: one legal code per active person of the simulation's snapshot. */
export type MovePolicy = (sim: EpisodeSimulation) => Uint8Array;

/** Runs one episode with a move policy on the real simulator (action check included). */
export function runPolicy(start: EpisodeStart, policy: MovePolicy, observers: readonly EpisodeObserver[] = []): EpisodeOutcome {
  const sim = new EpisodeSimulation(start);
  while (!sim.done) {
    const moves = policy(sim);
    sim.checkMoves(moves);
    const event = sim.step(moves);
    for (const o of observers) o.onStep(event);
  }
  const outcome = sim.outcome();
  for (const o of observers) o.onEnd(outcome);
  return outcome;
}

function legalDirections(sim: EpisodeSimulation, cell: number): Direction[] {
  const out: Direction[] = [STAY];
  for (const dir of [1, 2, 3, 4] as const) {
    const y = neighbour(sim.grid, cell, dir);
    if (y >= 0 && sim.grid.kinds[y] !== WALL && sim.ignitionStep[y]! > sim.t) out.push(dir);
  }
  return out;
}

/** A uniformly random legal move per person, from a seeded generator. */
export function randomLegalPolicy(seed: number): MovePolicy {
  const rng = new Xoshiro128ss([seed >>> 0, 1, 2, 3]);
  return (sim) =>
    Uint8Array.from(sim.active, (i) => {
      const legal = legalDirections(sim, sim.cells[i]!);
      return legal[rng.uniform(legal.length)]!;
    });
}

/**
 * Each person follows its own single-person optimum: step onto a usable exit,
 * else the legal successor with the least L(y, t+1) (staying only when no move
 * is better). The people then queue at doors and exits, which is what the
 * capacity bounds must allow for.
 */
export function privilegedGreedyPolicy(refs: References): MovePolicy {
  return (sim) => {
    const t = sim.t;
    return Uint8Array.from(sim.active, (i) => {
      const x = sim.cells[i]!;
      let best: Direction = STAY;
      let bestL = t + 1 <= refs.maxSteps ? refs.earliestTable.at(x, t + 1) : NO_ESCAPE;
      for (const dir of legalDirections(sim, x)) {
        if (dir === STAY) continue;
        const y = neighbour(sim.grid, x, dir);
        const l = sim.grid.kinds[y] === EXIT ? t + 1 : t + 1 <= refs.maxSteps ? refs.earliestTable.at(y, t + 1) : NO_ESCAPE;
        if (l < bestL || (l === bestL && best === STAY && l !== NO_ESCAPE)) {
          best = dir;
          bestL = l;
        }
      }
      return best;
    });
  };
}
