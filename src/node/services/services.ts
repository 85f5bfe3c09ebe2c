/**
 * The workbench services: every procedure of the contract
 * (src/shared/api/contract.ts) over one archive, for both transports (the
 * Electron main process and `emberbench serve`). Main and the server only
 * validate calls (dispatch.ts) and forward events; everything else is here
 * and in the files beside it (catalog.ts: suites, manifests, packs, agents;
 * runs.ts: evaluations) and in src/node/archive.
 *
 * Start: the archive is opened as this process's one writer (a second
 * process gets a clear "in use" error), trials a crash or quit left
 * `running` become `interrupted`, and the shipped public suite is
 * registered. dispose(): running evaluations are cancelled (their trials
 * become interrupted and can be resumed), agent processes and workers are
 * released, the archive is closed; the process keeps running.
 */

import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { ArchiveChange, Events, EventName, Outputs, Overview, TrialDetail } from '../../shared/api/contract.js';
import type { TrialRow } from '../../shared/api/views.js';
import { checkedResultSignatures, type SignatureSet } from '../../core/signing/signatures.js';
import { storeTrialSignatures } from '../archive/trial-signatures.js';
import { commitImports, exportTrial, type DuplicateImport, type PreparedImport } from '../archive/archive-io.js';
import { prepareImportOffThread } from '../jobs/import-result.js';
import { withArchiveFaultsAsync } from '../archive/archive-errors.js';
import { Archive } from '../archive/archive.js';
import { getArtifact } from '../archive/artifacts.js';
import { getTrialDbRow, listEpisodes, listModelIds, listTrials, trialRowOf, type TrialDbRow } from '../archive/queries.js';
import { runOffThread } from '../jobs/off-thread.js';
import { interruptStaleRuns } from '../archive/trials-store.js';
import { trialLog } from '../archive/trial-housekeeping.js';
import type { EntryPoints } from '../entry-points.js';
import { processScope } from '../lifetime.js';
import {
  addSuiteFolder,
  buildStoredPack,
  builtinAgents,
  createManifest,
  getSuiteSummary,
  listManifests,
  listPacks,
  listSuites,
  suiteDetail,
  validateSuite,
  verifyStoredPack,
} from './catalog.js';
import { ServiceError, type Handlers } from './dispatch.js';
import { generateHandlers } from './generate-handlers.js';
import { housekeepingHandlers } from './housekeeping-handlers.js';
import { integrityHandlers } from './integrity-handlers.js';
import { transcriptLines } from './llm-runs.js';
import { reviewHandlers } from './review-handlers.js';
import { modelHandlers } from './model-handlers.js';
import { existingPath, newOutputPath } from './user-paths.js';
import { RunManager } from './runs.js';
import { AppSigning, signingHandlers } from './signing-store.js';

export interface WorkbenchServicesOptions {
  /** The archive file (created when missing); see paths.ts defaultArchivePath(). */
  readonly archivePath: string;
  /** The public suite shipped with the app (scenarios/public/v1), registered at every start. */
  readonly publicSuiteDir: string;
  readonly entryPoints: EntryPoints;
  readonly mode: 'desktop' | 'browser';
  readonly version: string;
  readonly emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /**
   * The app's data folder, where its signing key and trust list live (never
   * in the archive). Default: the archive's folder (tests); the desktop app
   * and `emberbench serve` give the user's data folder.
   */
  readonly dataDir?: string;
}

export interface WorkbenchServices {
  readonly handlers: Handlers;
  /**
   * `archive.import` from a call body saved to a file (the browser-mode
   * server streams it there): decoded, read and authenticated in the
   * archive worker, so the result never becomes a string on the caller's
   * thread; then written like any import.
   */
  importBody(bodyFile: string): Promise<Outputs['archive.import']>;
  /** Cancels running evaluations (they become interrupted), releases their processes, closes the archive. Idempotent. */
  dispose(): Promise<void>;
}

function trialDetail(archive: Archive, row: TrialDbRow, signing: AppSigning): TrialDetail {
  // The archive authenticated each artifact when it stored it.
  const json = <T>(digest: string | null): T | null => (digest === null ? null : (JSON.parse(getArtifact(archive, digest).toString('utf8')) as T));
  return {
    trial: { ...trialRowOf(row), signers: signing.trialSigners(archive, row.trial_id) },
    report: json<TrialDetail['report']>(row.report_digest),
    summaryText: row.summary_digest === null ? null : getArtifact(archive, row.summary_digest).toString('utf8'),
    operational: json<TrialDetail['operational']>(row.operational_digest),
    notes: row.notes,
    log: trialLog(archive, row.trial_id),
  };
}

function requireTrial(archive: Archive, trialId: number): TrialDbRow {
  const row = getTrialDbRow(archive, trialId);
  if (row === undefined) throw new ServiceError('not_found', `trialId: no trial ${trialId} in the archive`, 'trialId');
  return row;
}

export async function createWorkbenchServices(opts: WorkbenchServicesOptions): Promise<WorkbenchServices> {
  const archive = Archive.open(opts.archivePath, { mode: 'write' });
  const scope = processScope.child();
  let runs: RunManager;
  try {
    // This process holds the writer lock: no run of another process can be live.
    archive.write((db) => interruptStaleRuns(db));
    addSuiteFolder(archive, opts.publicSuiteDir, 'public');
    runs = new RunManager(archive, opts.entryPoints, scope, opts.emit);
  } catch (error) {
    archive.close();
    await scope.dispose();
    throw error;
  }
  const { maxJobs, defaultJobs } = RunManager.jobLimits();
  const changed = (change: ArchiveChange): void => opts.emit('archive.changed', change);
  const shown = (row: TrialRow): TrialRow => {
    const status = runs.shownStatus(row.trialId, row.status);
    return status === row.status ? row : { ...row, status };
  };
  const signing = new AppSigning(opts.dataDir ?? dirname(archive.path));

  const signed = (rows: readonly TrialRow[]): TrialRow[] => rows.map((r) => ({ ...r, signers: signing.trialSigners(archive, r.trialId) }));
  const overview = (): Overview => {
    const recent = listTrials(archive, { sort: 'created', direction: 'desc', filter: {}, offset: 0, limit: 10 });
    const interrupted = listTrials(archive, { sort: 'created', direction: 'desc', filter: { status: 'interrupted' }, offset: 0, limit: 100 });
    // Runs that ended without their status written (a full disk) are interrupted too.
    const unmarked = listTrials(archive, { sort: 'created', direction: 'desc', filter: { status: 'running' }, offset: 0, limit: 100 }).rows.map(shown).filter((r) => r.status === 'interrupted');
    const models = listModelIds(archive);
    return {
      suites: listSuites(archive),
      manifests: listManifests(archive),
      packs: listPacks(archive),
      models,
      recentTrials: signed(recent.rows.map(shown)),
      running: runs.list(),
      interrupted: signed([...unmarked, ...interrupted.rows]),
    };
  };

  const commitPrepared = (prepared: PreparedImport | DuplicateImport, signatures: SignatureSet | null): Outputs['archive.import'] => {
    const outcome = 'duplicate' in prepared ? { trialId: prepared.duplicate, duplicate: true } : commitImports(archive, [prepared])[0]!;
    // A signature of a result already imported is added to its trial (co-signing after the fact).
    if (signatures !== null) archive.write((w) => storeTrialSignatures(w, outcome.trialId, signatures));
    if (!outcome.duplicate || signatures !== null) changed({ kind: 'trial', trialId: outcome.trialId, what: outcome.duplicate ? 'details' : 'added' });
    return outcome;
  };

  const handlers: Handlers = {
    'app.info': () =>
      Promise.resolve({ version: opts.version, mode: opts.mode, archivePath: archive.path, cores: availableParallelism(), maxJobs, defaultJobs }),
    overview: () => Promise.resolve(overview()),
    'suites.list': () => Promise.resolve(listSuites(archive)),
    'suites.get': ({ suiteHash }) => Promise.resolve(suiteDetail(archive, suiteHash)),
    'suites.add': ({ dir }) => {
      const summary = addSuiteFolder(archive, existingPath(dir, 'dir', 'folder'), 'folder');
      changed({ kind: 'catalog', what: 'suites' });
      return Promise.resolve(summary);
    },
    'suites.validate': ({ suiteHash }) => Promise.resolve(validateSuite(archive, suiteHash)),
    'manifests.list': ({ suiteHash }) => {
      if (suiteHash !== undefined) getSuiteSummary(archive, suiteHash);
      return Promise.resolve(listManifests(archive, suiteHash));
    },
    'manifests.create': ({ suiteHash, seeds }) => {
      const summary = createManifest(archive, suiteHash, seeds);
      changed({ kind: 'catalog', what: 'manifests' });
      return Promise.resolve(summary);
    },
    'packs.list': () => Promise.resolve(listPacks(archive)),
    'packs.build': async ({ manifestHash }) => {
      const summary = await buildStoredPack(archive, manifestHash, opts.entryPoints.archiveWorker);
      changed({ kind: 'catalog', what: 'packs' });
      return summary;
    },
    'packs.verify': ({ packDigest }) => verifyStoredPack(archive, packDigest, opts.entryPoints.archiveWorker),
    'agents.list': () => Promise.resolve({ builtins: builtinAgents() }),
    'runs.start': (input) => Promise.resolve({ trialId: runs.start(input) }),
    'runs.cancel': ({ trialId }) => {
      runs.cancel(trialId);
      return Promise.resolve({});
    },
    'runs.resume': ({ trialId, jobs }) => Promise.resolve({ trialId: runs.resume(trialId, jobs) }),
    'runs.list': () => Promise.resolve(runs.list()),
    'trials.list': (input) => {
      const page = listTrials(archive, input);
      return Promise.resolve({ ...page, rows: signed(page.rows.map(shown)) });
    },
    'trials.get': ({ trialId }) => {
      const detail = trialDetail(archive, requireTrial(archive, trialId), signing);
      return Promise.resolve({ ...detail, trial: shown(detail.trial) });
    },
    'episodes.list': (input) => {
      if (input.trialId !== undefined) requireTrial(archive, input.trialId);
      return Promise.resolve(listEpisodes(archive, input));
    },
    'archive.import': async ({ fileName, text, operational, signature }) => {
      // Signatures are checked first (cheap): one that fails refuses the whole import.
      const signatures = signature === undefined ? null : checkedResultSignatures(signature.text, text, signature.fileName);
      // Authentication replays every record: in the archive worker, so the caller's loop stays free.
      return commitPrepared(await prepareImportOffThread(archive, fileName, text, opts.entryPoints.archiveWorker, operational), signatures);
    },
    'archive.export': async ({ trialId, outDir }) => {
      requireTrial(archive, trialId);
      return exportTrial(archive, trialId, newOutputPath(outDir, 'outDir', 'folder'));
    },
    'episodes.transcript': async ({ trialId, index }) => {
      const row = requireTrial(archive, trialId);
      const agent = row.run_config === null ? undefined : (JSON.parse(row.run_config) as { agent?: { kind?: string } }).agent;
      if (agent?.kind !== 'openai-chat') throw new ServiceError('not_found', `trialId: trial ${trialId} has no transcripts (only language-model trials run here do)`, 'trialId');
      return { lines: await transcriptLines(archive, trialId, index) };
    },
    ...reviewHandlers(archive, opts.entryPoints.archiveWorker, undefined, signing),
    ...modelHandlers(archive, (trialId) => signing.trialSigners(archive, trialId)),
    ...integrityHandlers(archive, opts.entryPoints.archiveWorker, (trialId) => requireTrial(archive, trialId), (trialId) => changed({ kind: 'trial', trialId, what: 'details' })),
    ...signingHandlers(signing),
    ...housekeepingHandlers(archive, { isActive: (trialId) => runs.isActive(trialId), shown: (row) => signed([shown(row)])[0]!, changed }),
    // The generator's shipped configurations sit beside the public suite: scenarios/generated/.
    ...generateHandlers(archive, join(opts.publicSuiteDir, '..', '..', 'generated', 'default.json'), () => changed({ kind: 'catalog', what: 'suites' })),
  };

  // A full disk, a damaged or read-only archive met by any call: its own error, naming the archive, never "a bug".
  const guarded = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, (input: unknown) => withArchiveFaultsAsync(archive.path, () => (handler as (input: unknown) => Promise<unknown>)(input))]),
  ) as unknown as Handlers;

  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (async () => {
      await runs.stopAll();
      await scope.dispose();
      archive.close();
    })();
    return disposed;
  };
  const importBody = (bodyFile: string): Promise<Outputs['archive.import']> =>
    withArchiveFaultsAsync(archive.path, async () => {
      const job = { archivePath: archive.path, bodyFile, dir: dirname(bodyFile) };
      const { prepared, signatures } = await runOffThread(opts.entryPoints.archiveWorker, { kind: 'import-body', input: job });
      return commitPrepared(prepared, signatures);
    });
  return { handlers: guarded, importBody, dispose };
}
