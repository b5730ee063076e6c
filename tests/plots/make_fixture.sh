#!/bin/sh
# Regenerates the committed results fixture tests/fixtures/results/ used by run_plots_test.sh: runs
# every config of tests/plots/fixture_configs/ (tiny generated data, experiment names as the paper
# figure scripts expect) with the dpclust driver and stores each results.json without indentation
# (same content; keeps the fixture under 300 KB).
#
#   sh tests/plots/make_fixture.sh [DPCLUST_BINARY]     (default: build/experiments/dpclust)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$ROOT/build/experiments/dpclust}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/plots_fixture.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
"$BIN" run "$ROOT"/tests/plots/fixture_configs/*.yaml --out "$TMP" --force --no-progress
for dir in "$TMP"/*/; do
  exp=$(basename "$dir")
  mkdir -p "$ROOT/tests/fixtures/results/$exp"
  /usr/bin/python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), separators=(",", ":"), sort_keys=True)' \
    "$dir/results.json" "$ROOT/tests/fixtures/results/$exp/results.json"
done
du -sh "$ROOT/tests/fixtures/results"
