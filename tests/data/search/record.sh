#!/usr/bin/env bash
# Records the sweep tables the search tests replay: every valid variant of each kernel's
# knobs, measured on a real GPU (run on the GPU machine, then copy OUT/*.jsonl here).
# Usage: KFORECAST_BIN=target/release/kforecast bash tests/data/search/record.sh OUT_DIR
set -uo pipefail
BIN=$(realpath "${KFORECAST_BIN:-target/release/kforecast}")
OUT=$(realpath -m "${1:?give an output directory}")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$OUT"
export KFORECAST_CACHE_DIR=$(mktemp -d)
"$BIN" verify --health --json | tee "$OUT/device.json"
for f in transpose.cu reduction.cu vector_add.py; do
  name=${f%.*}
  t0=$(date +%s)
  (cd "$HERE" && "$BIN" sweep "$f" --max 1000 --json "$OUT/$name.sweep.jsonl" 2>> "$OUT/sweep.log")
  echo "$name: $(wc -l < "$OUT/$name.sweep.jsonl") variants in $(( $(date +%s) - t0 )) s; $(grep -c '"status":"ok"' "$OUT/$name.sweep.jsonl") ok"
done
