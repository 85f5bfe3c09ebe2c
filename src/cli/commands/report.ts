/** `emberbench report html`: the shareable, self-contained HTML report of an official bundle. */

import { UsageError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { checkOutputPath, renderHtmlReport, writeOutputFile } from '../../node/front-door/report.js';
import { FORCE_OPTION, OUT_OPTION } from '../arguments.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';

function episodeArgument(text: string): number {
  if (!/^(0|[1-9][0-9]{0,8})$/.test(text)) throw new UsageError(`--episode: must be an episode index (0, 1, 2, ...), not ${JSON.stringify(text)}`);
  return Number(text);
}

async function reportHtml(args: ParsedArgs): Promise<Report> {
  const bundle = args.required('bundle');
  const out = args.required('out');
  const episodes = args.list('episode').map(episodeArgument);
  const output = { force: args.flag('force'), inputs: [bundle] };
  await checkOutputPath(out, output);
  const html = renderHtmlReport(bundle, episodes.length > 0 ? { episodes } : {});
  await writeOutputFile(out, html, output);
  return { bytes: Buffer.byteLength(html, 'utf8'), sha256: sha256Hex(html) };
}

export const reportModule: CommandModule = {
  group: 'report',
  summary: 'shareable reports',
  commands: [
    {
      words: ['report', 'html'],
      summary: 'write one self-contained HTML report of an official bundle',
      description:
        'Verifies the bundle (as `bundle verify` does), then writes a single HTML file: the headline score with its interval for each model, the comparison when there are two, component and family charts, the episode table, and replays of the episodes picked with --episode (default: the three lowest-scoring episodes of the first model). The file needs no network and no other file: it can be mailed. The same bundle and choices give the same bytes.',
      positionals: [],
      options: [
        { name: 'bundle', kind: 'value', required: true, valueName: 'DIR', description: 'an official bundle (emberbench bundle create)' },
        { name: 'episode', kind: 'repeatable', valueName: 'N', description: 'an episode index to replay in the report (repeat, at most 12)' },
        OUT_OPTION,
        FORCE_OPTION,
      ],
      examples: ['emberbench report html --bundle bundle --out report.html', 'emberbench report html --bundle bundle --episode 0 --episode 4 --out report.html'],
      run: (args) => reportHtml(args),
    },
  ],
};
