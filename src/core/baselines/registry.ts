/** The baseline agents (baselines_version 1.0, environment.md section 9) by ID. */

import type { AgentFactory } from '../sim/agent.js';
import { AlwaysStayAgent } from './always-stay.js';
import { blockScrubFactory } from './block-scrub.js';
import { CongestionAwareAgent } from './congestion-aware.js';
import { FireAwareShortestPathAgent } from './fire-aware-shortest-path.js';
import { NearestExitGreedyAgent } from './nearest-exit-greedy.js';
import { RandomLegalAgent } from './random-legal.js';
import { StaticShortestPathAgent } from './static-shortest-path.js';

export const BASELINE_IDS = [
  'always-stay',
  'random-legal-v1',
  'nearest-exit-greedy-v1',
  'static-shortest-path-v1',
  'fire-aware-shortest-path-v1',
  'congestion-aware-v1',
  'adv-block-scrub',
] as const;

export type BaselineId = (typeof BASELINE_IDS)[number];

export function isBaselineId(id: string): id is BaselineId {
  return (BASELINE_IDS as readonly string[]).includes(id);
}

/** The agent factory of a baseline ID, or undefined for any other string. Every call of a factory makes a fresh agent. */
export function baselineFactory(id: string): AgentFactory | undefined {
  if (!isBaselineId(id)) return undefined;
  switch (id) {
    case 'always-stay':
      return () => new AlwaysStayAgent();
    case 'random-legal-v1':
      return () => new RandomLegalAgent();
    case 'nearest-exit-greedy-v1':
      return () => new NearestExitGreedyAgent();
    case 'static-shortest-path-v1':
      return () => new StaticShortestPathAgent();
    case 'fire-aware-shortest-path-v1':
      return () => new FireAwareShortestPathAgent();
    case 'congestion-aware-v1':
      return () => new CongestionAwareAgent();
    case 'adv-block-scrub':
      // The adversary of scoring-v1.0.md 4.2 scrubs congestion-aware-v1.
      return blockScrubFactory(() => new CongestionAwareAgent());
  }
}
