/**
 * What the workbench's procedures answer: the view types of the contract
 * (src/shared/api/contract.ts maps each procedure to one of them in
 * `Outputs`). Plain TypeScript types: the services that build them are
 * trusted code, so nothing here is validated at run time. The artifacts
 * inside them (score report, operational record, evidence, comparison,
 * leaderboard) are core's own types, exactly as core writes them.
 */

import type { ComparisonArtifact } from '../../core/scoring/compare.js';
import type { EpisodeEvidence } from '../../core/scoring/evidence.js';
import type { LeaderboardArtifact } from '../../core/scoring/leaderboard.js';
import type { OperationalRecord } from '../../core/scoring/operational.js';
import type { ScoreReport } from '../../core/scoring/report.js';

/** Trial and episode statuses (also the values their list filters accept). */
export const trialStatuses = ['running', 'interrupted', 'complete', 'incomplete'] as const;
export const episodeStatuses = ['done', 'failed', 'missing'] as const;

export interface AppInfo {
  readonly version: string;
  readonly mode: 'desktop' | 'browser';
  readonly archivePath: string;
  readonly cores: number;
  readonly maxJobs: number;
  readonly defaultJobs: number;
}

export interface SuiteSummary {
  readonly suiteHash: string;
  readonly suiteId: string;
  readonly suiteVersion: string;
  readonly visibility: string;
  readonly seedRole: string;
  /** Where it came from: the public suite shipped with the app, a folder the user added, a generated batch. */
  readonly source: 'public' | 'folder' | 'generated';
  readonly scenarioCount: number;
  readonly families: readonly string[];
}

export interface ScenarioSummary {
  readonly scenarioId: string;
  readonly title: string;
  readonly families: readonly string[];
  readonly scenarioHash: string;
  /** The scenario file's exact text: the renderer parses it with the core library to draw the preview. */
  readonly text: string;
}

export interface ManifestSummary {
  readonly manifestHash: string;
  readonly suiteHash: string;
  readonly suiteId: string;
  readonly episodeCount: number;
  /** How many seeds: seed values are never shown. */
  readonly seedCount: number;
  readonly scenarioCount: number;
}

export interface PackSummary {
  readonly packDigest: string;
  readonly packId: string;
  readonly suiteHash: string;
  readonly manifestHash: string;
  readonly episodeCount: number;
}

export interface ValidationReport {
  readonly valid: boolean;
  readonly message: string;
}

export interface BuiltinAgentInfo {
  readonly id: string;
  readonly description: string;
}

export type TrialStatus = (typeof trialStatuses)[number];

export interface TrialRow {
  readonly trialId: number;
  readonly modelId: string;
  readonly manifestHash: string;
  readonly suiteId: string;
  readonly packId: string | null;
  readonly official: boolean;
  readonly status: TrialStatus;
  /** The EMBER Score as an exact decimal string, null until scored or when undefined. */
  readonly score: string | null;
  /** Rounded to one decimal for display ("55.6"). */
  readonly scoreRounded: string | null;
  readonly intervalLow: string | null;
  readonly intervalHigh: string | null;
  readonly episodesScheduled: number;
  readonly episodesCompleted: number;
  readonly episodesFailed: number;
  readonly evacuated: number;
  readonly dead: number;
  readonly stranded: number;
  /** Where the trial came from. */
  readonly origin: 'run' | 'import';
  /** ISO 8601, UTC: when it was started or imported (display only, never hashed). */
  readonly created: string;
  /** A short description of the agent (`builtin:congestion-aware-v1`, a module, a command). */
  readonly agentLabel: string;
  /**
   * How the agent was isolated (evaluation.md section 8): `sandboxed`
   * (bubblewrap), `none` (the user's full rights: the score cannot show the
   * agent saw only its observations), `in_process` (a builtin or the chat
   * adapter, the evaluator's own code); null when not recorded (an import
   * without an operational record stating it, a run older than the field).
   */
  readonly isolation?: 'sandboxed' | 'none' | 'in_process' | null;
  /** Operators' valid signatures of the trial's result (imported with it), with trust from the app's trust list; empty when unsigned. */
  readonly signers: readonly SignerView[];
  /** What people wrote about the trial (docs/archive.md "Trial housekeeping"): never in a result, a score or a digest. */
  readonly label: string;
  readonly tags: readonly string[];
  /** Wall time of the trial's runs in ms (a resume adds its own; display only); null for an import or an older run. */
  readonly durationMs: number | null;
}

/** One line of a trial's run log: what its runs said (starts, failures with the agent's stderr tail, how they ended). */
export interface TrialLogEntry {
  readonly seq: number;
  /** ISO 8601, UTC (display only). */
  readonly at: string;
  readonly level: 'info' | 'warning' | 'failure';
  readonly message: string;
}

export interface TrialDetail {
  readonly trial: TrialRow;
  /** The score report as stored, once the trial is scored. */
  readonly report: ScoreReport | null;
  /** The section 10 summary text rendered from the report. */
  readonly summaryText: string | null;
  /** The operational record, when there is one. */
  readonly operational: OperationalRecord | null;
  /** The trial's notes (its label and tags are in `trial`). */
  readonly notes: string;
  /** The run log, oldest first (bounded: the last 200 entries of at most 4096 characters). */
  readonly log: readonly TrialLogEntry[];
}

/**
 * A trial of a series of K started together (runs.start `trials` K): its
 * place, and the combined score of the series' scored trials, each
 * episode's trials averaged before the aggregation (scoring-v1.0.md
 * sections 6 and 12); the score is null until two trials are scored.
 */
export interface TrialSeries {
  readonly index: number;
  readonly count: number;
  /** The series' first trial. */
  readonly first: number;
  /** The series' trials that have a score report, in series order: the trials the combined score covers. */
  readonly scoredTrialIds: readonly number[];
  readonly score: string | null;
  readonly scoreRounded: string | null;
  readonly intervalLow: string | null;
  readonly intervalHigh: string | null;
}

/** What is damaged in a trial: its result (or it names none), an episode's record or metrics, episodes that compose to another result, its manifest, score report, summary or operational record. */
export type TrialDamageKind = 'result' | 'result-missing' | 'episode' | 'episodes-differ' | 'manifest' | 'score-report' | 'summary' | 'operational';

/** What `trials.check` found damaged in a trial (docs/archive.md, archive check), and what `trials.repair` did about it. */
export interface TrialIntegrity {
  readonly trialId: number;
  /** True while anything of the trial is damaged (after a repair: what could not be repaired). */
  readonly damaged: boolean;
  /** What the check found, each with the damaged artifact and episode when there is one. */
  readonly damage: readonly { readonly kind: TrialDamageKind; readonly digest: string | null; readonly episode: number | null; readonly message: string }[];
  /** After a repair: what was repaired, and what could not be and why. */
  readonly repaired: readonly string[];
  readonly unrepaired: readonly string[];
}

export type EpisodeStatus = (typeof episodeStatuses)[number];

export interface EpisodeRow {
  readonly trialId: number;
  readonly modelId: string;
  readonly index: number;
  readonly scenarioId: string;
  readonly family: string;
  readonly status: EpisodeStatus;
  readonly failureKind: string | null;
  readonly termination: string | null;
  readonly steps: number | null;
  readonly evacuated: number | null;
  readonly dead: number | null;
  readonly stranded: number | null;
  /** The episode score (exact decimal string), when scored. */
  readonly score: string | null;
}

export interface PageOf<T> {
  readonly rows: readonly T[];
  readonly total: number;
}

export interface RunStatus {
  readonly trialId: number;
  readonly modelId: string;
  readonly agentLabel: string;
  readonly state: 'running' | 'cancelling';
  readonly finished: number;
  readonly scheduled: number;
  readonly elapsedMs: number;
  readonly etaMs: number;
}

export interface Overview {
  readonly suites: readonly SuiteSummary[];
  readonly manifests: readonly ManifestSummary[];
  readonly packs: readonly PackSummary[];
  readonly models: readonly string[];
  readonly recentTrials: readonly TrialRow[];
  readonly running: readonly RunStatus[];
  /** Trials a quit or crash left unfinished: the Run view offers to resume them. */
  readonly interrupted: readonly TrialRow[];
}

export interface ExportedFile {
  readonly file: string;
  readonly sha256: string;
}

export interface EpisodeReplay {
  readonly trialId: number;
  readonly modelId: string;
  readonly index: number;
  readonly scenarioId: string;
  /** The scenario file's exact text. */
  readonly scenarioText: string;
  /** The run record's canonical text, or null when the episode failed (no record). */
  readonly recordText: string | null;
  /** The episode's evidence from the trial's score report, when scored. */
  readonly evidence: EpisodeEvidence | null;
  readonly failure: { readonly kind: string; readonly message: string } | null;
}

export interface TranscriptLine {
  /** The step the answer drove. */
  readonly step: number;
  readonly prompt: string;
  readonly answer: string | null;
  readonly outcome: string;
  readonly latencyMs: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** HTTP attempts of the call (1 + retries) and the retries among them (after a 429, a 5xx, an expired deadline or a dropped connection). */
  readonly attempts: number;
  readonly retries: number;
}

export interface TrialComparison {
  /** The comparison artifact, exactly what `score compare` writes. */
  readonly artifact: ComparisonArtifact;
  /** The summary lines `score compare` prints. */
  readonly summary: readonly string[];
}

export interface LeaderboardGroup {
  /** The pack ID (official) or the suite ID (UNOFFICIAL). */
  readonly target: string;
  readonly official: boolean;
  readonly manifestHash: string;
  /** The leaderboard artifact, exactly what `emberbench leaderboard` writes; null with a single model. */
  readonly board: LeaderboardArtifact | null;
  /** The rows: model, score, interval, outcome against the next entry. */
  readonly rows: readonly LeaderboardRow[];
}

export interface LeaderboardRow {
  readonly rank: number;
  readonly modelId: string;
  readonly trialIds: readonly number[];
  readonly score: string | null;
  readonly scoreRounded: string | null;
  readonly intervalLow: string | null;
  readonly intervalHigh: string | null;
  /** The paired outcome against the next entry down (exact_tie, a_better, b_better, inconclusive), null for the last. */
  readonly vsNext: string | null;
  /** How the entry's agent was isolated (TrialRow.isolation). */
  readonly isolation: TrialRow['isolation'];
  /** The entry's trial's signers (TrialRow.signers). */
  readonly signers: readonly SignerView[];
}

export interface BundleSummary {
  readonly dir: string;
  readonly packId: string;
  readonly models: readonly { readonly modelId: string; readonly trials: number; readonly score: string | null }[];
  readonly comparisonOutcome: string | null;
  readonly files: number;
  /** Its signatures (each valid: an invalid one fails the call), or null when it is unsigned. */
  readonly signatures: readonly SignerView[] | null;
}

/** One valid operator signature, with the key's trust on the app's trust list as it is now. */
export interface SignerView {
  readonly publicKey: string;
  /** SHA-256 of the raw public key, first 16 bytes, `21fe:31df:...`. */
  readonly fingerprint: string;
  readonly signedAt: string;
  readonly trusted: boolean;
  /** The trust list's label for the key, null when it is not listed. */
  readonly label: string | null;
}

export interface SigningStatus {
  /** The app's signing key: public facts only. */
  readonly key: { readonly publicKey: string; readonly fingerprint: string; readonly sealed: boolean } | null;
  /** Where the key file lives (the app's data folder, never the archive). */
  readonly keyFile: string;
  readonly dataDir: string;
  readonly trusted: readonly { readonly publicKey: string; readonly fingerprint: string; readonly label: string }[];
}

