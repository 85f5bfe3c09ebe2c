/**
 * Frozen generated suites on disk (evaluation.md section 9): a directory
 * holding exactly `generation.json` (the freeze record) and `suite/` (a
 * suite directory the suite loader accepts).
 *
 * Load (the generated-suite loader): the layout, the record
 * (src/core/generate/record.ts), the suite with the suite loader, then every
 * file against the record and against a regeneration. Every problem is a
 * ValidationError (exit 3).
 *
 * Create: generate in memory (a configuration that cannot produce valid
 * scenarios fails here, before anything is created), then, like `pack
 * build`, reserve the output directory with an exclusive mkdir, write a
 * temporary directory beside it (each file fsynced), load it back with the
 * loader, and rename it over the empty placeholder. An existing output is
 * never replaced (there is no --force). On any failure, and on Ctrl+C
 * (files.ts removePendingOutputs), nothing is left behind.
 */

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError, isEmberError } from '../core/errors.js';
import type { GeneratorConfig } from '../core/generate/config.js';
import { generateBatch } from '../core/generate/generate.js';
import {
  GENERATED_SUITE_DIR,
  GENERATION_RECORD_FILE,
  checkFrozenBatch,
  generationRecordText,
  parseGenerationRecord,
  type GenerationRecord,
} from '../core/generate/record.js';
import { loadSuite, SUITE_MANIFEST_FILE, type Suite } from '../core/world/suite.js';
import { checkOutputDirectory, stripTrailingSeparators, syncDirectory, writeFileSynced, writeOutputDirectory } from './output-directory.js';
import { loadSuiteDir, readTextInput } from './inputs.js';
import { errnoCode } from './errno.js';

export interface GeneratedSuite {
  readonly record: GenerationRecord;
  readonly suite: Suite;
  /** The suite directory inside the batch (`DIR/suite`): what suite-taking commands load. */
  readonly suiteDir: string;
}

const BATCH_OUTPUT = { what: 'generated suite', existsNote: 'a batch is always created in a new directory' } as const;

/** The suite directory of a batch, as suite-taking commands name it. */
export function generatedSuiteDir(dir: string): string {
  return `${stripTrailingSeparators(dir)}/${GENERATED_SUITE_DIR}`;
}

/** Loads a frozen generated suite and checks its freeze record against every file (exit 3 on any problem). */
export function loadGeneratedSuite(dir: string): GeneratedSuite {
  const base = stripTrailingSeparators(dir);
  let entries: { name: string; isFile: boolean; isDirectory: boolean }[];
  try {
    if (!statSync(base).isDirectory()) throw new ValidationError(`${base}: generated suite is not a directory`);
    entries = readdirSync(base, { withFileTypes: true }).map((d) => ({ name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory() }));
  } catch (error) {
    if (isEmberError(error)) throw error;
    const code = errnoCode(error);
    throw new ValidationError(code === 'ENOENT' ? `${base}: generated suite directory does not exist` : `${base}: cannot read generated suite directory (${code ?? String(error)})`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const layout = `${GENERATION_RECORD_FILE} and ${GENERATED_SUITE_DIR}/`;
  for (const entry of entries) {
    const ok = (entry.name === GENERATION_RECORD_FILE && entry.isFile) || (entry.name === GENERATED_SUITE_DIR && entry.isDirectory);
    if (!ok) throw new ValidationError(`${base}/${entry.name}: unexpected entry (a generated suite holds exactly ${layout})`);
  }
  for (const name of [GENERATION_RECORD_FILE, GENERATED_SUITE_DIR]) {
    if (!entries.some((e) => e.name === name)) throw new ValidationError(`${base}/${name}: missing (a generated suite holds exactly ${layout})`);
  }
  const recordPath = `${base}/${GENERATION_RECORD_FILE}`;
  const record = parseGenerationRecord(readTextInput(recordPath, 'freeze record'), recordPath);
  const suiteDir = `${base}/${GENERATED_SUITE_DIR}`;
  const suite = loadSuiteDir(suiteDir);
  const bytes = new Map<string, Uint8Array>();
  for (const name of [SUITE_MANIFEST_FILE, ...suite.entries.map((e) => e.file)]) {
    try {
      bytes.set(name, readFileSync(join(suiteDir, name)));
    } catch (error) {
      throw new ValidationError(`${suiteDir}/${name}: cannot read suite file (${errnoCode(error) ?? String(error)})`);
    }
  }
  checkFrozenBatch(record, suite, bytes, base);
  return { record, suite, suiteDir };
}

export interface CreatedBatch {
  readonly batchId: string;
  readonly loaded: GeneratedSuite;
}

/** Seams for tests: a failure at the moment a real filesystem rarely shows on demand. */
export interface CreateBatchHooks {
  readonly beforePublish?: (tempDir: string) => void | Promise<void>;
}

/** `generated create`: generates the batch and writes it as a new directory `out`, atomically. */
export async function createGeneratedSuite(config: GeneratorConfig, batchSeed: string, out: string, hooks: CreateBatchHooks = {}): Promise<CreatedBatch> {
  // 1. Everything in memory first: a configuration problem (exit 3) creates nothing.
  const batch = generateBatch(config, batchSeed);
  const files = new Map<string, string>(batch.scenarios.map((s) => [s.file, s.text]));
  const suite = loadSuite(batch.suiteManifestText, files, GENERATED_SUITE_DIR);
  const recordText = generationRecordText(config, batch, suite.hash);
  const target = stripTrailingSeparators(out);
  checkOutputDirectory(target, BATCH_OUTPUT, []);

  // 2. A temporary directory beside the output, loaded back, then published by rename.
  await writeOutputDirectory(
    target,
    BATCH_OUTPUT,
    async (temp) => {
      const suiteTemp = join(temp, GENERATED_SUITE_DIR);
      await mkdir(suiteTemp);
      await writeFileSynced(join(suiteTemp, SUITE_MANIFEST_FILE), batch.suiteManifestText);
      for (const [name, text] of files) await writeFileSynced(join(suiteTemp, name), text);
      await syncDirectory(suiteTemp);
      await writeFileSynced(join(temp, GENERATION_RECORD_FILE), recordText);
      // Read back: a batch the loader refuses is never published.
      loadGeneratedSuite(temp);
    },
    hooks,
  );
  return { batchId: batch.batchId, loaded: loadGeneratedSuite(target) };
}

