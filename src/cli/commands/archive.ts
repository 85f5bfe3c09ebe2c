/**
 * `emberbench archive import | list | export`: the workbench archive from
 * the command line (docs/archive.md). Import authenticates every file first
 * (like `evaluation verify` and `score`) and writes all of them in one
 * transaction, or nothing; list and export only read, so they also work
 * while the app holds the archive open.
 */

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../core/errors.js';
import { defaultArchivePath } from '../../node/app/paths.js';
import { commitImports, exportTrial, prepareImport, type PreparedImport } from '../../node/archive/archive-io.js';
import { withArchiveFaultsAsync } from '../../node/archive/archive-errors.js';
import { Archive } from '../../node/archive/archive.js';
import { readSuiteFolder, storeSuite } from '../../node/archive/inputs-store.js';
import { listTrials } from '../../node/archive/queries.js';
import { readTextInput } from '../../node/inputs.js';
import type { CommandContext, CommandModule, OptionSpec, ParsedArgs, Report } from '../command.js';

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

async function archiveImport(args: ParsedArgs): Promise<Report> {
  const files = args.positionals;
  const suiteDirs = args.list('suite');
  // --operational: none, or one per FILE, paired in order (the record keeps how the agent was isolated).
  const records = args.list('operational');
  if (records.length > 0 && records.length !== files.length) {
    throw new UsageError(`--operational: give none or exactly one per FILE (${files.length} results, ${records.length} records), paired in order`);
  }
  const texts = files.map((path) => readTextInput(path, 'evaluation result'));
  const recordFiles = records.map((path) => ({ fileName: path, text: readTextInput(path, 'operational record') }));
  const suites = [...(publicSuiteDir() === undefined ? [] : [{ dir: publicSuiteDir()!, source: 'public' as const }]), ...suiteDirs.map((dir) => ({ dir, source: 'folder' as const }))].map(
    (s) => ({ ...readSuiteFolder(s.dir), source: s.source }),
  );
  const archive = Archive.open(archivePathArgument(args), { mode: 'write' });
  try {
    // One transaction: the suites, and every file authenticated before any of them is written.
    const outcomes = archive.write((db) => {
      for (const s of suites) storeSuite(db, s.suite, s.files, s.source);
      const prepared = files.map((path, k) => prepareImport(db, path, texts[k]!, recordFiles[k]));
      const fresh = commitImports(archive, prepared.filter((p): p is PreparedImport => !('duplicate' in p)));
      let next = 0;
      return prepared.map((p) => ('duplicate' in p ? { trialId: p.duplicate, duplicate: true } : fresh[next++]!));
    });
    return {
      archive: archive.path,
      imported: outcomes.map((o, k) => ({ file: files[k]!, trial: o.trialId, duplicate: o.duplicate })),
    };
  } finally {
    archive.close();
  }
}

async function archiveList(args: ParsedArgs, context: CommandContext): Promise<Report> {
  const archive = Archive.open(archivePathArgument(args), { mode: 'read' });
  try {
    const page = archive.read((db) => listTrials(db, { sort: 'created', direction: 'asc', filter: {}, offset: 0, limit: 1_000_000 }));
    const trials = page.rows.map((t) => ({
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
    const lines = page.rows.map(
      (t) => `${t.trialId}\t${t.status}\t${t.scoreRounded ?? '-'}\t${t.official ? 'official' : 'unofficial'}\t${t.episodesCompleted}/${t.episodesScheduled}\t${t.modelId}\t${t.suiteId}\t${t.created}`,
    );
    context.setHumanText?.(['trial\tstatus\tscore\ttarget\tepisodes\tmodel\tsuite\tcreated', ...lines].join('\n') + '\n');
    return { archive: archive.path, trials };
  } finally {
    archive.close();
  }
}

async function archiveExport(args: ParsedArgs): Promise<Report> {
  const trialId = trialArgument(args.positionals[0]!);
  const out = args.required('out');
  const archive = Archive.open(archivePathArgument(args), { mode: 'read' });
  try {
    const { dir, files } = await withArchiveFaultsAsync(archive.path, () => exportTrial(archive, trialId, out));
    return { trial: trialId, dir, files: files.map((f) => ({ file: f.file, sha256: f.sha256 })) };
  } finally {
    archive.close();
  }
}

export const archiveModule: CommandModule = {
  group: 'archive',
  summary: 'the workbench archive: import CLI results, list trials, export a trial',
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
      run: (args) => archiveImport(args),
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
      run: (args) => archiveExport(args),
    },
  ],
};
