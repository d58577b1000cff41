#!/usr/bin/env bash
# A warren seed sweep as a Slurm job array: array task I runs shard I of N, N being the array's
# size. Submit it, then merge once every task has succeeded:
#
#   mkdir -p sweep
#   job=$(sbatch --parsable --array=0-7 examples/distributed/slurm_sweep.sh)
#   sbatch --dependency=afterok:$job --wrap 'warren stats merge sweep/shard-*.parquet'
#
# The array must be 0-(N-1) (shard indices start at 0). A failed task is retried by submitting
# the same index again (`sbatch --array=3 examples/distributed/slurm_sweep.sh`, with the same
# N: set SHARDS=8 in the environment then) or by `scontrol requeue JOBID_3`; warren's resume
# journal beside the records file makes it continue after the maps it had finished.
#
# Tested in CI by running this script once per index with the variables Slurm sets
# (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT); not tested under a running Slurm controller.
#SBATCH --job-name=warren-sweep
#SBATCH --cpus-per-task=2
#SBATCH --output=sweep/slurm-%A_%a.out
#SBATCH --requeue
set -euo pipefail

# What to sweep (override any of them in the environment: sbatch --export=ALL,COUNT=...).
WARREN=${WARREN:-warren}
RECIPE=${RECIPE:-scripts/rooms.lua}
COUNT=${COUNT:-1000000}
SEED_START=${SEED_START:-0}
OUT=${OUT:-sweep}
SHARDS=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?submit with sbatch --array=0-N (or set SHARDS)}}
INDEX=${SLURM_ARRAY_TASK_ID:?submit with sbatch --array=0-N}

mkdir -p "$OUT"
exec "$WARREN" batch "$RECIPE" --count "$COUNT" --seed-start "$SEED_START" \
  --shard "$INDEX/$SHARDS" --records "$OUT/shard-$INDEX.parquet" \
  --jobs "${SLURM_CPUS_PER_TASK:-1}"
