/**
 * The process stage: the test files that start many processes for minutes
 * (agent hosts and their sandboxes, hostile agents and clients, kills and
 * races between writers, language-model runs against the scripted endpoint,
 * the sharding walk-through). Together they took about half of `npm test`'s
 * vitest time on 2 cores, so `npm test` leaves them out
 * (EMBER_SKIP_PROCESS_STAGE=1) and CI runs them as a stage of their own
 * right after it (`npm run test:process`, vitest.process.config.ts).
 * A file named on the command line (`npx vitest run FILE`) still runs.
 */
export const PROCESS_STAGE_FILES: readonly string[] = [
  // Agent hosts: Python and JavaScript agents in their child processes.
  'src/node/agents/command-view.test.ts',
  'src/node/agents/module-view.test.ts',
  'src/node/agents/module-agent.test.ts',
  'src/node/eval/runner.test.ts',
  // Hostile agents and clients, and what the sandbox lets them see.
  'test/sandbox/**/*.test.ts',
  'test/server/hostile.test.ts',
  'test/archive/isolation.test.ts',
  // Killed and racing writers, a full disk, a deleted trial's space.
  'test/cli/one-writer.test.ts',
  'test/cli/evaluation-kill.test.ts',
  // Ctrl+C during score, pack, bundle and merge (a 60,000-episode pack is built first).
  'test/cli/interrupt-long.test.ts',
  // Ctrl+C during archive import (a 3,000-episode result) and export (a 400 MB stored result).
  'test/cli/interrupt-archive.test.ts',
  'test/archive/disk-full.test.ts',
  'test/archive/archive-delete.test.ts',
  // Language-model runs, series and cancels against the scripted endpoint.
  'test/llm/**/*.test.ts',
  // Whole evaluations and archive services: CLI runs with misbehaving agents,
  // every command under the no-network preload, baseline runs and reviews in
  // the archive's worker threads (about 80 s together).
  'test/cli/evaluation.test.ts',
  'test/cli/network.test.ts',
  'test/archive/services.test.ts',
  'test/archive/review-handlers.test.ts',
  // docs/sharding.md's walk-through, run as written.
  'test/cli/sharding-docs.test.ts',
];
