/**
 * Goals the core benchmarks share (core.ts, scale-world.ts, moving-crowds.ts)
 * and how a rate is set beside its goal. Apart from core.ts so that the
 * files core.ts runs do not import core.ts back.
 */

import type { Timing } from './cpu-time.js';
import type { Figure } from './harness.js';

/** Goals on the 256 x 256 stress hall (issue 8), by agent. */
export const SIMULATION_GOAL: Record<string, number> = { 'static-shortest-path-v1': 8e6, 'congestion-aware-v1': 2e6 };
export const WARM_REPLAY_GOAL = 15e6;

export function rateFigures(name: string, personSteps: number, timing: Timing, goal?: number): Figure[] {
  const cpuRate = personSteps / timing.cpu;
  const cpu: Figure =
    goal === undefined
      ? { name: `${name} (CPU)`, value: cpuRate, unit: 'person-steps/s' }
      : { name: `${name} (CPU)`, value: cpuRate, unit: 'person-steps/s', goal: `>= ${goal.toLocaleString('en-US')}`, ok: cpuRate >= goal };
  return [
    cpu,
    { name: `${name} (CPU, best run)`, value: personSteps / timing.bestCpu, unit: 'person-steps/s' },
    { name: `${name} (wall)`, value: personSteps / timing.wall, unit: 'person-steps/s' },
  ];
}
