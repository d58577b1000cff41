#!/usr/bin/env bash
# Runs one libFuzzer target of crates/fuzz for a number of seconds (docs/fuzzing.md):
#   bash crates/fuzz/fuzz.sh regions 600
#   bash crates/fuzz/fuzz.sh recipes 600 -fork=1 -ignore_crashes=1   # go on past findings
#   bash crates/fuzz/fuzz.sh recipes 0 crates/fuzz/artifacts/recipes/crash-…   # replay one input
# Builds with cargo-fuzz on the stable toolchain: `-s none` (AddressSanitizer needs nightly's
# -Zsanitizer; the coverage instrumentation cargo-fuzz asks for is stable), without the
# workspace's fat LTO (a fuzz build is rebuilt often; LTO would triple its link). New corpus
# inputs go to crates/fuzz/corpus/TARGET; the seeds and the shipped files are read beside it.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: fuzz.sh regions|recipes SECONDS [libFuzzer flags or inputs]}
seconds=${2:?usage: fuzz.sh regions|recipes SECONDS [libFuzzer flags or inputs]}
shift 2
case $target in
  regions) shipped=regions dict=crates/fuzz/dicts/toml.dict ;;
  recipes) shipped=scripts dict=crates/fuzz/dicts/lua.dict ;;
  *) echo "fuzz.sh: the targets are regions and recipes, not '$target'" >&2; exit 2 ;;
esac
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
export CARGO_PROFILE_RELEASE_LTO=false
cargo fuzz build -s none --fuzz-dir crates/fuzz "$target"
if [ "$seconds" = 0 ]; then
  # Replay: the inputs named after the seconds, each once.
  exec cargo fuzz run -s none --fuzz-dir crates/fuzz "$target" "$@"
fi
mkdir -p "crates/fuzz/corpus/$target"
exec cargo fuzz run -s none --fuzz-dir crates/fuzz "$target" \
  "crates/fuzz/corpus/$target" "crates/fuzz/seeds/$target" "$shipped" -- \
  -dict="$dict" -max_total_time="$seconds" -timeout=10 -max_len=65536 -print_final_stats=1 "$@"
