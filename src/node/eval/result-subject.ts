/**
 * The statistics subject of a result file (`statistics aggregate | compare`):
 * a result that fits in one string is read and authenticated whole; a
 * larger one is authenticated by streaming (result-reader.ts) and only each
 * committed episode's index and metrics are kept, so that a result of any
 * size is read in memory bounded by its largest episode. Both give the same
 * subject, hence the same statistics bytes.
 */

import { authenticateResult } from '../../core/eval/authenticate.js';
import { statisticsSubject, type CommittedEpisode, type StatisticsSubject } from '../../core/stats/aggregate.js';
import type { Suite } from '../../core/world/suite.js';
import { resultTextOrStream } from '../inputs.js';
import { authenticateResultFile, type StreamedResult } from './result-reader.js';

/** `streamAbove`: the size in bytes beyond which the file is streamed (at most MAX_TEXT_INPUT_BYTES; tests set 0). */
export function statisticsSubjectOfFile(path: string, suite: Suite, streamAbove?: number): StatisticsSubject {
  const text = resultTextOrStream(path, streamAbove);
  if (text !== null) return statisticsSubject(authenticateResult(text, path, suite));
  const committed: CommittedEpisode[] = [];
  const streamed = authenticateResultFile(path, path, suite, { onEpisode: (e) => committed.push({ index: e.index, metrics: e.metrics }) });
  return streamedSubject(streamed, committed);
}

/** The subject of a streamed result whose committed episodes' metrics were kept as they went by. */
export function streamedSubject(streamed: StreamedResult, committed: readonly CommittedEpisode[]): StatisticsSubject {
  return {
    modelId: streamed.modelId,
    manifestHash: streamed.manifestHash,
    resultDigest: streamed.digest,
    schedule: streamed.manifest.episodes,
    committed,
    failed: streamed.failures.length,
  };
}
