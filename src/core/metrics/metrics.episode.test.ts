// End to end: metrics of real episodes (scenario parser, episode start, runner, replay check).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../json/canonical.js';
import type { ActionSet } from '../sim/actions.js';
import type { Agent } from '../sim/agent.js';
import { replayRecord } from '../sim/authenticate-record.js';
import { runEpisode } from '../sim/episode.js';
import { randomLegalAgent } from '../../../test/kits/worlds.js';
import { prepareEpisode } from '../world/episode-start.js';
import { parseScenarioText } from '../world/scenario.js';
import { MetricsObserver } from './metrics.js';

// Exit (0,1). Fire: (2,3) from 0, (1,4) from 2, no spread. People p0 (1,1), p1 (1,2), p2 (2,4), p3 (2,1).
const SMALL = JSON.stringify({
  schema_version: '1.0',
  scenario_id: 'metrics-e2e',
  title: 'Metrics end to end',
  families: ['test'],
  map: ['#E####', '#....#', '#....#', '######'],
  people: [{ cell: [1, 1] }, { cell: [1, 2] }, { cell: [2, 4] }, { cell: [2, 1] }],
  fire: { ignitions: [{ cell: [2, 3], step: 0 }, { cell: [1, 4], step: 2 }], spread_probability: '0' },
  max_steps: 6,
  development_seed: '0',
});

/** Acts from a script: per step, person ID -> action; unnamed active persons STAY. */
function scripted(script: readonly Record<string, 'N' | 'E' | 'S' | 'W'>[]): Agent {
  return {
    act(observation): ActionSet {
      const line = script[observation.step] ?? {};
      return Object.fromEntries(observation.people.map(({ id }) => [id, line[id] ?? 'STAY']));
    },
  };
}

describe('metrics of real episodes', () => {
  it('a small episode, checked by hand, gives the same metrics when run and when replayed', async () => {
    const scenario = parseScenarioText(SMALL, 'small.json');
    const observer = new MetricsObserver(prepareEpisode(scenario, '0'));
    const agent = scripted([
      // t0: p0 leaves; p1 and p3 both target (1,1): p1 wins, p3 conflict; p2 steps north.
      { p0000: 'N', p0001: 'W', p0002: 'N', p0003: 'N' },
      // t1: p1 leaves; p3 follows into (1,1); p2 goes west before (1,4) ignites at 2.
      { p0001: 'N', p0002: 'W', p0003: 'N' },
      { p0002: 'W', p0003: 'N' },
      { p0002: 'W' },
      { p0002: 'N' },
    ]);
    const { record, outcome } = await runEpisode(prepareEpisode(scenario, '0'), agent, [observer]);
    expect(outcome.termination).toBe('all_resolved');
    const metrics = observer.result();
    expect(metrics).toEqual({
      metrics_version: '1.0',
      crowd_diagnostics_version: '1.0',
      population: 4,
      evacuated: 4,
      casualties: 0,
      stranded: 0,
      evacuation_rate: '1/1',
      evacuation_steps: { sum: 11, mean: '11/4', max: 5 }, // p0@1 p1@2 p3@3 p2@5
      moves_attempted: 11, // 4 + 3 + 2 + 1 + 1
      blocked_moves: { occupied: 0, conflict: 1, cycle: 0, total: 1 },
      congestion_block_rate: '1/11',
      // t0: p1 (1,2) d=2, p2 (2,4) d=1, p3 (2,1) d=2; t1: p2 (1,4) d=2, p3 (2,1) d=2;
      // t2: p2 (1,3) d=1 (B(2) has (1,4)); t3: p2 (1,2) d=2; t4: p2 (1,1) d=3.
      fire_exposure: 7,
      min_fire_distance: 1,
      // static: p0 1, p1 2, p2 5, p3 2; moved: the same, nobody detours.
      path_efficiency: { static_shortest_sum: 10, moved_sum: 10, ratio: '1/1' },
      per_exit_evacuations: [[0, 1, 4]],
      crowd: { contested_cell_steps: 1, hotspot_cells: 1, peak_contested_cells: 1, exit_throughput: '4/5' },
    });
    const replayed = new MetricsObserver(prepareEpisode(scenario, '0'));
    replayRecord(scenario, record, [replayed]);
    expect(canonicalJson(replayed.result())).toBe(canonicalJson(metrics));
    expect(Array.from(replayed.personMetrics().dangerStates)).toEqual([0, 1, 4, 2]);
  });

  it('a large hall with spread and a random agent: run and replay agree, and the counts add up', async () => {
    const name = 'large-hall.json';
    const scenario = parseScenarioText(readFileSync(new URL(`../../../test/fixtures/world/${name}`, import.meta.url), 'utf8'), name);
    const observer = new MetricsObserver(prepareEpisode(scenario, '3'));
    const { record } = await runEpisode(prepareEpisode(scenario, '3'), randomLegalAgent(3), [observer]);
    const metrics = observer.result();
    const replayed = new MetricsObserver(prepareEpisode(scenario, '3'));
    replayRecord(scenario, record, [replayed]);
    expect(canonicalJson(replayed.result())).toBe(canonicalJson(metrics));

    const persons = observer.personMetrics();
    expect(metrics.population).toBe(400);
    expect(metrics.evacuated + metrics.casualties + metrics.stranded).toBe(400);
    expect(persons.dangerStates.reduce((a, b) => a + b, 0)).toBe(metrics.fire_exposure);
    expect(metrics.fire_exposure).toBeGreaterThan(0);
    expect(metrics.moves_attempted).toBeGreaterThan(metrics.blocked_moves.total);
    expect(metrics.per_exit_evacuations.reduce((a, [, , n]) => a + n, 0)).toBe(metrics.evacuated);
  });
});
