/** `emberbench operational validate`: an operational record (scoring-v1.0.md section 11). */

import { efficiencyViewOfRecord, operationalRecordDigest, parseOperationalRecordText } from '../../core/scoring/operational.js';
import { parseScoreReportText } from '../../core/scoring/report-reader.js';
import { readTextInput } from '../../node/front-door/operational.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';

function operationalValidate(args: ParsedArgs): Promise<Report> {
  const path = args.required('operational');
  const record = parseOperationalRecordText(readTextInput(path, 'operational record'), path);
  const reportPath = args.value('report');
  // The efficiency view reads the report; it never changes the score or an order.
  const efficiency =
    reportPath === undefined ? undefined : efficiencyViewOfRecord(parseScoreReportText(readTextInput(reportPath, 'score report'), reportPath).report, record);
  return Promise.resolve({
    valid: true,
    operational_record_version: record.operational_record_version,
    digest: operationalRecordDigest(record),
    model_id: record.model_id,
    provider_id: record.provider_id,
    inference_config_digest: record.inference_config_digest,
    trials: record.trials,
    episodes: record.episodes,
    ...(efficiency === undefined ? {} : { efficiency }),
  });
}

export const operationalModule: CommandModule = {
  group: 'operational',
  summary: 'operational records: latency, tokens and cost next to a score (never in it)',
  commands: [
    {
      words: ['operational', 'validate'],
      summary: 'validate an operational record and print its digest',
      description:
        'Loads an operational record strictly (canonical JSON plus one LF; non-empty printable IDs, a 64-hex inference configuration digest, non-negative integers and exact decimals, cost and cost_unit both set or both null) and reports its digest. With --report, also the EMBER-Efficiency view: the report\'s score per unit of the record\'s cost per episode. Operational values are never score inputs.',
      positionals: [],
      options: [
        { name: 'operational', kind: 'value', required: true, valueName: 'FILE', description: 'the operational record file (as in score --operational; --record is a run record elsewhere)', aliases: ['record'] },
        { name: 'report', kind: 'value', valueName: 'FILE', description: 'a score report of the same model: add the EMBER-Efficiency view (the record must have a cost)' },
      ],
      examples: ['emberbench operational validate --operational operational.json --json', 'emberbench operational validate --operational operational.json --report score.json'],
      run: (args) => operationalValidate(args),
    },
  ],
};
