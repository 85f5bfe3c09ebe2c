/** `emberbench operational validate`: an operational record (scoring-v1.0.md section 11). */

import { operationalRecordDigest, parseOperationalRecordText } from '../../core/scoring/operational.js';
import { readTextInput } from '../../node/inputs.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';

function operationalValidate(args: ParsedArgs): Promise<Report> {
  const path = args.required('record');
  const record = parseOperationalRecordText(readTextInput(path, 'operational record'), path);
  return Promise.resolve({
    valid: true,
    operational_record_version: record.operational_record_version,
    digest: operationalRecordDigest(record),
    model_id: record.model_id,
    provider_id: record.provider_id,
    inference_config_digest: record.inference_config_digest,
    trials: record.trials,
    episodes: record.episodes,
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
        'Loads an operational record strictly (canonical JSON plus one LF; non-empty printable IDs, a 64-hex inference configuration digest, non-negative integers and exact decimals, cost and cost_unit both set or both null) and reports its digest. Operational values are never score inputs.',
      positionals: [],
      options: [{ name: 'record', kind: 'value', required: true, valueName: 'FILE', description: 'the operational record file' }],
      examples: ['emberbench operational validate --record operational.json --json'],
      run: (args) => operationalValidate(args),
    },
  ],
};
