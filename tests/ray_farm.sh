#!/usr/bin/env bash
# The measurement farm (server/ray) on a local Ray cluster without a GPU: two logical
# GPUs (`ray start --head --num-gpus=2`), two replicas. Installs Ray itself into
# $CARGO_TARGET_DIR/ray-venv (pip install "ray[serve]"); skipped, saying why, where it
# cannot be installed. Builds the debug binary if it is not there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TARGET=${CARGO_TARGET_DIR:-$PWD/target}
BIN=${KFORECAST_BIN:-$TARGET/debug/kforecast}
[ -x "$BIN" ] || cargo build -p kforecast
VENV=$TARGET/ray-venv
if ! "$VENV/bin/python" -c "import ray.serve, yaml" 2>/dev/null; then
  echo "installing Ray into $VENV (pip install \"ray[serve]\")"
  if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "ray[serve]" pyyaml; }; then
    echo "SKIPPED: the farm's Ray tests: Ray could not be installed (pip install \"ray[serve]\" failed; no network or no wheel for this Python)"
    exit 0
  fi
fi
"$VENV/bin/python" -c "import ray; print('Ray', ray.__version__)"
RAY_DIR=$(mktemp -d /tmp/kfray.XXXX)
PORT=$("$VENV/bin/python" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
export KFORECAST_BIN=$BIN
# The package must import on every node (here: the replicas, started by this cluster).
export PYTHONPATH=$PWD/server/ray${PYTHONPATH:+:$PYTHONPATH}
export KFORECAST_WORKER_TOKEN="farm-test-$RANDOM$RANDOM"
export KFORECAST_FARM_TEST_DIR=$RAY_DIR/jobs KFORECAST_FARM_TEST_DELAY=2
export RAY_ADDRESS=127.0.0.1:$PORT RAY_USAGE_STATS_ENABLED=0
mkdir -p "$KFORECAST_FARM_TEST_DIR"
stop() {
  "$VENV/bin/ray" stop --force >/dev/null 2>&1 || true
  rm -rf "$RAY_DIR"
}
trap stop EXIT
"$VENV/bin/ray" start --head --port="$PORT" --num-gpus=2 --num-cpus=4 --include-dashboard=false \
  --temp-dir="$RAY_DIR/ray" --disable-usage-stats >/dev/null
"$VENV/bin/python" tests/ray/test_farm.py "$@"
