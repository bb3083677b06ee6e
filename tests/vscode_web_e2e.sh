#!/usr/bin/env bash
# End-to-end test of the VS Code extension (extensions/vscode) in a real VS Code:
# code-server (VS Code in the browser, from npm) runs on loopback with the
# extension's platform-specific .vsix installed (scripts/package.js --target
# linux-x64: the server binary is inside, and no setting names it, so the
# extension must find its bundled server); headless Chromium, driven by playwright-core
# (extensions/vscode/test-web/drive.cjs), opens the PREVIOUS version of
# transpose.cu committed in a fresh git repository, checks that no forecast
# shows, pastes the CURRENT version over it, and asserts that the kforecast
# inlay hint ("≈…× faster · …%") appears at the end of the line that opens the
# kernel's body in the editor DOM, and the code lens above it saying the same; then
# that the Quick Fix menu (Ctrl+.) at the kernel lists Search under "Rewrite"
# (refactor.rewrite) and not Set baseline, which Source Action… lists (source); and
# that a kernel with no `kforecast:` declaration (scale.cu) gets a Warning from Verify
# whose quick fix inserts a filled-in declaration, after which Verify builds its job.
#
#   bash tests/vscode_web_e2e.sh
#
# Exits 0 with a line "skipped: …" when Chromium, code-server or playwright-core
# cannot be installed (no apt-get / no network / no build tools), non-zero with
# "FAIL: …" when the extension does not show the forecast.
#
# What it installs (once; cached under target/vscode-web/):
#   - Debian packages chromium, ripgrep and libkrb5-dev (apt-get, when missing
#     and when running as root);
#   - code-server $KF_CODE_SERVER_VERSION from npm, with its native modules
#     built locally (the packaged install downloads ripgrep from GitHub, which
#     may be unreachable: Debian's rg is used instead);
#   - playwright-core $KF_PLAYWRIGHT_VERSION from npm (no browser download).
# code-server runs with telemetry, update checks and the extension gallery
# off, and Chromium may only reach 127.0.0.1 (other requests are aborted).
#
# Environment:
#   KFORECAST_BIN          server binary to test as is (default: target/debug/kforecast,
#                          brought up to date with `cargo build -p kforecast` first)
#   CHROMIUM               Chromium executable (default: /usr/bin/chromium, else chromium on PATH)
#   KF_CODE_SERVER_VERSION code-server version (default: 4.100.3 for Node 20, 4.105.1 for Node 22)
#   KF_PLAYWRIGHT_VERSION  playwright-core version (default 1.65.1)
#   KF_WEB_TIMEOUT_MS      per-step timeout in the browser (default 60000)
#   KF_SCREENSHOT=PATH     also hover the kernel and save a screenshot (PNG) there
#   KF_SCREENSHOT_SIZE     WIDTHxHEIGHT of that screenshot (default 1280x900)
#   KF_SCREENSHOT_PLAIN=PATH  with KF_SCREENSHOT, also a screenshot before the hover opens
#   KEEP_TMP=1             keep the temporary workspace and logs for inspection
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf 'vscode_web_e2e: %s\n' "$*" >&2; }
die() { say "FAIL: $*"; exit 1; }
skip() { printf 'skipped: %s\n' "$*"; exit 0; }
START=$SECONDS

CACHE="$ROOT/target/vscode-web"
mkdir -p "$CACHE"

# --- Node.js and the code-server version that fits it ---------------------------
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
if [[ -z "${KF_CODE_SERVER_VERSION:-}" ]]; then
  case "$NODE_MAJOR" in
    20) KF_CODE_SERVER_VERSION=4.100.3 ;;  # the last code-server whose engines say node 20
    22) KF_CODE_SERVER_VERSION=4.105.1 ;;
    *) skip "no code-server version chosen for Node $NODE_MAJOR (set KF_CODE_SERVER_VERSION)" ;;
  esac
fi
KF_PLAYWRIGHT_VERSION="${KF_PLAYWRIGHT_VERSION:-1.65.1}"

# --- Debian packages (Chromium, ripgrep, Kerberos headers for code-server) ------
apt_install() {  # apt_install PKG...: best effort, root only
  [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1 || return 1
  say "apt-get install -y $*"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q "$@" >"$CACHE/apt.log" 2>&1; then
    apt-get update -q >>"$CACHE/apt.log" 2>&1 || true
    apt-get install -y -q "$@" >>"$CACHE/apt.log" 2>&1 || return 1
  fi
}

find_chromium() {
  if [[ -n "${CHROMIUM:-}" ]]; then [[ -x "$CHROMIUM" ]] && return 0; return 1; fi
  local c
  for c in /usr/bin/chromium "$(command -v chromium 2>/dev/null || true)" "$(command -v chromium-browser 2>/dev/null || true)"; do
    if [[ -n "$c" && -x "$c" ]]; then CHROMIUM="$c"; return 0; fi
  done
  return 1
}
if ! find_chromium; then
  [[ -n "${CHROMIUM:-}" ]] && skip "CHROMIUM=$CHROMIUM is not an executable"
  apt_install chromium || true
  find_chromium || skip "Chromium is not installed and could not be installed (apt-get install chromium; see $CACHE/apt.log)"
fi
"$CHROMIUM" --version >/dev/null 2>&1 || skip "$CHROMIUM --version fails"
say "using $("$CHROMIUM" --version 2>/dev/null | tail -n1) ($CHROMIUM)"

# --- code-server, installed from npm with its native modules built here ----------
CS_PREFIX="$CACHE/code-server-$KF_CODE_SERVER_VERSION"
CS_PKG="$CS_PREFIX/node_modules/code-server"
CS_BIN="$CS_PREFIX/node_modules/.bin/code-server"
CS_STAMP="$CS_PREFIX/.installed-node$NODE_MAJOR"
# code-server writes a default config.yaml into $XDG_CONFIG_HOME/code-server on
# any run (even --version): keep that out of the user's home.
cs_version() { XDG_CONFIG_HOME="$CS_PREFIX/xdg-config" "$CS_BIN" --version 2>/dev/null | head -n1; }

install_code_server() {
  local log="$CS_PREFIX.install.log"
  say "installing code-server $KF_CODE_SERVER_VERSION into $CS_PREFIX (log: $log; a few minutes)"
  command -v rg >/dev/null 2>&1 || apt_install ripgrep || true
  command -v rg >/dev/null 2>&1 || { say "ripgrep (rg) is missing"; return 1; }
  if [[ ! -e /usr/include/krb5.h && ! -e /usr/include/gssapi/gssapi.h ]]; then
    apt_install libkrb5-dev || true
  fi
  for tool in make g++ python3; do
    command -v "$tool" >/dev/null 2>&1 || { say "$tool is missing (needed to build code-server's native modules)"; return 1; }
  done
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  {
    # Without scripts: code-server's postinstall would `npm install` lib/vscode,
    # whose @vscode/ripgrep downloads rg from api.github.com.
    npm install --no-audit --no-fund --ignore-scripts --prefix "$CS_PREFIX" "code-server@$KF_CODE_SERVER_VERSION" &&
    cd "$CS_PKG/lib/vscode" &&
    npm install --no-audit --no-fund --omit=dev --ignore-scripts &&
    # The native modules (what `npm install` would build, less the Windows ones).
    npm rebuild kerberos @vscode/spdlog @vscode/deviceid native-watchdog @parcel/watcher &&
    { npm rebuild node-pty || true; } &&  # its post-install step wants node-gyp through npx; pty.node is built before
    [[ -f node_modules/node-pty/build/Release/pty.node ]] &&
    mkdir -p node_modules/@vscode/ripgrep/bin &&
    cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg &&
    # The rest of code-server's postinstall.sh.
    ln -sfn node_modules node_modules.asar &&
    (cd bin/remote-cli && ln -sfn code-linux.sh code-server) &&
    (cd bin/helpers && ln -sfn browser-linux.sh browser.sh) &&
    (cd extensions && npm install --no-audit --no-fund --omit=dev) &&
    cd "$CS_PREFIX" &&
    npm rebuild argon2 --build-from-source &&
    cs_version | grep -q "$KF_CODE_SERVER_VERSION"
  } >"$log" 2>&1 || { say "the code-server install failed; last lines of $log:"; tail -n 15 "$log" >&2; return 1; }
  touch "$CS_STAMP"
}
if [[ ! -f "$CS_STAMP" ]]; then
  (install_code_server) || skip "code-server $KF_CODE_SERVER_VERSION could not be installed (see $CS_PREFIX.install.log)"
fi
say "using code-server $(cs_version)"

# --- playwright-core (the driver; uses the Chromium above) ----------------------
PW_PREFIX="$CACHE/playwright-core-$KF_PLAYWRIGHT_VERSION"
PW_PKG="$PW_PREFIX/node_modules/playwright-core"
if [[ ! -f "$PW_PKG/package.json" ]]; then
  say "installing playwright-core $KF_PLAYWRIGHT_VERSION into $PW_PREFIX"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --prefix "$PW_PREFIX" \
    "playwright-core@$KF_PLAYWRIGHT_VERSION" >"$PW_PREFIX.install.log" 2>&1 \
    || skip "playwright-core $KF_PLAYWRIGHT_VERSION could not be installed (see $PW_PREFIX.install.log)"
fi

# --- the server -------------------------------------------------------------------
if [[ -n "${KFORECAST_BIN:-}" ]]; then
  BIN="$(cd "$(dirname "$KFORECAST_BIN")" && pwd)/$(basename "$KFORECAST_BIN")"
  [[ -x "$BIN" ]] || die "KFORECAST_BIN=$KFORECAST_BIN is not an executable"
else
  BIN="$ROOT/target/debug/kforecast"
  say "cargo build -p kforecast"
  cargo build -q -p kforecast || die "cargo build -p kforecast failed"
  [[ -x "$BIN" ]] || die "no server binary at $BIN after cargo build"
fi

# --- temporary workspace, .vsix, user settings -------------------------------------
TMP="$(mktemp -d "${TMPDIR:-/tmp}/kforecast-vscode-web-e2e.XXXXXX")"
CS_PID=""
cleanup() {
  if [[ -n "$CS_PID" ]]; then
    kill -TERM -- "-$CS_PID" 2>/dev/null || kill -TERM "$CS_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$CS_PID" 2>/dev/null || break; sleep 0.3; done
    kill -KILL -- "-$CS_PID" 2>/dev/null || true
  fi
  if [[ "${KEEP_TMP:-}" == 1 ]]; then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

say "packaging the extension for linux-x64 with the server inside (.vsix)"
(
  cd extensions/vscode
  [[ -d node_modules ]] || npm ci --no-audit --no-fund
  node scripts/package.js --target linux-x64 --server "$BIN" --out "$TMP/kforecast.vsix" </dev/null
) >"$TMP/vsce.log" 2>&1 || { tail -n 20 "$TMP/vsce.log" >&2; die "packaging the extension failed (cd extensions/vscode && node scripts/package.js --target linux-x64)"; }
# Listed to a file first: `unzip | grep -q` fails under pipefail when grep stops reading early.
unzip -l "$TMP/kforecast.vsix" >"$TMP/vsix-contents.txt"
grep -q ' extension/server/kforecast$' "$TMP/vsix-contents.txt" || die "the .vsix holds no server binary"

WORK="$TMP/work"
mkdir -p "$WORK/src" "$TMP/home" "$TMP/config" "$TMP/data/User" "$TMP/extensions" "$TMP/kfcache" "$TMP/artifacts"
cp test-workspaces/cuda/previous/src/transpose.cu "$WORK/src/transpose.cu"
# A kernel with no `kforecast:` declaration, and its edit (the declaration quick fix).
printf '%s\n' '__global__ void scale(const float* x, float* y, float a, int n) {' \
  '    int i = blockIdx.x * blockDim.x + threadIdx.x;' '    if (i < n) y[i] = a * x[i] + 0.0f;' '}' >"$WORK/src/scale.cu"
sed 's/ + 0.0f//' "$WORK/src/scale.cu" >"$TMP/scale-edited.cu"
git -C "$WORK" init -q
git -C "$WORK" -c user.name=e2e -c user.email=e2e@example.invalid add -A
git -C "$WORK" -c user.name=e2e -c user.email=e2e@example.invalid -c commit.gpgsign=false commit -q -m previous

node - "$TMP/data/User/settings.json" "$TMP/kfcache" <<'JS'
const [file, cache] = process.argv.slice(2);
require('fs').writeFileSync(file, JSON.stringify({
  // No kforecast.server.path: the server bundled in the .vsix is used.
  'kforecast.server.cacheDir': cache,
  'kforecast.lens.enable': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'editor.inlayHints.enabled': 'on',
  'editor.minimap.enabled': false,
  'editor.hover.above': false,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'never',
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
}, null, 2) + '\n');
JS

# code-server's own state goes to $TMP, never to ~/.config or ~/.local.
CS_ENV=(env HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" XDG_DATA_HOME="$TMP/home/.local/share"
  XDG_CACHE_HOME="$TMP/home/.cache" XDG_STATE_HOME="$TMP/home/.local/state"
  EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/gallery","itemUrl":"http://127.0.0.1:9/item","resourceUrlTemplate":"http://127.0.0.1:9/{publisher}/{name}/{version}/{path}"}')
printf 'auth: none\ncert: false\n' >"$TMP/config/config.yaml"

"${CS_ENV[@]}" "$CS_BIN" --config "$TMP/config/config.yaml" --user-data-dir "$TMP/data" \
  --extensions-dir "$TMP/extensions" --install-extension "$TMP/kforecast.vsix" >"$TMP/install-extension.log" 2>&1 \
  || { cat "$TMP/install-extension.log" >&2; die "code-server --install-extension failed"; }
[[ -d "$(echo "$TMP"/extensions/kforecast.kforecast-*)" ]] || { cat "$TMP/install-extension.log" >&2; die "the extension is not in $TMP/extensions after --install-extension"; }

# --- code-server on a free loopback port --------------------------------------------
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
say "starting code-server on 127.0.0.1:$PORT"
setsid "${CS_ENV[@]}" "$CS_BIN" --config "$TMP/config/config.yaml" --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --disable-file-downloads --user-data-dir "$TMP/data" --extensions-dir "$TMP/extensions" --ignore-last-opened \
  "$WORK" >"$TMP/code-server.log" 2>&1 </dev/null &
CS_PID=$!
for _ in $(seq 1 120); do
  kill -0 "$CS_PID" 2>/dev/null || { tail -n 30 "$TMP/code-server.log" >&2; die "code-server exited at start"; }
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
  sleep 0.5
done
curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" || { tail -n 30 "$TMP/code-server.log" >&2; die "code-server does not answer on 127.0.0.1:$PORT"; }

# --- drive it ----------------------------------------------------------------------
SIZE="${KF_SCREENSHOT_SIZE:-1280x900}"
SHOT=""
[[ -n "${KF_SCREENSHOT:-}" ]] && SHOT="$(cd "$(dirname "$KF_SCREENSHOT")" && pwd)/$(basename "$KF_SCREENSHOT")"
set +e
KF_PLAYWRIGHT="$PW_PKG" KF_CHROMIUM="$CHROMIUM" KF_PROFILE="$TMP/chromium-profile" \
KF_URL="http://127.0.0.1:$PORT/?folder=$WORK" KF_OPEN=transpose.cu KF_KERNEL=transpose \
KF_NEW_TEXT="$ROOT/test-workspaces/cuda/src/transpose.cu" KF_TIMEOUT_MS="${KF_WEB_TIMEOUT_MS:-60000}" \
KF_DECL_OPEN=scale.cu KF_DECL_KERNEL=scale KF_DECL_NEW_TEXT="$TMP/scale-edited.cu" KF_DECL_MARKER='x[i];' \
KF_LOGS="$TMP/data/logs" \
KF_SCREENSHOT="$SHOT" KF_WIDTH="${SIZE%x*}" KF_HEIGHT="${SIZE#*x}" KF_ARTIFACTS="$TMP/artifacts" \
  timeout 240 node extensions/vscode/test-web/drive.cjs
rc=$?
set -e
if (( rc != 0 )); then
  say "last lines of the code-server log:"
  tail -n 20 "$TMP/code-server.log" >&2 || true
  klog="$(find "$TMP/data/logs" -name '*kforecast*' -type f 2>/dev/null | head -n1)"
  if [[ -n "$klog" ]]; then say "last lines of the kforecast output channel ($klog):"; tail -n 20 "$klog" >&2; fi
  KEEP_TMP=1
  say "the failure screenshot, editor text and logs are kept in $TMP"
  (( rc == 124 )) && die "timed out after 240 s"
  die "the VS Code extension did not show the kforecast forecast (exit $rc); see the messages above"
fi
klog="$(grep -rl 'found via' "$TMP/data/logs" 2>/dev/null | head -n1)"
[[ -n "$klog" ]] && grep -q 'found via bundled' "$klog" || die "the extension did not start its bundled server (see ${klog:-the kforecast output channel})"
say "passed in $((SECONDS - START)) s"
