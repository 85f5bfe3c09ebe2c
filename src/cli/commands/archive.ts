/**
 * `emberbench archive import | list | export | check | delete`: the workbench
 * archive from the command line (docs/archive.md). Import authenticates
 * every file first (like `evaluation verify` and `score`) and writes all of
 * them in one transaction, or nothing; list, export and check (without
 * --repair) only read, so they also work while the app holds the archive
 * open.
 */

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, ValidationError } from '../../core/errors.js';
import { checkArchiveFile, defaultArchivePath, deleteTrialFromArchive, exportArchiveTrial, importIntoArchive, listArchiveTrials, type ArchiveCheckReport } from '../../node/front-door/archive.js';
import type { CommandContext, CommandModule, OptionSpec, ParsedArgs, Report } from '../command.js';
import { withProgress } from '../progress.js';

const ARCHIVE_OPTION: OptionSpec = {
  name: 'archive',
  kind: 'value',
  valueName: 'FILE',
  description: "the archive file (default: archive.sqlite in the user's data folder, the desktop app's archive)",
};

function archivePathArgument(args: ParsedArgs): string {
  return resolve(args.value('archive') ?? defaultArchivePath());
}

/** The public suite shipped with this package (src/cli/commands or dist/cli/commands, three levels down). */
function publicSuiteDir(): string | undefined {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scenarios', 'public', 'v1');
  return existsSync(dir) ? dir : undefined;
}

function trialArgument(text: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw new UsageError(`TRIAL: must be a trial number (a positive integer, as \`archive list\` shows), not ${JSON.stringify(text)}`);
  return Number(text);
}

async function archiveImport(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const files = args.positionals;
  const suiteDirs = args.list('suite');
  // --operational: none, or one per FILE, paired in order (the record keeps how the agent was isolated).
  const records = args.list('operational');
  if (records.length > 0 && records.length !== files.length) {
    throw new UsageError(`--operational: give none or exactly one per FILE (${files.length} results, ${records.length} records), paired in order`);
  }
  const suites = [...(publicSuiteDir() === undefined ? [] : [{ dir: publicSuiteDir()!, source: 'public' as const }]), ...suiteDirs.map((dir) => ({ dir, source: 'folder' as const }))];
  // Every file authenticated (in slices: Ctrl+C stops it at once) before one transaction writes the suites and all of them.
  const outcome = await withProgress(context.io, args.flag('json'), (onProgress) => importIntoArchive(archivePathArgument(args), { files, records, suites }, onProgress));
  return {
    archive: outcome.archive,
    imported: outcome.imported.map((o) => ({ file: o.file, trial: o.trialId, duplicate: o.duplicate })),
  };
}

async function archiveList(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const page = listArchiveTrials(archivePathArgument(args));
  const trials = page.trials.map((t) => ({
    trial: t.trialId,
    model_id: t.modelId,
    manifest_hash: t.manifestHash,
    suite_id: t.suiteId,
    pack_id: t.packId,
    official: t.official,
    status: t.status,
    origin: t.origin,
    score: t.score,
    score_rounded: t.scoreRounded,
    scheduled_episodes: t.episodesScheduled,
    completed_episodes: t.episodesCompleted,
    failed_episodes: t.episodesFailed,
    created: t.created,
    isolation: t.isolation ?? null,
  }));
  const lines = page.trials.map(
    (t) => `${t.trialId}\t${t.status}\t${t.scoreRounded ?? '-'}\t${t.official ? 'official' : 'unofficial'}\t${t.episodesCompleted}/${t.episodesScheduled}\t${t.modelId}\t${t.suiteId}\t${t.created}`,
  );
  context.setHumanText?.(['trial\tstatus\tscore\ttarget\tepisodes\tmodel\tsuite\tcreated', ...lines].join('\n') + '\n');
  return { archive: page.archive, trials };
}

async function archiveExport(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const trialId = trialArgument(args.positionals[0]!);
  const out = args.required('out');
  const { dir, files } = await withProgress(context.io, args.flag('json'), (onProgress) => exportArchiveTrial(archivePathArgument(args), trialId, out, onProgress));
  return { trial: trialId, dir, files: files.map((f) => ({ file: f.file, sha256: f.sha256 })) };
}

/** The check's report as the command's result (canonical JSON: snake_case keys, no undefined). */
function checkReportOf(archivePath: string, r: ArchiveCheckReport): Report {
  return {
    archive: archivePath,
    ok: r.ok,
    artifacts_checked: r.artifactsChecked,
    trials_checked: r.trialsChecked,
    damaged_artifacts: r.damagedArtifacts.map((a) => ({ digest: a.digest, kind: a.kind, message: a.message })),
    damaged_trials: r.damagedTrials.map((t) => ({
      trial: t.trial,
      status: t.status,
      damage: t.damage.map((d) => ({ kind: d.kind, digest: d.digest, episode: d.episode, message: d.message })),
      repaired: t.repair === null ? null : [...t.repair.repaired],
      unrepaired: t.repair === null ? null : [...t.repair.unrepaired],
    })),
    repaired_trials: r.repairedTrials,
  };
}

/** One line naming what is still damaged (the error of a check that found damage). */
function damageMessage(archivePath: string, r: ArchiveCheckReport, repair: boolean): string {
  const trials = r.damagedTrials
    .filter((t) => t.repair === null || t.repair.unrepaired.length > 0)
    .map((t) => `trial ${t.trial} (${t.repair === null ? t.damage.map((d) => d.message).join('; ') : t.repair.unrepaired.join('; ')})`);
  const ofTrials = new Set(r.damagedTrials.flatMap((t) => t.damage.map((d) => d.digest)));
  const loose = r.damagedArtifacts.filter((a) => !ofTrials.has(a.digest)).map((a) => `${a.kind} artifact ${a.digest} (${a.message})`);
  const parts = [...trials, ...loose];
  const repaired = r.repairedTrials > 0 ? `; repaired trial(s) ${r.damagedTrials.filter((t) => t.repair !== null && t.repair.unrepaired.length === 0).map((t) => t.trial).join(', ')}` : '';
  const next = repair ? 'what is listed could not be repaired; export what still exports and run or import those trials again' : 'run `emberbench archive check --repair` to rebuild what can be';
  return `${archivePath}: damaged: ${parts.join('; ')}${repaired}; ${next}`;
}

async function archiveCheck(args: ParsedArgs): Promise<Report> {
  const repair = args.flag('repair');
  const { archive, report } = await checkArchiveFile(archivePathArgument(args), repair);
  if (!report.ok) throw new ValidationError(damageMessage(archive, report, repair));
  return checkReportOf(archive, report);
}

async function archiveDelete(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const report = deleteTrialFromArchive(archivePathArgument(args), trialArgument(args.required('trial')));
  const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);
  context.setHumanText?.(
    `deleted trial ${report.trial} (${report.model_id}, ${report.episodes} episodes): ${report.artifacts_deleted} artifact(s) only it used removed, ${report.artifacts_kept} shared kept; archive ${mb(report.file_bytes_before)} MB -> ${mb(report.file_bytes_after)} MB\n`,
  );
  return { ...report };
}

export const archiveModule: CommandModule = {
  group: 'archive',
  summary: 'the workbench archive: import CLI results, list trials, export a trial, check and repair, delete a trial',
  commands: [
    {
      words: ['archive', 'import'],
      summary: 'authenticate evaluation results and add them to the archive',
      description:
        'Authenticates every FILE from scratch like `evaluation verify` (every record replayed, every metric recomputed) and scores it like `score --suite` (unofficial), then adds all of them to the archive in one transaction. A file that fails is refused with the reason (exit 3, or 5 for a replay mismatch) and nothing is written. A result must target the public suite or a suite given with --suite; a file already archived (same bytes) is reported as a duplicate. Fails with exit 6 while another process (the app) is writing the archive.',
      positionals: [{ name: 'FILE...', description: 'evaluation result files', variadic: true }],
      options: [
        ARCHIVE_OPTION,
        { name: 'suite', kind: 'repeatable', valueName: 'DIR', description: 'a suite folder the results target (stored with them; the public suite is always known)' },
        {
          name: 'operational',
          kind: 'repeatable',
          valueName: 'FILE',
          description: 'the operational record of the FILE of the same position (none, or one per FILE): stored with the trial, its isolation level shown with it; it must be of the result\'s model',
        },
      ],
      examples: ['emberbench archive import result.json --json', 'emberbench archive import result.json --operational result.operational.json', 'emberbench archive import t1.json t2.json --suite my-suite --archive runs/archive.sqlite'],
      run: (args, context) => archiveImport(args, context),
    },
    {
      words: ['archive', 'list'],
      summary: 'list the trials of the archive',
      description: 'Lists every trial (oldest first): its number, status, score (rounded; exact in --json), target, episodes, model, suite and date. Reads only.',
      positionals: [],
      options: [ARCHIVE_OPTION],
      examples: ['emberbench archive list', 'emberbench archive list --archive runs/archive.sqlite --json'],
      run: (args, context) => archiveList(args, context),
    },
    {
      words: ['archive', 'export'],
      summary: "write a trial's files, byte-identical to the CLI's",
      description:
        "Writes the trial's result.json (as `evaluation run --out` writes it), score.json (as `score --out` writes it) and summary.txt (the summary `score` prints) into a new folder (or an existing empty one); every stored artifact is checked against its digest first. The folder is built beside --out and renamed into place: it is complete or absent. Reads only.",
      positionals: [{ name: 'TRIAL', description: 'the trial number (archive list)' }],
      options: [ARCHIVE_OPTION, { name: 'out', kind: 'value', required: true, valueName: 'DIR', description: 'the new folder; its parent must exist' }],
      examples: ['emberbench archive export 3 --out trial-3'],
      run: (args, context) => archiveExport(args, context),
    },
    {
      words: ['archive', 'check'],
      summary: 'read back every stored artifact and trial; --repair rebuilds damaged results',
      description:
        "Reads back every artifact (inflated and checked against its digest) and checks every trial: a finished trial has a readable result, every committed episode's record and metrics are readable, and the stored episodes compose to exactly the trial's recorded result. Prints the counts when nothing is damaged. Damage found is exit 3, its message naming each damaged trial and what is damaged. With --repair (which writes, so exit 6 while the app holds the archive) a damaged result is rebuilt from the trial's stored episodes (the bytes `evaluation run` writes) and replaces the damaged one only when it has the trial's recorded result digest; a damaged score report or summary is re-scored and replaced only when it has its recorded digest. Whatever is repaired is listed; what cannot be is named, left as it is, and the exit is 3. Without --repair nothing is written.",
      positionals: [],
      options: [ARCHIVE_OPTION, { name: 'repair', kind: 'flag', description: 'rebuild damaged results (and re-score damaged reports) when the rebuilt bytes have the recorded digest' }],
      examples: ['emberbench archive check', 'emberbench archive check --archive runs/archive.sqlite --repair --json'],
      run: (args) => archiveCheck(args),
    },
    {
      words: ['archive', 'delete'],
      summary: 'delete a trial and the artifacts only it used, then reclaim the space',
      description:
        "Deletes the trial (its episodes, score report, summary, operational record, signatures, label, notes, tags and run log) and every artifact that nothing else in the archive uses; artifacts another trial, suite, manifest or pack still uses stay. Then the file is compacted (VACUUM), so the space goes back to the disk. All of it is one transaction: the trial is gone whole, or not at all. Its number is never given to another trial. A trial marked running is refused (exit 6), as is an archive the app holds open (exit 6); a trial that is not there is exit 3. `archive check` passes afterwards.",
      positionals: [],
      options: [ARCHIVE_OPTION, { name: 'trial', kind: 'value', required: true, valueName: 'TRIAL', description: 'the trial number (archive list)' }],
      examples: ['emberbench archive delete --trial 3', 'emberbench archive delete --archive runs/archive.sqlite --trial 3 --json'],
      run: (args, context) => archiveDelete(args, context),
    },
  ],
};
