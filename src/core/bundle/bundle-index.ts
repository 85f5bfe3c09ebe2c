/**
 * The official bundle index (`bundle.json`, bundle_version 1.0): what an
 * official bundle holds and the SHA-256 of every file in it. The bundle is
 * a folder (docs/bundles.md):
 *
 *   bundle.json                        this index, canonical JSON + LF
 *   pack/                              the environment pack, byte for byte
 *   model-1/trial-1.result.json ...    the evaluation results, byte for byte
 *   model-1/statistics-1.json ...      `statistics aggregate` of each trial
 *   model-1/operational.json           the operational record, when given
 *   model-1/score.json, score.txt      `score --pack` of the model's trials, and its summary
 *   model-2/...                        the second model, when there are two
 *   comparison.json, comparison.txt    `score compare` of model 1 (A) and model 2 (B)
 *   signatures.json                    operators' signatures of bundle.json, when signed (not listed)
 *
 * Folders are numbered, not named after models: a model ID may hold any
 * printable character. Nothing in the index depends on where or when the
 * bundle was made, so the same inputs give the same bytes.
 */

import { ValidationError } from '../errors.js';
import { HEX64 } from '../hash.js';
import { canonicalJson, type JsonValue } from '../json/canonical.js';
import { FieldReader } from '../json/fields.js';
import { parseJsonInput } from '../json/strict-parse.js';

export const BUNDLE_VERSION = '1.0';
export const BUNDLE_INDEX_FILE = 'bundle.json';
export const BUNDLE_PACK_DIR = 'pack';
/** The operators' signatures of bundle.json (docs/bundles.md): beside the index, never listed in it. */
export const BUNDLE_SIGNATURES_FILE = 'signatures.json';

export interface BundleModel {
  readonly model_id: string;
  /** The folder: `model-1`, `model-2`. */
  readonly dir: string;
  readonly trials: number;
  readonly score: string | null;
  readonly official: boolean;
  readonly report_digest: string;
  readonly operational: boolean;
}

export interface BundleFile {
  readonly file: string;
  readonly sha256: string;
}

export interface BundleIndex {
  readonly bundle_version: string;
  readonly pack_id: string;
  readonly pack_digest: string;
  readonly manifest_hash: string;
  readonly models: readonly BundleModel[];
  /** The paired outcome of model 1 (A) against model 2 (B), when there are two. */
  readonly comparison_outcome: string | null;
  /** Every file but bundle.json and signatures.json, sorted by path (`/` separated). */
  readonly files: readonly BundleFile[];
}

/** A bundle-relative path: `/`-separated segments of safe characters, no `.` or `..`. */
const SAFE_PATH = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

export function isSafeBundlePath(path: string): boolean {
  return SAFE_PATH.test(path) && !path.split('/').some((s) => s === '.' || s === '..');
}

export function modelDir(position: number): string {
  return `model-${position + 1}`;
}

export function bundleIndexText(index: BundleIndex): string {
  return canonicalJson(index as never) + '\n';
}

/** Reads bundle.json strictly: structure, canonical text, sorted safe paths. */
export function parseBundleIndexText(text: string, source: string): BundleIndex {
  const value = parseJsonInput(text, source);
  const r = new FieldReader(source);
  const o = r.object(value, '$', ['bundle_version', 'pack_id', 'pack_digest', 'manifest_hash', 'models', 'comparison_outcome', 'files']);
  const version = r.string(o.bundle_version, 'bundle_version');
  if (version !== BUNDLE_VERSION) r.fail('bundle_version', `is ${JSON.stringify(version)}; this tool reads ${BUNDLE_VERSION}`);
  const hex = (v: JsonValue | undefined, path: string): string => r.string(v, path, HEX64);
  const models = r.array(o.models, 'models').map((item, k): BundleModel => {
    const path = `models[${k}]`;
    const m = r.object(item, path, ['model_id', 'dir', 'trials', 'score', 'official', 'report_digest', 'operational']);
    const dir = r.string(m.dir, `${path}.dir`);
    if (dir !== modelDir(k)) r.fail(`${path}.dir`, `must be ${modelDir(k)}`);
    return {
      model_id: r.string(m.model_id, `${path}.model_id`),
      dir,
      trials: r.integer(m.trials, `${path}.trials`),
      score: m.score === null ? null : r.string(m.score, `${path}.score`),
      official: r.boolean(m.official, `${path}.official`),
      report_digest: hex(m.report_digest, `${path}.report_digest`),
      operational: r.boolean(m.operational, `${path}.operational`),
    };
  });
  if (models.length < 1 || models.length > 2) r.fail('models', 'must hold one or two models');
  let previous = '';
  const files = r.array(o.files, 'files').map((item, k): BundleFile => {
    const path = `files[${k}]`;
    const f = r.object(item, path, ['file', 'sha256']);
    const file = r.string(f.file, `${path}.file`);
    if (!isSafeBundlePath(file) || file === BUNDLE_INDEX_FILE || file === BUNDLE_SIGNATURES_FILE) r.fail(`${path}.file`, `${JSON.stringify(file)} is not a bundle file path`);
    if (file <= previous) r.fail(`${path}.file`, 'files must be sorted by path, each once');
    previous = file;
    return { file, sha256: hex(f.sha256, `${path}.sha256`) };
  });
  const index: BundleIndex = {
    bundle_version: version,
    pack_id: r.string(o.pack_id, 'pack_id'),
    pack_digest: hex(o.pack_digest, 'pack_digest'),
    manifest_hash: hex(o.manifest_hash, 'manifest_hash'),
    models,
    comparison_outcome: o.comparison_outcome === null ? null : r.string(o.comparison_outcome, 'comparison_outcome'),
    files,
  };
  if ((models.length === 2) !== (index.comparison_outcome !== null)) {
    r.fail('comparison_outcome', 'is set exactly when the bundle holds two models');
  }
  if (bundleIndexText(index) !== text) throw new ValidationError(`${source}: not in canonical form (canonical JSON plus one LF)`);
  return index;
}
