#!/usr/bin/env bash
# GPU benchmark of `kforecast verify` (run on the GPU machine):
#   - verify time for a CUDA pair, cold (new worker: CUDA context, NVRTC, inputs) and
#     warm (a running worker: compile and inputs cached), wall clock of the CLI call;
#   - repeatability: the same pair measured 10 times on the warm worker;
#   - the same pair timed by triton.testing.do_bench (reference_do_bench.py).
#   - every test-workspace pair, measured once.
# Usage: KFORECAST_BIN=target/release/kforecast bash server/kforecast/benches/gpu/verify_bench.sh
set -uo pipefail
BIN=${KFORECAST_BIN:-target/release/kforecast}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export KFORECAST_CACHE_DIR=$(mktemp -d)
BASE=test-workspaces/cuda/previous/src/transpose.cu
CAND=test-workspaces/cuda/src/transpose.cu
now() { date +%s.%N; }
speed() { python3 -c 'import json,sys; m=json.loads(sys.stdin.read()); print(m["status"], m.get("speedup"), m.get("spread"), m.get("reps"), m.get("compile_ms"), m.get("total_ms"))'; }

"$BIN" verify --health --json || true
echo "== cold: a new local worker per call (transpose 4096x4096 fp32)"
for i in 1 2 3; do
  t0=$(now); out=$("$BIN" verify --fresh --json "$BASE" "$CAND"); t1=$(now)
  echo "cold $i wall_s=$(python3 -c "print(round($t1-$t0,3))") $(echo "$out" | speed)"
done

echo "== warm: a running worker"
export KFORECAST_WORKER_TOKEN=bench
"$BIN" worker --listen 127.0.0.1:7878 2>/dev/null &
WPID=$!
sleep 1
"$BIN" verify --fresh --json --worker http://127.0.0.1:7878 "$BASE" "$CAND" > /dev/null
for i in $(seq 1 10); do
  t0=$(now); out=$("$BIN" verify --fresh --json --worker http://127.0.0.1:7878 "$BASE" "$CAND"); t1=$(now)
  echo "warm $i wall_s=$(python3 -c "print(round($t1-$t0,3))") $(echo "$out" | speed)"
done
kill $WPID 2>/dev/null

echo "== reference: triton.testing.do_bench on the same job"
"$BIN" verify --fresh --json --emit-job /tmp/kf_job.json "$BASE" "$CAND" | speed
python3 "$HERE/reference_do_bench.py" /tmp/kf_job.json

echo "== all test-workspace pairs"
for p in elementwise:saxpy elementwise:scale matmul:sgemm reduction:reduce_sum softmax:softmax_rows transpose:transpose; do
  f=${p%:*}; k=${p#*:}
  echo "$k $("$BIN" verify --fresh --json --kernel "$k" test-workspaces/cuda/previous/src/$f.cu test-workspaces/cuda/src/$f.cu | speed)"
done
for f in vector_add softmax matmul; do
  echo "$f $("$BIN" verify --fresh --json test-workspaces/triton/previous/kernels/$f.py test-workspaces/triton/kernels/$f.py | speed)"
done
