#!/usr/bin/env python3
"""A warren seed sweep on Dask: one task per shard, failed shards retried, then one merge.

Each task runs

    warren batch RECIPE --count COUNT --seed-start START --shard I/N --records OUT/shard-I.parquet

on whichever Dask worker picks it up. A task whose warren exits non-zero raises, and Dask runs it
again (--retries times): warren's resume journal beside the records file makes the retry
continue after the last map the failed attempt finished, when the workers share OUT. Once every
shard is done, `warren stats merge OUT/shard-*.parquet` prints the statistics one run over all
the seeds would give (it refuses overlapping or missing shards).

Without --scheduler it starts a local cluster (--workers processes, one thread each); with
--scheduler tcp://HOST:8786 it submits to an existing cluster, whose workers must all see the
same warren binary, recipe and OUT directory (a shared file system).

    python3 dask_sweep.py --recipe scripts/rooms.lua --count 100000 --shards 8 --out sweep

Needs `dask` and `distributed` (pip install dask[distributed]). See docs/sweeps.md.
"""

import argparse
import glob
import os
import subprocess
import sys


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--warren", default="warren", help="the warren binary (default: warren on PATH)")
    p.add_argument("--recipe", required=True, help="the recipe, e.g. scripts/rooms.lua")
    p.add_argument("--count", type=int, required=True, help="seeds in the whole sweep")
    p.add_argument("--seed-start", type=int, default=0, help="the first seed (default 0)")
    p.add_argument("--shards", type=int, required=True, help="how many shards (tasks)")
    p.add_argument("--out", required=True, help="directory for shard-I.parquet (shared by the workers)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a recipe parameter, passed to every shard (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="warren --jobs inside each task (default 1)")
    p.add_argument("--retries", type=int, default=2, help="times a failed shard runs again (default 2)")
    p.add_argument("--workers", type=int, default=2, help="local cluster size (default 2)")
    p.add_argument("--scheduler", help="address of an existing Dask scheduler instead of a local cluster")
    p.add_argument("--merged", help="also write the merged records to this file")
    args = p.parse_args(argv)
    if args.shards < 1 or args.count < args.shards:
        p.error("--shards must be at least 1 and at most --count")
    return args


def shard_command(args, index):
    """The warren command of shard `index`: the same for every attempt, so a retry resumes."""
    records = os.path.join(args.out, f"shard-{index}.parquet")
    command = [args.warren, "batch", args.recipe,
               "--count", str(args.count), "--seed-start", str(args.seed_start),
               "--shard", f"{index}/{args.shards}", "--records", records,
               "--jobs", str(args.jobs)]
    for assignment in args.set:
        command += ["--set", assignment]
    return command, records


def run_shard(command, records):
    """One Dask task: runs a shard; raises (so Dask retries it) when warren fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return records


def main(argv=None):
    args = parse_args(argv)
    from dask.distributed import Client, LocalCluster

    os.makedirs(args.out, exist_ok=True)
    # Records of an earlier sweep with other shards would be refused by the merge: start clean.
    for stale in glob.glob(os.path.join(args.out, "shard-*.parquet")):
        os.remove(stale)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = []
        for index in range(args.shards):
            command, records = shard_command(args, index)
            futures.append(client.submit(run_shard, command, records, key=f"warren-shard-{index}",
                                         retries=args.retries, pure=False))
        files = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    merge = [args.warren, "stats", "merge", *files]
    if args.merged:
        merge += ["--records", args.merged]
    return subprocess.run(merge).returncode


if __name__ == "__main__":
    sys.exit(main())
