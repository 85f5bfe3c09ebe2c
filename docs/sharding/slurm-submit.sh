#!/bin/bash
# Generate and freeze a batch, build the manifest, then submit N shard tasks
# and the merge, which runs only after every shard succeeded.
# Usage: slurm-submit.sh N BATCH_SEED [--seed S ...]   (in the shared work directory)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EMBERBENCH=${EMBERBENCH:-npx emberbench}
N=${1:?number of shards}
BATCH_SEED=${2:?batch seed}
shift 2
SEEDS=("$@")
if [ ${#SEEDS[@]} -eq 0 ]; then SEEDS=(--seed 0..9); fi

[ -d batch ] || $EMBERBENCH generated create --batch-seed "$BATCH_SEED" --out batch --json
$EMBERBENCH generated validate batch --json > /dev/null
[ -f manifest.json ] || $EMBERBENCH evaluation manifest --generated-suite batch "${SEEDS[@]}" --out manifest.json --json

array=$(sbatch --parsable --array=1-"$N" --export=ALL,SHARDS="$N" "$HERE/slurm-shard.sbatch")
sbatch --dependency=afterok:"${array%%;*}" --export=ALL,SHARDS="$N" "$HERE/slurm-merge.sbatch"
