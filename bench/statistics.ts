/**
 * Benchmark figures of the statistics (issue "Evaluations"): the library
 * call behind `statistics aggregate` and `statistics compare`, with the
 * default 2000 resamples, on 30 episodes (the public suite with 3 seeds) and
 * on 3,000 episodes, both as 10 families x 1 scenario x 300 seeds and as 10
 * families x 10 scenarios x 30 seeds (a generated suite's shape), on
 * synthetic per-episode metrics that vary in every metric. All metrics share
 * one bootstrap stream per artifact (docs/statistics.md section 5), so the
 * stream figure (the same number of draws as one 3,000-episode artifact)
 * is the floor of the large figures. Times are medians of CPU time (the
 * machines are shared) with the wall time beside; issue 8's goal for the
 * 3,000-episode artifacts is < 0.5 s of CPU.
 */

import { sha256Bytes } from '../src/core/hash.js';
import { DEFAULT_RESAMPLES } from '../src/core/stats/bootstrap.js';
import { STATISTICS_METRICS, aggregateStatistics, type ScheduledEpisode, type StatisticsSubject } from '../src/core/stats/aggregate.js';
import { pairedStatistics } from '../src/core/stats/paired.js';
import { BootstrapStream } from '../src/core/stats/stream.js';
import { syntheticSubject, type SyntheticEpisode } from '../test/kits/stats-results.js';
import { timeCpu, type Timing } from './cpu-time.js';
import type { Figure } from './harness.js';

/** A deterministic integer in [0, n) from (episode, salt): a small integer hash, no ambient randomness. */
function pick(episode: number, salt: number, n: number): number {
  let x = Math.imul(episode + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d);
  x = Math.imul(x ^ (x >>> 12), 0x297a2d39);
  return ((x ^ (x >>> 15)) >>> 0) % n;
}

function syntheticEpisode(i: number, salt: number): SyntheticEpisode {
  const population = 5 + pick(i, salt, 60);
  const casualties = pick(i, salt + 1, Math.floor(population / 3) + 1);
  const evacuated = pick(i, salt + 2, population - casualties + 1);
  const moves = 10 + pick(i, salt + 3, 400);
  return {
    population,
    evacuated,
    casualties,
    stepsMean: evacuated === 0 ? null : `${evacuated * 5 + pick(i, salt + 4, 40 * evacuated)}/${evacuated}`,
    movesAttempted: moves,
    blocked: pick(i, salt + 5, moves + 1),
    fireExposure: pick(i, salt + 6, 3 * population),
    pathRatio: evacuated === 0 ? null : `${20 + pick(i, salt + 7, 20)}/40`,
    throughput: evacuated === 0 ? null : `${1 + pick(i, salt + 8, 7)}/8`,
    contested: pick(i, salt + 9, 30),
    hotspots: pick(i, salt + 10, 8),
    peak: pick(i, salt + 11, 4),
  };
}

/** `families` families of `scenarios` scenarios each (default 1), `seeds` seeds per scenario, every episode committed. */
export function syntheticResult(modelId: string, families: number, seeds: number, salt: number, scenarios = 1): StatisticsSubject {
  const schedule: ScheduledEpisode[] = [];
  for (let f = 0; f < families; f++) {
    for (let c = 0; c < scenarios; c++) {
      for (let s = 0; s < seeds; s++) schedule.push({ scenario_id: `scenario-${f}-${c}`, primary_family: `family-${f}` });
    }
  }
  return syntheticSubject({
    modelId,
    manifestHash: 'ab'.repeat(32),
    schedule,
    episodes: schedule.map((_, i) => syntheticEpisode(i, salt)),
  });
}

/** A CPU-time figure with the wall time beside it and an optional CPU goal in seconds. */
function figure(name: string, t: Timing, goal?: number): Figure {
  const wall = `s CPU / ${t.wall.toPrecision(3)} s wall`;
  return goal === undefined ? { name, value: t.cpu, unit: wall } : { name, value: t.cpu, unit: wall, goal: `< ${goal} s CPU`, ok: t.cpu < goal };
}

/** The stream alone: 2000 resamples x (3,000 episode draws + 10 scenario draws), about 750,000 SHAKE-256 blocks. */
function streamOnly(): void {
  const stream = new BootstrapStream(sha256Bytes('bench-stream'));
  for (let b = 0; b < DEFAULT_RESAMPLES; b++) {
    for (let f = 0; f < 10; f++) {
      stream.uniform(1);
      for (let e = 0; e < 300; e++) stream.uniform(300);
    }
  }
}

export async function benchStatistics(): Promise<Figure[]> {
  const small = syntheticResult('model-a', 10, 3, 0);
  const smallB = syntheticResult('model-b', 10, 3, 100);
  const large = syntheticResult('model-a', 10, 300, 0);
  const largeB = syntheticResult('model-b', 10, 300, 100);
  const spread = syntheticResult('model-a', 10, 30, 0, 10);
  const spreadB = syntheticResult('model-b', 10, 30, 100, 10);
  const metrics = STATISTICS_METRICS.length;

  const aggregateSmall = await timeCpu(() => aggregateStatistics(small), 5, 2);
  const compareSmall = await timeCpu(() => pairedStatistics(small, smallB), 5, 2);
  const aggregateLarge = await timeCpu(() => aggregateStatistics(large), 3, 1);
  const compareLarge = await timeCpu(() => pairedStatistics(large, largeB), 3, 1);
  const aggregateSpread = await timeCpu(() => aggregateStatistics(spread), 3, 1);
  const compareSpread = await timeCpu(() => pairedStatistics(spread, spreadB), 3, 1);
  const stream = await timeCpu(streamOnly, 3, 1);
  const wasm = new BootstrapStream(sha256Bytes('bench-stream')).usesWasm ? 'WebAssembly' : 'JS';
  return [
    figure(`statistics aggregate, 30 episodes, ${DEFAULT_RESAMPLES} resamples, ${metrics} metrics`, aggregateSmall, 1),
    figure(`statistics compare, 30 episodes, ${DEFAULT_RESAMPLES} resamples`, compareSmall, 1),
    figure(`statistics aggregate, 3,000 episodes (10 x 1 x 300), ${DEFAULT_RESAMPLES} resamples, ${metrics} metrics`, aggregateLarge, 0.5),
    figure(`statistics compare, 3,000 episodes (10 x 1 x 300), ${DEFAULT_RESAMPLES} resamples`, compareLarge, 0.5),
    figure(`statistics aggregate, 3,000 episodes (10 x 10 x 30), ${DEFAULT_RESAMPLES} resamples`, aggregateSpread, 0.5),
    figure(`statistics compare, 3,000 episodes (10 x 10 x 30), ${DEFAULT_RESAMPLES} resamples`, compareSpread, 0.5),
    figure(`bootstrap stream alone (${wasm}), ${DEFAULT_RESAMPLES} x 3,010 draws (~750,000 SHAKE-256 blocks)`, stream),
  ];
}
