#!/usr/bin/env python3
"""Sweeps beyond one machine, checked with tools that are not warren (.ci/sweeps runs it).

    python3 tests/sweeps/check.py WARREN_BINARY

- Parquet records as DuckDB reads them: the same columns and values as the CSV of the same
  seeds, typed (seed UBIGINT, whole-number metrics BIGINT, the rest DOUBLE, error VARCHAR), a
  failed seed's error, the recipe, parameters and warren version in the file's metadata; and
  `warren stats merge` reading the Parquet back gives a CSV equal to it, times included.
- examples/distributed/dask_sweep.py on a local Dask cluster of 2 workers, one shard made to
  fail on its first attempt: the shard is retried, and the merged statistics equal one
  `warren batch` over the same seeds.
- examples/distributed/slurm_sweep.sh run once per array index with the variables Slurm sets,
  and the container command of examples/distributed/k8s_indexed_job.yaml once per completion
  index (after validating the manifest with kubernetes-validate --strict): both merge to the
  statistics of one run.
- The DuckDB query of docs/sweeps.md (the seeds needing the most fix-up tunnels) runs over
  Parquet records and agrees with the same question asked of the CSV in plain Python.

Prints one line per check and `N passed, M failed`; exits 1 when any failed.
"""

import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

import duckdb
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples", "distributed")
WARREN = None


def warren(*args, cwd=ROOT, code=0):
    """Runs warren; returns stdout (asserting the exit code)."""
    done = subprocess.run([WARREN, *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == code, f"warren {' '.join(args)} exited {done.returncode}: {done.stderr}"
    return done.stdout


def statistics(table):
    """The deterministic part of a statistics table (timings vary and come last)."""
    return table[: table.index("time µs")]


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def csv_value(text):
    return None if text == "" else float(text)


def check_parquet_round_trip(tmp):
    parquet = os.path.join(tmp, "cave.parquet")
    table = os.path.join(tmp, "cave.csv")
    run = ["batch", "scripts/cave.lua", "--count", "300", "--seed-start", "40", "--set", "width=48"]
    warren(*run, "--records", parquet)
    warren(*run, "--records", table)
    header, rows = read_csv(table)
    con = duckdb.connect()
    got = con.execute("SELECT * FROM read_parquet(?) ORDER BY seed", [parquet])
    names = [d[0] for d in got.description]
    assert names == header, f"columns {names} != CSV's {header}"
    values = got.fetchall()
    assert len(values) == len(rows) == 300, (len(values), len(rows))
    for pq_row, csv_row in zip(values, rows):
        for name, a, b in zip(names, pq_row, csv_row):
            if name.startswith("time_us."):
                continue  # two runs, two timings
            if name == "error":
                assert (a or "") == b, (name, a, b)
            else:
                assert csv_value(b) == (None if a is None else float(a)), (pq_row[0], name, a, b)
    types = dict(con.execute(
        "SELECT name, type FROM parquet_schema(?) WHERE name <> 'warren_records'", [parquet]).fetchall())
    assert types["seed"] == "INT64" and types["components"] == "INT64", types
    assert types["floor_fraction"] == "DOUBLE" and types["error"] == "BYTE_ARRAY", types
    described = dict(con.execute("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))", [parquet]).fetchall())
    assert described["seed"] == "UBIGINT" and described["fixup_tunnels"] == "BIGINT", described
    assert described["error"] == "VARCHAR", described
    meta = {k.decode(): v.decode() for k, v in con.execute(
        "SELECT key, value FROM parquet_kv_metadata(?)", [parquet]).fetchall()}
    version = warren("--version").split()[-1]
    assert meta["warren.version"] == version, (meta, version)
    assert meta["warren.recipe"] == "cave", meta
    assert json.loads(meta["warren.params"])["width"] == 48, meta
    stats = json.loads(meta["warren.stats"])
    assert (stats["seed_start"], stats["seed_count"]) == (40, 300), stats
    # warren's own reader: the Parquet read back and written as CSV is the CSV of the same
    # records, timings included.
    back = os.path.join(tmp, "back.csv")
    merged = warren("stats", "merge", parquet, "--records", back)
    assert merged.startswith("cave: 300 maps (seeds 40..=339), 0 failed"), merged
    back_header, back_rows = read_csv(back)
    assert back_header == names
    for pq_row, csv_row in zip(values, back_rows):
        for a, b in zip(pq_row, csv_row):
            assert (a is None and b == "") or str(a) == b or float(a) == float(b), (a, b)
    return "Parquet: the CSV's columns and values, typed, with recipe, parameters and version"


FLAKY = """return {
  name = "flaky",
  params = { width = { default = 20 }, height = { default = 20 } },
  generate = function(map, ctx)
    if ctx.seed % 4 == 1 then error("seed " .. ctx.seed .. " is unlucky") end
    map:fill("floor")
    ctx.metric("share", ctx.seed / 8)
    ctx.metric("tilt", ctx.seed % 2 == 0 and -0.0 or 3)
  end,
}
"""


def check_failed_seeds(tmp):
    work = os.path.join(tmp, "flaky")
    os.makedirs(work)
    shutil.copytree(os.path.join(ROOT, "regions"), os.path.join(work, "regions"))
    with open(os.path.join(work, "flaky.lua"), "w") as f:
        f.write(FLAKY)
    warren("batch", "flaky.lua", "--count", "8", "--records", "r.parquet", cwd=work, code=1)
    con = duckdb.connect()
    records = os.path.join(work, "r.parquet")
    rows = con.execute(
        "SELECT seed, share, tilt, error FROM read_parquet(?) ORDER BY seed", [records]).fetchall()
    assert len(rows) == 8, rows
    for seed, share, tilt, error in rows:
        if seed % 4 == 1:
            assert share is None and error == f"flaky.lua:5: seed {seed} is unlucky", (seed, share, error)
        else:
            assert share == seed / 8 and error is None, (seed, share, error)
            # -0 is whole, but an integer column would read it back as 0.
            want = -0.0 if seed % 2 == 0 else 3.0
            assert math.copysign(1, tilt) == math.copysign(1, want) and tilt == want, (seed, tilt)
    described = dict(con.execute(
        "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))",
        [records]).fetchall())
    assert described["tilt"] == "DOUBLE", described
    return "Parquet: a failed seed has its error and null measurements; -0 keeps its sign"


def check_dask(tmp):
    out = os.path.join(tmp, "dask")
    marker = os.path.join(tmp, "failed-once")
    # A warren that fails shard 1's first attempt after the real run started: Dask must retry it.
    flaky = os.path.join(tmp, "flaky-warren")
    with open(flaky, "w") as f:
        f.write(f"""#!/bin/sh
case " $* " in
  *" --shard 1/3 "*) if [ ! -e {marker} ]; then touch {marker}; echo "node lost" >&2; exit 137; fi ;;
esac
exec {WARREN} "$@"
""")
    os.chmod(flaky, 0o755)
    run = ["--recipe", "scripts/rooms.lua", "--count", "600", "--seed-start", "1000"]
    done = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "dask_sweep.py"), "--warren", flaky, *run,
         "--shards", "3", "--workers", "2", "--out", out, "--set", "corridors=bsp"],
        cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert os.path.exists(marker), "shard 1 never failed"
    assert sorted(os.listdir(out)) == [f"shard-{i}.parquet" for i in range(3)], os.listdir(out)
    whole = warren("batch", "scripts/rooms.lua", "--count", "600", "--seed-start", "1000",
                   "--set", "corridors=bsp")
    assert statistics(done.stdout) == statistics(whole), (done.stdout, whole)
    assert whole.startswith("rooms: 600 maps (seeds 1000..=1599)"), whole
    return "Dask: 3 shards on 2 local workers, one retried, merge equals one run"


def shard_env(**extra):
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(WARREN) + os.pathsep + env["PATH"]
    env.update({k: str(v) for k, v in extra.items()})
    return env


def check_slurm(tmp):
    out = os.path.join(tmp, "slurm")
    for index in range(4):
        env = shard_env(SLURM_ARRAY_TASK_ID=index, SLURM_ARRAY_TASK_COUNT=4, SLURM_CPUS_PER_TASK=1,
                        WARREN=WARREN, RECIPE="scripts/cave.lua", COUNT=200, SEED_START=5, OUT=out)
        subprocess.run(["bash", os.path.join(EXAMPLES, "slurm_sweep.sh")], cwd=ROOT, env=env,
                       check=True, capture_output=True)
    merged = warren("stats", "merge", *sorted(glob.glob(os.path.join(out, "shard-*.parquet"))))
    whole = warren("batch", "scripts/cave.lua", "--count", "200", "--seed-start", "5")
    assert statistics(merged) == statistics(whole), (merged, whole)
    return "Slurm array script: 4 array indices merge to one run (no Slurm controller)"


def check_kubernetes(tmp):
    manifest = os.path.join(EXAMPLES, "k8s_indexed_job.yaml")
    validate = [os.path.join(os.path.dirname(sys.executable), "kubernetes-validate"), "--strict", "--quiet"]
    subprocess.run([*validate, manifest], check=True, capture_output=True)
    with open(manifest) as f:
        job = yaml.safe_load(f)
    # The validator must be able to fail: a misspelt field is refused.
    broken = os.path.join(tmp, "broken.yaml")
    job["spec"]["completionsMode"] = "Indexed"
    with open(broken, "w") as f:
        yaml.safe_dump(job, f)
    assert subprocess.run([*validate, broken], capture_output=True).returncode != 0
    del job["spec"]["completionsMode"]
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert int(env["SHARDS"]) == spec["completions"], "SHARDS must equal completions"
    out = os.path.join(tmp, "k8s")
    shards = 3
    for index in range(shards):
        run_env = shard_env(**{**env, "COUNT": 150, "SEED_START": 9, "SHARDS": shards, "OUT": out,
                               "JOB_COMPLETION_INDEX": index})
        subprocess.run(container["command"], cwd=ROOT, env=run_env, check=True, capture_output=True)
    merged = warren("stats", "merge", *sorted(glob.glob(os.path.join(out, "shard-*.parquet"))))
    whole = warren("batch", env["RECIPE"], "--count", "150", "--seed-start", "9")
    assert statistics(merged) == statistics(whole), (merged, whole)
    return "Kubernetes Indexed Job: schema-valid, its command per index merges to one run (no cluster)"


def docs_text():
    with open(os.path.join(ROOT, "docs", "sweeps.md")) as f:
        return f.read()


def docs_query():
    """The ```sql block of docs/sweeps.md (the only page with one: CI runs only this one)."""
    for page in glob.glob(os.path.join(ROOT, "docs", "*.md")):
        if not page.endswith("sweeps.md"):
            with open(page) as f:
                assert "```sql" not in f.read(), f"{page}: an sql block nothing runs"
    blocks = re.findall(r"```sql\n(.*?)```", docs_text(), re.S)
    assert len(blocks) == 1, f"docs/sweeps.md has {len(blocks)} sql blocks, expected 1"
    return blocks[0]


def check_docs_query(tmp):
    out = os.path.join(tmp, "docs-sweep")
    os.makedirs(out)
    # The page's own commands (its ```sh block), into this directory.
    commands = re.search(r"```sh\n(mkdir -p sweep\nwarren batch scripts/dungeon.lua .*?)```",
                         docs_text(), re.S).group(1)
    for line in commands.splitlines()[1:]:
        words = line.replace("sweep/", out + "/").split()
        assert words[0] == "warren", line
        warren(*words[1:])
    table = os.path.join(tmp, "docs.csv")
    warren("stats", "merge", *sorted(glob.glob(os.path.join(out, "*.parquet"))), "--records", table)
    con = duckdb.connect()
    con.execute(f"SET file_search_path = '{out}'")
    got = con.execute(docs_query().replace("sweep/", "")).fetchall()
    header, rows = read_csv(table)
    seed, tunnels = header.index("seed"), header.index("fixup_tunnels")
    expected = sorted(((int(r[seed]), int(float(r[tunnels]))) for r in rows if r[tunnels]),
                      key=lambda p: (-p[1], p[0]))[:10]
    assert [(int(s), int(t)) for s, t, *_ in got] == expected, (got, expected)
    assert len(got) == 10 and expected[0][1] > expected[-1][1] >= 0, expected
    return "docs/sweeps.md: the DuckDB query over Parquet shards finds the seeds with the most fix-up tunnels"


def main():
    global WARREN
    WARREN = os.path.abspath(sys.argv[1])
    checks = [check_parquet_round_trip, check_failed_seeds, check_dask, check_slurm,
              check_kubernetes, check_docs_query]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for check in checks:
            try:
                print(f"ok: {check(tmp)}", flush=True)
                passed += 1
            except Exception:
                print(f"FAILED: {check.__name__}\n{traceback.format_exc()}", flush=True)
                failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
