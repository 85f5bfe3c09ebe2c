/**
 * An episode worker for `evaluation run --jobs N` (a worker_threads thread,
 * started by pool.ts). It loads the suite itself, checks it is the suite the
 * runner loaded, opens its own agent session (builtins in this thread,
 * modules in their own host process, commands spawned per episode) and then
 * runs one episode at a time for the runner.
 */

import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ValidationError } from '../../core/errors.js';
import type { Scenario } from '../../core/world/scenario-types.js';
import { openAgent } from '../agents/open-agent.js';
import { episodeFactory, type AgentSession } from '../agents/spec.js';
import { loadSuiteDir, suiteFromFiles } from '../inputs.js';
import { useNativeHash } from '../native-hash.js';
import { evaluateEpisode } from './evaluate-episode.js';
import { toWire, type FromWorker, type ToWorker, type WorkerConfig } from './protocol.js';

async function open(config: WorkerConfig): Promise<{ scenarios: Map<string, Scenario>; session: AgentSession }> {
  const suite = 'dir' in config.suite ? loadSuiteDir(config.suite.dir) : suiteFromFiles(config.suite.files, config.suite.source);
  if (suite.hash !== config.suiteHash) {
    const where = 'dir' in config.suite ? config.suite.dir : config.suite.source;
    throw new ValidationError(`${where}: the suite changed while the evaluation was starting (suite hash ${suite.hash}, expected ${config.suiteHash})`);
  }
  const scenarios = new Map(suite.entries.map((e) => [e.scenarioId, e.scenario]));
  const session = await openAgent(config.agent, { agentPaths: config.agentPaths, actTimeoutMs: config.actTimeoutMs, entryPoints: config.entryPoints, sandbox: config.sandbox });
  return { scenarios, session };
}

async function serve(port: NonNullable<typeof parentPort>, config: WorkerConfig): Promise<void> {
  const post = (message: FromWorker): void => port.postMessage(message);
  let opened;
  try {
    opened = await open(config);
  } catch (error) {
    post({ type: 'error', error: toWire(error) });
    return;
  }
  const { scenarios, session } = opened;
  const watcher = {
    started: (pid: number) => post({ type: 'child', pid, live: true }),
    settled: (pid: number, live: boolean) => post({ type: 'child', pid, live }),
  };
  // The episode running now: a close waits for it to settle (the session's close makes it end at once for the chat
  // adapter), so its agent's own close (a transcript) is done before the thread stops.
  let running: Promise<unknown> = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'run': {
        const job = message.job;
        const scenario = scenarios.get(job.scenario_id);
        const run =
          scenario === undefined
            ? Promise.reject(new ValidationError(`episode ${job.index}: scenario ${job.scenario_id} is not in the suite`))
            : evaluateEpisode(episodeFactory(session, job.index), scenario, job, { watcher, scoring: config.scoring });
        running = run.then(
          (evaluated) => post({ type: 'done', episode: evaluated.episode, scoring: evaluated.scoring }),
          (error: unknown) => post({ type: 'error', error: toWire(error) }),
        );
        return;
      }
      case 'close':
        void session
          .close()
          .catch(() => undefined)
          .then(() => running)
          .then(() => {
            post({ type: 'closed' });
            port.close();
          });
        return;
    }
  });
  post({ type: 'ready' });
}

if (!isMainThread && parentPort !== null) {
  useNativeHash();
  void serve(parentPort, workerData as WorkerConfig);
}
