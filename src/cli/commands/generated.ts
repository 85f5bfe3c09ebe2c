/**
 * `emberbench generated create | validate` (evaluation.md section 9,
 * cli-v1.0.md "generated validate"): generate a frozen batch of scenarios
 * from a configuration and a batch seed, and check a frozen batch against
 * its freeze record. Suite-taking commands load a batch with
 * --generated-suite DIR (evaluation.ts suiteDirArgument).
 */

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_CONFIG_VERSION, GENERATOR_VERSION, parseGeneratorConfigText } from '../../core/generate/config.js';
import { GENERATION_MANIFEST_VERSION } from '../../core/generate/record.js';
import { createGeneratedSuite, loadGeneratedSuite, readTextInput, type GeneratedSuite } from '../../node/front-door/generated.js';
import { seedArgument } from '../arguments.js';
import type { CommandModule, ParsedArgs, Report } from '../command.js';
import { suiteValidateReport } from './suite.js';

/** The configuration used when --config is left out, shipped with the package. */
export function defaultConfigPath(): string {
  // dist/cli/commands or src/cli/commands: the package root is three levels up.
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scenarios', 'generated', 'default.json');
}

/** The fields `generated validate` and `generated create` report: the suite validate fields plus the batch identity. */
function generatedReport(loaded: GeneratedSuite): Report {
  const { record } = loaded;
  return {
    ...suiteValidateReport(loaded.suite),
    generation_manifest_version: GENERATION_MANIFEST_VERSION,
    // parseGenerationRecord admits only this build's versions.
    generator_version: GENERATOR_VERSION,
    generator_config_version: GENERATOR_CONFIG_VERSION,
    batch_id: record.batchId,
    config_hash: record.config.hash,
  };
}

async function generatedCreate(args: ParsedArgs): Promise<Report> {
  // 1. The command line (exit 2), 2. the configuration (exit 3), 3. the output (exit 6).
  const batchSeed = seedArgument(args.required('batch-seed'), '--batch-seed');
  const out = args.required('out');
  const configPath = args.value('config') ?? defaultConfigPath();
  const config = parseGeneratorConfigText(readTextInput(configPath, 'generator configuration'), configPath);
  const created = await createGeneratedSuite(config, batchSeed, out);
  return generatedReport(created.loaded);
}

export const generatedModule: CommandModule = {
  group: 'generated',
  summary: 'generated suites: create and validate frozen batches',
  commands: [
    {
      words: ['generated', 'create'],
      summary: 'generate a frozen batch (generation.json + suite/) from a configuration and a batch seed',
      description:
        'Generates scenarios of every configured family from the configuration (scenarios/generated/default.json when --config is left out) and the batch seed, checks each with the strict scenario parser, and writes a new directory holding generation.json (the freeze record: versions, configuration and its hash, batch ID, every scenario hash) and suite/ (a suite directory). The same configuration and batch seed give byte-identical files. The directory is written atomically and never replaced. A configuration that cannot produce valid scenarios is refused naming the field (exit 3).',
      positionals: [],
      options: [
        { name: 'config', kind: 'value', valueName: 'FILE', description: 'the generator configuration (default: scenarios/generated/default.json of this package)' },
        { name: 'batch-seed', kind: 'value', required: true, valueName: 'N', description: 'the batch seed, a decimal integer in [0, 2^64 - 1]' },
        { name: 'out', kind: 'value', required: true, valueName: 'DIR', description: 'the batch directory to create; it must not exist, its parent must' },
      ],
      examples: ['emberbench generated create --batch-seed 7 --out batch', 'emberbench generated create --config scenarios/generated/stress.json --batch-seed 1 --out stress-batch --json'],
      run: (args) => generatedCreate(args),
    },
    {
      words: ['generated', 'validate'],
      summary: 'a frozen generated suite (generation.json + suite/)',
      description:
        'Loads a frozen generated suite with the generated-suite loader: the directory holds exactly generation.json and suite/; the suite passes the suite loader; every file matches the freeze record byte for byte; and regenerating from the recorded configuration and batch seed gives exactly these files. A tampered file or record is refused (exit 3). Reports the suite fields, the scenarios, generation_manifest_version, generator_version, batch_id and the configuration hash.',
      positionals: [{ name: 'DIR', description: 'the batch directory' }],
      options: [],
      examples: ['emberbench generated validate batch --json'],
      run: async (args) => generatedReport(loadGeneratedSuite(args.positional(0))),
    },
  ],
};
