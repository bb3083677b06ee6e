#!/usr/bin/env bash
# The measurement farm's benchmark: the wall time of one sweep of N variants through one
# worker and through two (one per GPU where there are two, else both on the one GPU),
# then through two again with one of them killed a third of the way in (no job may be
# lost; the results must equal the one-worker run's within measurement noise).
#
#   farm_bench.sh KFORECAST FILE KERNEL [N]      (results under $OUT, else ./farm-bench)
#
# Each run has fresh workers (no compile cache carried over) and a fresh store.
set -uo pipefail
BIN=$(realpath "$1") FILE=$2 KERNEL=$3 N=${4:-64}
OUTDIR=${OUT:-$PWD/farm-bench}
mkdir -p "$OUTDIR"
export KFORECAST_WORKER_TOKEN=bench-$RANDOM$RANDOM
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
second_gpu=$((GPUS >= 2 ? 1 : 0))
{
  date -u +"date: %Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/gpu: /'
  echo "kernel: $FILE $KERNEL, $N variants; second worker on GPU $second_gpu"
} | tee "$OUTDIR/farm-bench.txt"

PIDS=()
start_worker() { # PORT GPU
  CUDA_VISIBLE_DEVICES=$2 "$BIN" worker --listen "127.0.0.1:$1" >>"$OUTDIR/workers.log" 2>&1 &
  PIDS+=($!)
  # Up, and its GPU opened (health starts the measuring child), before the clock starts.
  python3 - "$1" <<'PY' || echo "worker on $1 did not start" >&2
import os, sys, time, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/v1/health",
                             headers={"Authorization": "Bearer " + os.environ["KFORECAST_WORKER_TOKEN"]})
for _ in range(100):
    try:
        urllib.request.urlopen(req, timeout=60).read()
        sys.exit(0)
    except OSError:
        time.sleep(0.2)
sys.exit(1)
PY
}
stop_workers() {
  for p in "${PIDS[@]}"; do
    pkill -9 -P "$p" 2>/dev/null
    kill -9 "$p" 2>/dev/null
  done
  wait 2>/dev/null
  PIDS=()
}
trap stop_workers EXIT

sweep() { # NAME PORT...
  local name=$1
  shift
  local args=()
  for port in "$@"; do args+=(--worker "http://127.0.0.1:$port"); done
  local t0
  t0=$(date +%s.%N)
  KFORECAST_CACHE_DIR=$(mktemp -d) "$BIN" sweep "$FILE" --kernel "$KERNEL" --max "$N" \
    --json "$OUTDIR/$name.jsonl" "${args[@]}" 2>>"$OUTDIR/sweeps.log"
  echo "$name $(python3 -c "print($(date +%s.%N) - $t0)")" >>"$OUTDIR/walls.txt"
}

: >"$OUTDIR/walls.txt"
start_worker 7801 0
sweep one 7801
stop_workers

start_worker 7802 0
start_worker 7803 "$second_gpu"
sweep two 7802 7803
stop_workers

start_worker 7804 0
start_worker 7805 "$second_gpu"
victim=${PIDS[1]}
two=$(awk '$1 == "two" {print $2}' "$OUTDIR/walls.txt")
( sleep "$(python3 -c "print($two / 3)")"; pkill -9 -P "$victim"; kill -9 "$victim"; echo "killed the worker on 7805" >>"$OUTDIR/sweeps.log" ) &
killer=$!
sweep killed 7804 7805
wait "$killer"
stop_workers

python3 "$(dirname "$0")/farm_bench_summary.py" "$OUTDIR" | tee -a "$OUTDIR/farm-bench.txt"
