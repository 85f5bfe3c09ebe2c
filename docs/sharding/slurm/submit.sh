#!/bin/bash
# Prepares the run folder (settings, frozen batch, manifest: each only once), then submits the
# shard array and the merge that runs after it whatever happened (afterany). Safe to rerun.
# Usage: submit.sh   (on a login node; the run folder must be on storage every node mounts)
set -euo pipefail
RUN_DIR=/scratch/ember/exp-1
# The command line: the Apptainer image in the run folder by default; override with
# EMBERBENCH="node /path/to/ember/bin/emberbench.js" for an installed checkout.
read -r -a EMBER <<< "${EMBERBENCH:-apptainer exec --bind $RUN_DIR $RUN_DIR/ember.sif node /opt/ember/bin/emberbench.js}"
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$RUN_DIR/shards" "$RUN_DIR/logs"
if [ -f "$RUN_DIR/run.json" ]; then cmp "$HERE/run.json" "$RUN_DIR/run.json"; else cp "$HERE/run.json" "$RUN_DIR/run.json"; fi
[ -d "$RUN_DIR/batch" ] || "${EMBER[@]}" generated create --batch-seed 7 --out "$RUN_DIR/batch" --json
"${EMBER[@]}" generated validate "$RUN_DIR/batch" --json > /dev/null
[ -f "$RUN_DIR/manifest.json" ] || "${EMBER[@]}" evaluation manifest --generated-suite "$RUN_DIR/batch" --seed 0..9 --out "$RUN_DIR/manifest.json" --json
array=$(sbatch --parsable --array=1-4 "$HERE/shard.sbatch")
sbatch --dependency=afterany:"${array%%;*}" --export=ALL,ROUND=1,PLAN_DIR="$HERE" "$HERE/merge.sbatch"
