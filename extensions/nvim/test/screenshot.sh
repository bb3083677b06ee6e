#!/usr/bin/env bash
# Takes docs/images/nvim.png from a real run: Neovim with the kforecast
# plugin in an xterm on a virtual X display (Xvfb), editing transpose.cu whose
# PREVIOUS version is committed in a fresh git repository and whose text was
# replaced with the CURRENT version; the picture shows the forecast inlay hint,
# the code lens and the hover on the kernel.
#
#   bash extensions/nvim/test/screenshot.sh [OUT.png]     (default docs/images/nvim.png)
#
# Needs Xvfb, xterm and ImageMagick's `import` (Debian: apt-get install -y xvfb
# xterm imagemagick fonts-dejavu-core; installed here when missing and root),
# Neovim >= 0.11 ($NVIM, `nvim` on PATH, or target/nvim-venv/bin/nvim from
# tests/nvim_e2e.sh), and the server (KFORECAST_BIN, default target/debug/kforecast).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"
OUT="${1:-docs/images/nvim.png}"
COLS="${KF_COLS:-132}"
ROWS="${KF_ROWS:-51}"
FONT_SIZE="${KF_FONT_SIZE:-11}"

say() { printf 'nvim screenshot: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xterm >/dev/null || missing+=(xterm)
command -v import >/dev/null || missing+=(imagemagick)
command -v xwininfo >/dev/null || missing+=(x11-utils)
[[ "$(fc-list 2>/dev/null)" == *"DejaVu Sans Mono"* ]] || missing+=(fonts-dejavu-core)
if (( ${#missing[@]} )); then
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    die "missing: ${missing[*]} (apt-get install -y ${missing[*]})"
  fi
  say "apt-get install -y ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi

NVIM="${NVIM:-}"
if [[ -z "$NVIM" ]]; then
  if command -v nvim >/dev/null && nvim --headless --clean -c 'if has("nvim-0.11") | qa! | else | cq! | endif' 2>/dev/null; then
    NVIM="$(command -v nvim)"
  else
    NVIM="$ROOT/target/nvim-venv/bin/nvim"
  fi
fi
[[ -x "$NVIM" ]] || die "no Neovim >= 0.11 (run tests/nvim_e2e.sh once, or set NVIM)"
BIN="${KFORECAST_BIN:-$ROOT/target/debug/kforecast}"
[[ -x "$BIN" ]] || die "no server at $BIN (cargo build -p kforecast)"
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/kforecast-nvim-shot.XXXXXX")"
XVFB_PID=""
XTERM_PID=""
cleanup() {
  if [[ -n "$XTERM_PID" ]]; then kill "$XTERM_PID" 2>/dev/null || true; fi
  if [[ -n "$XVFB_PID" ]]; then kill "$XVFB_PID" 2>/dev/null || true; fi
  if [[ "${KEEP_TMP:-}" == 1 ]]; then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

# The workspace: PREVIOUS version committed, CURRENT version in the work tree.
WORK="$TMP/work"
mkdir -p "$WORK/src" "$TMP/home" "$TMP/cache"
cp test-workspaces/cuda/previous/src/transpose.cu "$WORK/src/transpose.cu"
git -C "$WORK" init -q
git -C "$WORK" -c user.name=shot -c user.email=shot@example.invalid add -A
git -C "$WORK" -c user.name=shot -c user.email=shot@example.invalid -c commit.gpgsign=false commit -q -m previous
cp test-workspaces/cuda/src/transpose.cu "$WORK/src/transpose.cu"

# A virtual display on a free number.
DISPLAY_NUM=""
for n in $(seq 90 120); do
  [[ -e "/tmp/.X$n-lock" || -e "/tmp/.X11-unix/X$n" ]] && continue
  DISPLAY_NUM=$n
  break
done
[[ -n "$DISPLAY_NUM" ]] || die "no free X display number in 90..120"
Xvfb ":$DISPLAY_NUM" -screen 0 1600x1200x24 -nolisten tcp >"$TMP/xvfb.log" 2>&1 &
XVFB_PID=$!
export DISPLAY=":$DISPLAY_NUM"
for _ in $(seq 1 200); do xwininfo -root >/dev/null 2>&1 && break; sleep 0.1; done
xwininfo -root >/dev/null 2>&1 || die "Xvfb did not start (see $TMP/xvfb.log)"

# Neovim in an xterm (24-bit colour, DejaVu Sans Mono, no scroll bar, no border).
DONE="$TMP/done"
(
  cd "$WORK"
  exec env HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" XDG_DATA_HOME="$TMP/home/.local/share" \
    XDG_STATE_HOME="$TMP/home/.local/state" XDG_CACHE_HOME="$TMP/home/.cache" \
    KF_ROOT="$ROOT" KF_BIN="$BIN" KF_CACHE="$TMP/cache" KF_KERNEL=transpose KF_DONE="$DONE" \
    COLORTERM=truecolor \
    xterm -T kforecast-nvim -geometry "${COLS}x${ROWS}+0+0" -fa "DejaVu Sans Mono" -fs "$FONT_SIZE" \
      -bg "#14161b" -fg "#e0e2ea" -b 8 -bw 0 +sb \
      -xrm "XTerm*directColor: true" -xrm "XTerm*termName: xterm-direct" \
      -e "$NVIM" -u "$ROOT/extensions/nvim/test/screenshot.lua" -i NONE -n src/transpose.cu
) >"$TMP/xterm.log" 2>&1 &
XTERM_PID=$!

for _ in $(seq 1 300); do
  [[ -s "$DONE" ]] && break
  kill -0 "$XTERM_PID" 2>/dev/null || die "xterm/nvim exited early (see $TMP/xterm.log)"
  sleep 0.2
done
[[ -s "$DONE" ]] || die "Neovim never showed the forecast (60 s)"
[[ "$(cat "$DONE")" == ok ]] || die "$(cat "$DONE")"

WID="$(xwininfo -root -tree | awk '/"kforecast-nvim"/ { print $1; exit }')"
[[ -n "$WID" ]] || die "no xterm window"
mkdir -p "$(dirname "$OUT")"
import -window "$WID" "$OUT"
say "wrote $OUT ($(identify -format '%wx%h' "$OUT"))"
