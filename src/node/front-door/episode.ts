/**
 * The front door of the `episode` commands (src/cli/commands/episode.ts): all of
 * src/node that this command group uses, and nothing else, so the CLI loads
 * only the running command's part of src/node (one module per group, never
 * one barrel).
 */

export { DEFAULT_ACT_TIMEOUT_MS } from '../agents/open-agent.js';
export { defaultEntryPoints } from '../entry-points.js';
export { runEpisodeToFile } from '../workflows/episode-run.js';
export type { AgentSpec } from '../agents/spec.js';
