#!/usr/bin/env bash
# Measures every ordered pair (base, candidate) of distinct versions of every family
# listed in corpus/families.json on this machine's GPU, through one persistent
# `kforecast worker`, and appends one JSON line per pair to
#   ${OUT:-corpus/measurements}/h100-YYYY-MM-DD.jsonl
#
# Needs only bash, python3 and the kforecast binary (plus, for the Triton families,
# torch + triton importable by python3, as for `kforecast verify`).
#
# Environment:
#   KFORECAST_BIN   the binary (default: target/release/kforecast, relative to the repo root)
#   OUT             output folder (default: corpus/measurements)
#   PORT            worker port on 127.0.0.1 (default: 7979)
#   TIMEOUT         time limit of one pair in seconds (default: 30)
#   FAMILY          only families whose name matches this regex (e.g. 'softmax|sgemm')
#   LANGUAGE        only this language (cuda | triton)
#   SPLIT           only this split (train | heldout)
#   DRY_RUN=1       list the pairs and exit
#   ALLOW_NO_GPU=1  go on when the worker has no GPU (only to test this script)
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root" || exit 2

bin="${KFORECAST_BIN:-target/release/kforecast}"
case "$bin" in /*) ;; */*) bin="$root/$bin" ;; esac
out_dir="${OUT:-corpus/measurements}"
port="${PORT:-7979}"
timeout_s="${TIMEOUT:-30}"
url="http://127.0.0.1:$port"
export KFORECAST_WORKER_TOKEN="${KFORECAST_WORKER_TOKEN:-corpus}"

command -v python3 >/dev/null || { echo "measure.sh: python3 is required" >&2; exit 2; }
if [ "${DRY_RUN:-0}" != 1 ] && [ ! -x "$bin" ]; then
    echo "measure.sh: no kforecast binary at $bin (build it with 'cargo build --release' or set KFORECAST_BIN)" >&2
    exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/kforecast-corpus.XXXXXX")"
pairs="$work/pairs.tsv"

# The ordered pairs, one per line: family, language, kernel, split, base, candidate.
python3 - "$here/families.json" "$pairs" <<'PY' || exit 2
import json, os, re, sys
families = json.load(open(sys.argv[1]))
fam_re = re.compile(os.environ.get("FAMILY") or ".*")
lang, split = os.environ.get("LANGUAGE"), os.environ.get("SPLIT")
n = 0
with open(sys.argv[2], "w") as out:
    for f in families:
        if not fam_re.search(f["family"]) or (lang and f["language"] != lang) or (split and f["split"] != split):
            continue
        files = ["corpus/" + p for p in f["files"]]
        for p in files:
            if not os.path.isfile(p):
                sys.exit(f"measure.sh: {p} (listed in families.json) is missing")
        for b in files:
            for c in files:
                if b != c:
                    out.write("\t".join([f["family"], f["language"], f["kernel"], f["split"], b, c]) + "\n")
                    n += 1
print(f"measure.sh: {n} ordered pairs", file=sys.stderr)
PY

total=$(wc -l < "$pairs" | tr -d ' ')
if [ "${DRY_RUN:-0}" = 1 ]; then
    cat "$pairs"
    rm -rf "$work"
    exit 0
fi

mkdir -p "$out_dir" || exit 2
out_file="$out_dir/h100-$(date -u +%F).jsonl"
worker_pid=""
worker_log="$work/worker.log"

stop_worker() {
    if [ -n "$worker_pid" ] && kill -0 "$worker_pid" 2>/dev/null; then
        kill "$worker_pid" 2>/dev/null
        wait "$worker_pid" 2>/dev/null
    fi
    worker_pid=""
}

start_worker() {
    stop_worker
    "$bin" worker --listen "127.0.0.1:$port" --job-timeout "$timeout_s" >>"$worker_log" 2>&1 &
    worker_pid=$!
    # Ready when it answers a health check (the first one opens the GPU).
    for _ in $(seq 1 120); do
        if ! kill -0 "$worker_pid" 2>/dev/null; then
            echo "measure.sh: the worker exited; its log:" >&2
            tail -n 20 "$worker_log" >&2
            return 1
        fi
        if "$bin" verify --health --worker "$url" --timeout 30 >"$work/health.json" 2>/dev/null; then
            echo "measure.sh: worker ready: $(head -c 400 "$work/health.json")" >&2
            return 0
        fi
        # The worker answered but has no usable GPU: waiting will not help.
        if grep -q '"version":"[^"]' "$work/health.json" 2>/dev/null; then
            echo "measure.sh: the worker has no usable GPU: $(head -c 400 "$work/health.json")" >&2
            [ "${ALLOW_NO_GPU:-0}" = 1 ] && return 0
            return 1
        fi
        sleep 1
    done
    echo "measure.sh: the worker did not become healthy in 120 s" >&2
    tail -n 20 "$worker_log" >&2
    return 1
}

cleanup() {
    stop_worker
    rm -rf "$work"
}
trap cleanup EXIT
trap 'echo; echo "measure.sh: interrupted" >&2; exit 130' INT TERM

start_worker || exit 3
echo "measure.sh: writing $out_file" >&2

i=0
started=$(date +%s)
while IFS=$'\t' read -r family language kernel split base cand; do
    i=$((i + 1))
    # A worker that died (for example after a GPU fault) is started again.
    if ! kill -0 "$worker_pid" 2>/dev/null; then
        echo "measure.sh: the worker is gone; restarting it" >&2
        start_worker || { echo "measure.sh: cannot restart the worker; stopping" >&2; break; }
    fi
    "$bin" verify --json --fresh --timeout "$timeout_s" --worker "$url" --kernel "$kernel" \
        "$base" "$cand" >"$work/stdout" 2>"$work/stderr" </dev/null
    rc=$?
    line=$(python3 - "$family" "$language" "$kernel" "$split" "$base" "$cand" "$rc" "$work/stdout" "$work/stderr" <<'PY'
import json, sys
family, language, kernel, split, base, cand, rc, out_path, err_path = sys.argv[1:]
text = open(out_path, errors="replace").read().strip()
err = open(err_path, errors="replace").read().strip()
result = None
for candidate in reversed(text.splitlines()):
    try:
        result = json.loads(candidate)
        break
    except ValueError:
        continue
if not isinstance(result, dict):
    # No JSON from verify: a declaration error (exit 2) or a crash.
    result = {"status": "declaration_error" if rc == "2" else "error",
              "message": (err or text)[-2000:], "exit_code": int(rc)}
record = {"family": family, "language": language, "kernel": kernel, "base": base, "candidate": cand,
          "split": split, "result": result}
print(json.dumps(record, separators=(",", ":")))
PY
)
    if [ -z "$line" ]; then
        line="{\"family\":\"$family\",\"language\":\"$language\",\"kernel\":\"$kernel\",\"base\":\"$base\",\"candidate\":\"$cand\",\"split\":\"$split\",\"result\":{\"status\":\"error\",\"message\":\"measure.sh could not read the verify output\"}}"
    fi
    printf '%s\n' "$line" >>"$out_file"
    summary=$(printf '%s' "$line" | python3 -c '
import json, sys
r = json.load(sys.stdin)["result"]
s = r.get("status", "?")
if s == "ok" and r.get("speedup") is not None:
    print("ok %.3fx (%.4f -> %.4f ms, +-%.1f%%)" % (r["speedup"], (r.get("base") or {}).get("median_ms", float("nan")),
          (r.get("candidate") or {}).get("median_ms", float("nan")), 100 * (r.get("spread") or 0)))
else:
    print(s + ((": " + r.get("message", "").splitlines()[0][:120]) if r.get("message") else ""))
' 2>/dev/null || echo "?")
    printf '[%d/%d] %s %s: %s -> %s: %s\n' "$i" "$total" "$language" "$family" \
        "$(basename "$base")" "$(basename "$cand")" "$summary"
done <"$pairs"

elapsed=$(( $(date +%s) - started ))
# Summary over the pairs measured in this run (the last $i lines of the file).
tail -n "$i" "$out_file" | python3 -c '
import collections, json, sys
counts = collections.Counter()
for line in sys.stdin:
    try:
        counts[json.loads(line)["result"].get("status", "?")] += 1
    except Exception:
        counts["unreadable"] += 1
main = ["ok", "wrong_result", "compile_error", "fault", "timeout"]
parts = ["%s %d" % (k, counts.pop(k, 0)) for k in main]
parts += ["%s %d" % kv for kv in sorted(counts.items())]
print("summary: " + " / ".join(parts))
'
echo "measure.sh: $i pair(s) in ${elapsed}s; results in $out_file"
