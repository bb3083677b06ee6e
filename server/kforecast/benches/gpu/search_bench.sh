#!/usr/bin/env bash
# GPU benchmark of `kforecast search` (run on the GPU machine): for each kernel, seed and
# mode (forecaster screening vs every child measured), one search with a budget of 16 GPU
# runs and its own empty store (no measurement is shared between searches). The search
# is anytime (nothing but the stop depends on the budget), so its state after 8 runs is
# what a budget-8 search finds; search_bench_summary.py reports both budgets.
# Usage: KFORECAST_BIN=target/release/kforecast bash server/kforecast/benches/gpu/search_bench.sh OUT.jsonl [cuda|triton|all|REGEX]
# (REGEX picks the entries FILE:KERNEL it matches; SEEDS="0 1" and BUDGET=16 may be set.)
set -uo pipefail
BIN=${KFORECAST_BIN:-target/release/kforecast}
OUT=${1:?give an output file (JSON lines)}
WHICH=${2:-all}
SEEDS=${SEEDS:-"0 1 2 3 4"}
BUDGET=${BUDGET:-16}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The kernels: every kernel of test-workspaces/ whose knobs give more than 32 valid variants
# (twice the largest budget, so that the unfiltered search cannot simply measure them all);
# `kforecast sweep FILE --kernel K --list` counts them. Smaller spaces (softmax 17-24, the
# elementwise scale/relu 22, the naive sgemm 10) are a brute-force job, not a search.
CUDA="test-workspaces/cuda/previous/src/transpose.cu:transpose test-workspaces/cuda/src/transpose.cu:transpose test-workspaces/cuda/src/matmul.cu:sgemm test-workspaces/cuda/src/reduction.cu:reduce_sum test-workspaces/cuda/src/elementwise.cu:saxpy"
TRITON="test-workspaces/triton/previous/kernels/vector_add.py:add_kernel test-workspaces/triton/kernels/vector_add.py:add_kernel test-workspaces/triton/previous/kernels/matmul.py:matmul_kernel test-workspaces/triton/kernels/matmul.py:matmul_kernel"
case "$WHICH" in
  cuda) KERNELS=$CUDA ;;
  triton) KERNELS=$TRITON ;;
  all) KERNELS="$CUDA $TRITON" ;;
  *) KERNELS=$(for e in $CUDA $TRITON; do [[ $e =~ $WHICH ]] && echo "$e"; done) ;;
esac
"$BIN" verify --health --json || true
for entry in $KERNELS; do
  file=${entry%:*}; kernel=${entry#*:}
  for seed in $SEEDS; do
    for mode in surrogate unfiltered; do
      flag=""; [ "$mode" = unfiltered ] && flag="--no-surrogate"
      export KFORECAST_CACHE_DIR=$(mktemp -d)
      t0=$(date +%s.%N)
      line=$("$BIN" search "$file" --kernel "$kernel" --budget "$BUDGET" --seed "$seed" $flag --json 2>/dev/null)
      t1=$(date +%s.%N)
      rm -rf "$KFORECAST_CACHE_DIR"
      if [ -z "$line" ]; then
        echo "{\"kernel\": \"$kernel\", \"file\": \"$file\", \"seed\": $seed, \"mode\": \"$mode\", \"error\": true}" >> "$OUT"
        echo "$kernel seed=$seed $mode: FAILED"
        continue
      fi
      python3 -c 'import json,sys; o=json.loads(sys.argv[1]); o.update(file=sys.argv[2], mode=sys.argv[3], wall_s=float(sys.argv[4])); print(json.dumps(o))' \
        "$line" "$file" "$mode" "$(python3 -c "print(round($t1-$t0,2))")" >> "$OUT"
      python3 -c 'import json,sys; o=json.loads(sys.argv[1]); print("%s seed=%s %s: runs=%d considered=%d best=%.3f stop=%s" % (o["kernel"], o["config"]["seed"], sys.argv[2], o["runs"], o["considered"], o["best_speedup"], o["stop"]))' "$line" "$mode"
    done
  done
done
python3 "$HERE/search_bench_summary.py" "$OUT"
