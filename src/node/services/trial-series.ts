/**
 * Series of K trials started together (runs.start `trials` K, each trial's
 * run_config names its place: runs.ts `series`). The combined score of a
 * series is the report of its scored trials scored together, each
 * episode's trials averaged before the aggregation (scoring-v1.0.md
 * sections 6 and 12), exactly what `emberbench score --result ... --result
 * ...` computes: the Trial page shows it for the trials of one series and
 * the Leaderboard ranks it instead of the latest single trial.
 */

import type { Archive } from '../archive/archive.js';
import { scoredTrialRows, type TrialDbRow } from '../archive/queries.js';

export interface SeriesPlace {
  /** The series' first trial (its ID names the series). */
  readonly first: number;
  readonly index: number;
  readonly count: number;
}

/** A trial's place in a series, or null for a trial run alone (or imported). */
export function seriesPlaceOf(row: Pick<TrialDbRow, 'trial_id' | 'run_config'>): SeriesPlace | null {
  if (row.run_config === null) return null;
  const series = (JSON.parse(row.run_config) as { series?: { first: number | null; index: number; count: number } }).series;
  if (series === undefined) return null;
  return { first: series.first ?? row.trial_id, index: series.index, count: series.count };
}

/** The scored trials of `row`'s series (its model, manifest and pack), in series order; [] when it is in none. */
export function scoredSeriesTrials(archive: Archive, row: TrialDbRow): TrialDbRow[] {
  const place = seriesPlaceOf(row);
  if (place === null) return [];
  return scoredTrialRows(archive)
    .filter((r) => r.model_id === row.model_id && r.manifest_hash === row.manifest_hash && r.pack_digest === row.pack_digest && seriesPlaceOf(r)?.first === place.first)
    .sort((a, b) => seriesPlaceOf(a)!.index - seriesPlaceOf(b)!.index);
}
