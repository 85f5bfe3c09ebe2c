/**
 * The registered command modules, in the order of the command tree
 * (cli-v1.0.md). A new command group is added here and nowhere else: the
 * parser, the help texts and the tests read this list.
 */

import type { CommandModule } from './command.js';
import { archiveModule } from './commands/archive.js';
import { bundleModule } from './commands/bundle.js';
import { reportModule } from './commands/report.js';
import { leaderboardModule, scoreCompareModule } from './commands/compare.js';
import { episodeModule } from './commands/episode.js';
import { evaluationModule } from './commands/evaluation.js';
import { generatedModule } from './commands/generated.js';
import { keysModule } from './commands/keys.js';
import { evaluationMergeModule } from './commands/merge.js';
import { evaluationStatusModule } from './commands/status.js';
import { operationalModule } from './commands/operational.js';
import { packModule } from './commands/pack.js';
import { replayModule } from './commands/replay.js';
import { resultSigningModule } from './commands/result-signing.js';
import { scenarioModule } from './commands/scenario.js';
import { scoreModule, scoringModule } from './commands/score.js';
import { serveModule } from './commands/serve.js';
import { shardModule } from './commands/shard.js';
import { statisticsModule } from './commands/statistics.js';
import { suiteModule } from './commands/suite.js';
import { versionModule } from './commands/version.js';
import { buildCommandTree, type CommandNode } from './tree.js';

export const COMMAND_MODULES: readonly CommandModule[] = [
  versionModule,
  scenarioModule,
  suiteModule,
  generatedModule,
  evaluationModule,
  evaluationMergeModule,
  evaluationStatusModule,
  shardModule,
  episodeModule,
  replayModule,
  statisticsModule,
  scoreModule,
  scoreCompareModule,
  leaderboardModule,
  scoringModule,
  packModule,
  operationalModule,
  bundleModule,
  keysModule,
  resultSigningModule,
  reportModule,
  archiveModule,
  serveModule,
];

let tree: CommandNode | undefined;

export function commandTree(): CommandNode {
  tree ??= buildCommandTree(COMMAND_MODULES);
  return tree;
}
