/**
 * The services of the Generate view: the default generator configuration,
 * previews of what a configuration and batch seed give, and freezing a batch
 * into the archive as a generated suite. The same generator and checks as
 * `emberbench generated create` (src/core/generate, docs/generated-suites.md).
 */

import { readFileSync } from 'node:fs';
import { ValidationError } from '../../core/errors.js';
import { generateBatch, type GeneratedBatch } from '../../core/generate/generate.js';
import { parseGeneratorConfigText, type GeneratorConfig } from '../../core/generate/config.js';
import { generationRecordText } from '../../core/generate/record.js';
import { SUITE_MANIFEST_FILE, loadSuite } from '../../core/world/suite.js';
import type { Outputs, ParsedInput } from '../../shared/api/contract.js';
import type { Archive } from '../archive/archive.js';
import { putText } from '../archive/artifacts.js';
import { storeSuite } from '../archive/inputs-store.js';
import { getSuiteSummary } from './catalog.js';
import { ServiceError } from './dispatch.js';

type GenerateProcedures = 'generated.defaultConfig' | 'generated.preview' | 'generated.create';
export type GenerateHandlers = { readonly [N in GenerateProcedures]: (input: ParsedInput<N>) => Promise<Outputs[N]> };

const CONFIG_SOURCE = 'configuration';

/** A configuration path as the generator's messages give it: `$`, `families[2].rows[0]`, `suite_id`. */
const FAULT_PATH = /^configuration: (\$|[a-z_]+(?:\[\d+\]|\.[a-z_]+)*): /;

/**
 * Parses and generates, turning a configuration the generator refuses into a
 * usage error whose `field` names the configuration field at fault
 * (`configText.families[2].rows[0]`), so the Generate view can mark that
 * control; the message is the generator's own, as the CLI prints it.
 */
function generate(configText: string, batchSeed: string): { config: GeneratorConfig; batch: GeneratedBatch } {
  let config: GeneratorConfig;
  try {
    config = parseGeneratorConfigText(configText, CONFIG_SOURCE);
    return { config, batch: generateBatch(config, batchSeed) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const message = error.message.startsWith(`${CONFIG_SOURCE}: `) ? error.message : `${CONFIG_SOURCE}: ${error.message}`;
    const path = FAULT_PATH.exec(message)?.[1];
    throw new ServiceError('usage', message, path === undefined || path === '$' ? 'configText' : `configText.${path}`);
  }
}

/** `defaultConfigPath`: the shipped scenarios/generated/default.json. */
export function generateHandlers(archive: Archive, defaultConfigPath: string, changed: () => void): GenerateHandlers {
  return {
    'generated.defaultConfig': async () => ({ configText: readFileSync(defaultConfigPath, 'utf8') }),

    'generated.preview': async ({ configText, batchSeed, limit }) => {
      const { config, batch } = generate(configText, batchSeed);
      return {
        batchId: batch.batchId,
        configHash: config.hash,
        scenarioCount: batch.scenarios.length,
        scenarios: batch.scenarios.slice(0, limit).map((s) => ({
          scenarioId: s.scenario.scenarioId,
          title: s.scenario.title,
          families: s.scenario.families,
          scenarioHash: s.scenario.hash,
          text: s.text,
        })),
      };
    },

    'generated.create': async ({ configText, batchSeed }) => {
      const { config, batch } = generate(configText, batchSeed);
      const texts = new Map(batch.scenarios.map((s) => [s.file, s.text]));
      const suite = loadSuite(batch.suiteManifestText, texts, `generated batch ${batch.batchId}`);
      const files = new Map<string, Uint8Array>([[SUITE_MANIFEST_FILE, Buffer.from(batch.suiteManifestText, 'utf8')], ...[...texts].map(([name, text]) => [name, Buffer.from(text, 'utf8')] as const)]);
      const record = generationRecordText(config, batch, suite.hash);
      archive.write((db) => {
        storeSuite(db, suite, files, 'generated');
        // The freeze record is kept with the suite's artifacts, so the batch can be exported and validated later.
        putText(db, 'generation-record', record);
      });
      changed();
      return { suite: getSuiteSummary(archive, suite.hash), batchId: batch.batchId };
    },
  };
}
