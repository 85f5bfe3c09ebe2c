/**
 * The workbench contract: every procedure the renderer may call and every
 * event it may receive, declared once. Both transports implement it (the
 * Electron IPC bridge in src/main + src/preload, and the browser-mode HTTP
 * transport of `emberbench serve`), and both validate every call against
 * the input schemas declared here before a service sees it.
 *
 * Inputs are zod schemas (validated at the boundary, in main or the
 * server); outputs are TypeScript types (the services are trusted code).
 * Every answer is an ApiResult: errors are values with a `kind`.
 *
 * Identifiers: a suite is named by its suite hash, a manifest by its
 * manifest hash, a pack by its digest (the short pack ID is for people),
 * and a trial by its archive row number. Seed values never leave the
 * services: manifests report only how many seeds they use.
 */

import { z } from 'zod';
import { episodeStatuses, trialStatuses } from './views.js';
import type {
  AppInfo, BuiltinAgentInfo, BundleSummary, SigningStatus, EpisodeReplay, EpisodeRow, ExportedFile, LeaderboardGroup, ManifestSummary,
  Overview, PackSummary, PageOf, RunStatus, ScenarioSummary, SuiteSummary, TranscriptLine, TrialComparison, TrialDetail, TrialIntegrity, TrialRow, TrialSeries, ValidationReport,
} from './views.js';

import type { ModelHistory, ModelsComparison, ModelSummary } from './model-views.js';

export * from './views.js';
export * from './model-views.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');
const trialId = z.number().int().positive();
const sortDirection = z.enum(['asc', 'desc']);
const page = { offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1000).default(100) };

/** The agent of a run, as the Run view chooses it. */
export const agentChoiceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('builtin'), id: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('module'),
    /** MODULE of `--agent MODULE:EXPORT`, resolved only inside agentPaths. */
    module: z.string().min(1),
    exportName: z.string().min(1),
    agentPaths: z.array(z.string().min(1)).min(1),
  }),
  z.strictObject({
    kind: z.literal('command'),
    /** The program and its arguments, as `--agent-command` takes them (split like a shell would, no expansion). */
    command: z.string().min(1),
    agentPaths: z.array(z.string().min(1)).default([]),
  }),
  z.strictObject({
    kind: z.literal('openai-chat'),
    /** The adapter configuration (docs/llm.md), as the JSON object an --agent-config file holds. */
    config: z.record(z.string(), z.unknown()),
    /** Model calls in flight at once (the CLI's --max-connections). */
    maxConnections: z.number().int().min(1).max(256).default(8),
  }),
]);
export type AgentChoice = z.infer<typeof agentChoiceSchema>;

export const trialSortColumns = ['created', 'model', 'score', 'status', 'episodes', 'dead', 'official'] as const;
export const episodeSortColumns = ['index', 'score', 'scenario', 'family', 'status', 'evacuated', 'dead', 'stranded', 'steps'] as const;

export const schemas = {
  'app.info': z.strictObject({}),
  overview: z.strictObject({}),
  'suites.list': z.strictObject({}),
  'suites.get': z.strictObject({ suiteHash: hex64 }),
  /** Adds a suite folder from the machine the services run on (validated, then stored byte for byte). */
  'suites.add': z.strictObject({ dir: z.string().min(1) }),
  /** Re-authenticates a stored suite: every file against its digest, every scenario through the strict parser. */
  'suites.validate': z.strictObject({ suiteHash: hex64 }),
  /** The generator's default configuration (scenarios/generated/default.json), as JSON text to start a form from. */
  'generated.defaultConfig': z.strictObject({}),
  /**
   * Scenarios a generator configuration and batch seed give, without freezing
   * them (for previews); at most `limit` scenario texts come back.
   */
  'generated.preview': z.strictObject({ configText: z.string().min(1), batchSeed: z.string().min(1), limit: z.number().int().min(1).max(100).default(12) }),
  /** Generates and freezes a batch (as `generated create` does) and adds its suite to the archive, listed as a generated suite. */
  'generated.create': z.strictObject({ configText: z.string().min(1), batchSeed: z.string().min(1) }),
  'manifests.list': z.strictObject({ suiteHash: hex64.optional() }),
  /** Seeds as decimal strings or inclusive ranges `A..B`, in order; every scenario of the suite runs every seed. */
  'manifests.create': z.strictObject({ suiteHash: hex64, seeds: z.array(z.string().min(1)).min(1).max(10_000) }),
  'packs.list': z.strictObject({}),
  'packs.build': z.strictObject({ manifestHash: hex64 }),
  'packs.verify': z.strictObject({ packDigest: hex64 }),
  'agents.list': z.strictObject({}),
  'runs.start': z.strictObject({
    manifestHash: hex64,
    /** Score against this pack (official) when given; the pack must be of the same manifest. */
    packDigest: hex64.nullable().default(null),
    agent: agentChoiceSchema,
    modelId: z.string().min(1),
    /** Episodes in parallel (worker threads); the services cap it by the machine. */
    jobs: z.number().int().min(1),
    actTimeoutMs: z.number().int().min(1).max(3_600_000).default(30_000),
    continueOnFailure: z.boolean().default(true),
    /** Repeated trials of one configuration (scoring-v1.0.md section 12); each is its own trial in the archive. */
    trials: z.number().int().min(1).max(20).default(1),
  }),
  'runs.cancel': z.strictObject({ trialId }),
  /** Continues an interrupted trial (after a quit, a crash or a cancel) with the same agent. */
  'runs.resume': z.strictObject({ trialId, jobs: z.number().int().min(1).optional() }),
  'runs.list': z.strictObject({}),
  'trials.list': z.strictObject({
    sort: z.enum(trialSortColumns).default('created'),
    direction: sortDirection.default('desc'),
    filter: z
      .strictObject({
        /** Substring of the model ID. */
        model: z.string().optional(),
        official: z.boolean().optional(),
        status: z.enum(trialStatuses).optional(),
        /** Trials with at least one episode of this family. */
        family: z.string().optional(),
        manifestHash: hex64.optional(),
        /** Trials carrying this tag. */
        tag: z.string().min(1).max(40).optional(),
      })
      .default({}),
    ...page,
  }),
  'trials.get': z.strictObject({ trialId }),
  /** Every tag in use, with how many trials carry it (the Trials table's tag filter). */
  'trials.tags': z.strictObject({}),
  /** Replaces a trial's label, notes and tags: kept in the archive beside the trial, never in a result, a score or a digest. */
  'trials.annotate': z.strictObject({ trialId, label: z.string().max(1000), notes: z.string().max(100_000), tags: z.array(z.string().max(100)).max(100) }),
  /**
   * Deletes a trial that is not running, with the artifacts nothing else uses, then gives the space back
   * (docs/archive.md "Deleting a trial"). Its number is never given to another trial.
   */
  'trials.delete': z.strictObject({ trialId }),
  /** The trial's place in a series of K trials started together, and the series' combined score (null for a trial run alone). */
  'trials.series': z.strictObject({ trialId }),
  /** Reads back every stored artifact of a trial and checks that its episodes compose to its recorded result (docs/archive.md, archive check). */
  'trials.check': z.strictObject({ trialId }),
  /** Rebuilds a damaged trial's result from its stored episodes (and re-scores a damaged report) when the rebuilt bytes have the recorded digest. */
  'trials.repair': z.strictObject({ trialId }),
  'episodes.list': z.strictObject({
    trialId: trialId.optional(),
    sort: z.enum(episodeSortColumns).default('index'),
    direction: sortDirection.default('asc'),
    filter: z
      .strictObject({
        family: z.string().optional(),
        scenarioId: z.string().optional(),
        status: z.enum(episodeStatuses).optional(),
        failureKind: z.string().optional(),
      })
      .default({}),
    ...page,
  }),
  /**
   * Imports an artifact made by the CLI (an evaluation result, for now): authenticated first, refused whole on any problem.
   * `operational`: the result's operational record (`evaluation run` writes RESULT_STEM.operational.json), stored with
   * the trial; its isolation level is the trial's. It must be valid and of the result's model.
   */
  'archive.import': z.strictObject({
    fileName: z.string().min(1),
    text: z.string(),
    operational: z.strictObject({ fileName: z.string().min(1), text: z.string() }).optional(),
    /** The result's detached signatures (`result sign` writes RESULT_STEM.sig.json): each must be valid for this result, else nothing is imported. */
    signature: z.strictObject({ fileName: z.string().min(1), text: z.string().max(16 * 1024 * 1024) }).optional(),
  }),
  /** Writes a trial's artifacts into a new folder on the machine the services run on, byte-identical to the CLI's files. */
  'archive.export': z.strictObject({ trialId, outDir: z.string().min(1) }),
  /**
   * One episode of a trial for the replay view: the scenario and run record
   * texts, which the renderer replays with the core library before drawing
   * (a record that fails replay is shown as failing, never animated).
   */
  'episodes.replay': z.strictObject({ trialId, index: z.number().int().min(0) }),
  /** The model calls of one episode of a language-model trial (prompts and answers, never the key). */
  'episodes.transcript': z.strictObject({ trialId, index: z.number().int().min(0) }),
  /** The paired comparison of two scored trials, or two sets of trials of two models, on one manifest (A - B). */
  'compare.trials': z.strictObject({
    a: z.array(trialId).min(1).max(20),
    b: z.array(trialId).min(1).max(20),
    resamples: z.number().int().min(1).max(1_000_000).default(2000),
  }),
  /** Every model with a score report, in scoring-v1.0.md section 8 order, per pack (official) and per suite (unofficial). */
  leaderboard: z.strictObject({ resamples: z.number().int().min(1).max(1_000_000).default(2000) }),
  /** Every model with a trial in the archive, in name order. */
  'models.list': z.strictObject({}),
  /** One model's scored trials in time order (its history chart). */
  'models.history': z.strictObject({ modelId: z.string().min(1).max(1000) }),
  /**
   * Several models at once (scored trials, one per model, of one manifest and target): the leaderboard
   * of those trials, as the Leaderboard view ranks them, and each one's family scores.
   */
  'models.compare': z.strictObject({ trialIds: z.array(trialId).min(2).max(20), resamples: z.number().int().min(1).max(1_000_000).default(2000) }),
  /** Writes an official bundle (docs/bundles.md) of one or two models' trials into a new folder. */
  'export.bundle': z.strictObject({
    a: z.array(trialId).min(1).max(20),
    b: z.array(trialId).max(20).default([]),
    outDir: z.string().min(1),
    /** Sign with the app's key (docs/bundles.md): the operator's time (`YYYY-MM-DDTHH:MM:SSZ`, or `now`), and the key's passphrase when it is sealed. */
    sign: z.strictObject({ signedAt: z.string().min(1), passphrase: z.string().min(1).optional() }).optional(),
  }),
  /** Re-authenticates a bundle folder from disk. */
  'export.verifyBundle': z.strictObject({ dir: z.string().min(1) }),
  /** The app's signing key (public facts only: its secret never crosses the contract again) and its trust list of public keys. */
  'signing.status': z.strictObject({}),
  /** Makes the app's Ed25519 key in the app's data folder (mode 0600, never in the archive), sealed when a passphrase is given. */
  'signing.createKey': z.strictObject({ passphrase: z.string().min(1).optional(), replace: z.boolean().default(false) }),
  /** Imports a key file of `emberbench keys create` (a sealed one is checked with its passphrase and stored sealed). */
  'signing.importKey': z.strictObject({ text: z.string().min(1).max(65_536), passphrase: z.string().min(1).optional(), replace: z.boolean().default(false) }),
  'trust.add': z.strictObject({ publicKey: hex64, label: z.string().max(200).default('') }),
  'trust.remove': z.strictObject({ publicKey: hex64 }),
  /** Writes the self-contained HTML report of a bundle folder. */
  'export.htmlReport': z.strictObject({ bundleDir: z.string().min(1), outFile: z.string().min(1), episodes: z.array(z.number().int().min(0)).max(12).optional() }),
} as const;

export type ProcedureName = keyof typeof schemas;
export const procedureNames = Object.keys(schemas) as ProcedureName[];
export type ProcedureInput<N extends ProcedureName> = z.input<(typeof schemas)[N]>;
export type ParsedInput<N extends ProcedureName> = z.output<(typeof schemas)[N]>;

export function isProcedureName(name: unknown): name is ProcedureName {
  return typeof name === 'string' && Object.hasOwn(schemas, name);
}

// ---------------------------------------------------------------------------

export interface Outputs {
  'app.info': AppInfo;
  overview: Overview;
  'suites.list': readonly SuiteSummary[];
  'suites.get': { readonly suite: SuiteSummary; readonly scenarios: readonly ScenarioSummary[] };
  'suites.add': SuiteSummary;
  'suites.validate': ValidationReport;
  'generated.defaultConfig': { readonly configText: string };
  'generated.preview': { readonly batchId: string; readonly configHash: string; readonly scenarioCount: number; readonly scenarios: readonly ScenarioSummary[] };
  'generated.create': { readonly suite: SuiteSummary; readonly batchId: string };
  'manifests.list': readonly ManifestSummary[];
  'manifests.create': ManifestSummary;
  'packs.list': readonly PackSummary[];
  'packs.build': PackSummary;
  'packs.verify': ValidationReport;
  'agents.list': { readonly builtins: readonly BuiltinAgentInfo[] };
  'runs.start': { readonly trialId: number };
  'runs.cancel': Record<string, never>;
  'runs.resume': { readonly trialId: number };
  'runs.list': readonly RunStatus[];
  'trials.list': PageOf<TrialRow>;
  'trials.get': TrialDetail;
  'trials.tags': readonly { readonly tag: string; readonly trials: number }[];
  'trials.annotate': TrialRow;
  'trials.delete': { readonly trialId: number; readonly episodes: number; readonly artifactsDeleted: number; readonly bytesDeleted: number; readonly artifactsKept: number; readonly fileBytesBefore: number; readonly fileBytesAfter: number };
  'trials.series': TrialSeries | null;
  'trials.check': TrialIntegrity;
  'trials.repair': TrialIntegrity;
  'episodes.list': PageOf<EpisodeRow>;
  'archive.import': { readonly trialId: number; readonly duplicate: boolean };
  'archive.export': { readonly dir: string; readonly files: readonly ExportedFile[] };
  'episodes.replay': EpisodeReplay;
  'episodes.transcript': { readonly lines: readonly TranscriptLine[] };
  'compare.trials': TrialComparison;
  leaderboard: { readonly boards: readonly LeaderboardGroup[] };
  'models.list': readonly ModelSummary[];
  'models.history': ModelHistory;
  'models.compare': ModelsComparison;
  'export.bundle': BundleSummary;
  'export.verifyBundle': BundleSummary;
  'export.htmlReport': { readonly file: string; readonly bytes: number; readonly sha256: string };
  'signing.status': SigningStatus;
  'signing.createKey': SigningStatus;
  'signing.importKey': SigningStatus;
  'trust.add': SigningStatus;
  'trust.remove': SigningStatus;
}

// Every procedure has an output type and every output type a procedure.
type _Exhaustive = [Exclude<ProcedureName, keyof Outputs>, Exclude<keyof Outputs, ProcedureName>] extends [never, never] ? true : never;
export const _contractIsExhaustive: _Exhaustive = true;

// ---------------------------------------------------------------------------
// Events (server -> renderer)

export interface RunProgressEvent {
  readonly trialId: number;
  readonly state: 'running' | 'complete' | 'incomplete' | 'cancelled' | 'failed';
  readonly finished: number;
  readonly scheduled: number;
  readonly elapsedMs: number;
  readonly etaMs: number;
  /** The episode that just finished, if this event is about one. */
  readonly episode?: { readonly index: number; readonly scenarioId: string; readonly status: 'done' | 'failed'; readonly detail: string };
  /** Mean episode score so far (display only), as a decimal string. */
  readonly runningScore: string | null;
  /** Why the run stopped, when state is `failed`. */
  readonly error?: { readonly kind: string; readonly message: string };
  /** Language-model runs: tokens so far and the cost (exact decimal string, null when no pricing). */
  readonly usage?: { readonly calls: number; readonly inputTokens: number; readonly outputTokens: number; readonly cost: string | null; readonly costUnit: string | null };
  /** A run of K > 1 trials: this trial is `index` of `count`, and the totals of the whole run so far (the trials before it and this one). */
  readonly trial?: { readonly index: number; readonly count: number; readonly totals: RunTotals };
}

/** Totals of a run of K trials so far: episodes finished, and for a language model its calls, tokens and cost. */
export interface RunTotals {
  readonly episodes: number;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Exact decimal string; null without pricing or when some answer had no usage fields. */
  readonly cost: string | null;
}

/**
 * What changed in the archive, so that a view refetches only the queries
 * that show it (src/renderer/app/archive-changes.ts):
 *
 * - a trial: `added` (started or imported), `progress` (episodes committed
 *   while it runs), `status` (it ended, was interrupted or resumed: its
 *   status, score and report), `details` (its operational record,
 *   signatures, or a repair), `annotations` (its label, notes or tags),
 *   `deleted`;
 * - the catalog: a suite, a manifest or a pack was added.
 */
export type ArchiveChange =
  | { readonly kind: 'trial'; readonly trialId: number; readonly what: 'added' | 'progress' | 'status' | 'details' | 'annotations' | 'deleted' }
  | { readonly kind: 'catalog'; readonly what: 'suites' | 'manifests' | 'packs' };

export interface Events {
  'run.progress': RunProgressEvent;
  /** The archive changed: what changed, so that views refetch only what shows it. */
  'archive.changed': ArchiveChange;
}
export type EventName = keyof Events;
export const eventNames: readonly EventName[] = ['run.progress', 'archive.changed'];
