/**
 * The one list of versions. `emberbench version`, manifests, packs and
 * provenance all read it, so a version that provenance pins is always
 * reported (evaluation.md section 10).
 */

export const BENCHMARK_REVISION = 2;

/** Benchmark-defining versions: a change in any of them changes what a score means. */
export const BENCHMARK_VERSIONS = {
  simulator_version: '1.0',
  observation_version: '1.0',
  action_schema_version: '1.0',
  schema_version: '1.0',
  metrics_version: '1.0',
  crowd_diagnostics_version: '1.0',
  statistics_version: '1.0',
  generator_version: '1.0',
  generator_config_version: '1.0',
  generation_manifest_version: '1.0',
  evaluation_manifest_version: '1.0',
  evaluation_result_version: '1.0',
  scoring_version: '1.0',
  environment_pack_version: '1.0',
  environment_world_version: '1.0',
  family_rules_version: '1.0',
  calibration_panel_version: '1.0',
  difficulty_rules_version: '1.0',
  admission_rules_version: '1.0',
  composition_version: '1.0',
  selection_rules_version: '1.0',
  recipe_catalog_version: '1.0',
  suite_freeze_record_version: '1.0',
} as const;

/** Tooling contracts that do not change what a score means. */
export const TOOLING_VERSIONS = {
  cli_version: '1.0',
  baselines_version: '1.0',
  integrity_protocol_version: '1.0',
  replay_audit_version: '1.0',
  animation_format_version: '1.0',
} as const;

/** The version of the run record format (environment.md section 7). */
export const RECORD_VERSION = '1.0';

export type BenchmarkVersions = typeof BENCHMARK_VERSIONS;
