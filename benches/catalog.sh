#!/usr/bin/env bash
# Benchmarks for big catalogs and a lean binary (issue 13), in one run:
#  (a) `mcpctl check` of a fixture serving 5,000 tools (500 a page,
#      20-property schemas) vs a bare stdlib-Python client listing the same
#      pages (benches/bare_client.py): median time (target <= 1.1x) and
#      peak RSS (target <= 1.5x);
#  (b) `mcpctl check` of server-everything vs the same bare client, which
#      ends the server with SIGTERM and waits (target <= 0.9x);
#  (c) binary size and cold `--version` (page cache dropped before each
#      run; needs root, else skipped);
#  (d) the supervisor's RSS with 10 such 5,000-tool servers ready, vs the
#      catalogs' total JSON size (target <= 1.5x).
#
#   bash benches/catalog.sh
#
# Needs: hyperfine, python3, GNU time (/usr/bin/time), mcp-server-everything.
# PROFILE=debug skips the release build (numbers are then only indicative).
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-release}
RUNS=${RUNS:-10}
if [ "$PROFILE" = release ]; then
  cargo build --release --locked --quiet --bin mcpctl --example fixture-server
else
  cargo build --locked --quiet --bin mcpctl --example fixture-server
fi
MCPCTL=${MCPCTL:-$PWD/target/$PROFILE/mcpctl}
FIXTURE=$PWD/target/$PROFILE/examples/fixture-server
BARE="python3 $PWD/benches/bare_client.py"
EVERYTHING=$(command -v mcp-server-everything) || { echo "mcp-server-everything is not installed" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 1; }

WORK=$(mktemp -d /tmp/mcb.XXXX)
export MCPCTL_STATE_DIR="$WORK/st"
cleanup() { "$MCPCTL" --file "$WORK/ten.json" supervisor stop >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
BIG="$FIXTURE --tools 5000 --page-size 500 --schema-props 20"

python3 - "$FIXTURE" "$WORK" "$EVERYTHING" <<'PY'
import json, sys
fx, work, everything = sys.argv[1:]
big = {"command": fx, "args": ["--tools", "5000", "--page-size", "500", "--schema-props", "20"]}
json.dump({"mcpServers": {"big": big}}, open(f"{work}/big.json", "w"))
json.dump({"mcpServers": {f"big{i}": big for i in range(10)}}, open(f"{work}/ten.json", "w"))
json.dump({"mcpServers": {"everything": {"command": everything, "args": ["stdio"]}}}, open(f"{work}/everything.json", "w"))
PY

# The catalog's JSON size: the tools arrays of every page, as the server sent them.
CATALOG_BYTES=$(python3 - $BIG <<'PY'
import json, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m): p.stdin.write(json.dumps(m).encode() + b"\n"); p.stdin.flush()
send({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"size","version":"0"}}})
p.stdout.readline()
send({"jsonrpc":"2.0","method":"notifications/initialized"})
total, cursor, i = 0, None, 0
while True:
    i += 1
    send({"jsonrpc":"2.0","id":i,"method":"tools/list","params":{"cursor":cursor} if cursor else {}})
    r = json.loads(p.stdout.readline())["result"]
    total += len(json.dumps(r["tools"], separators=(",", ":")).encode())
    cursor = r.get("nextCursor")
    if not cursor: break
p.terminate(); p.wait()
print(total)
PY
)

# (a) and (b): time, in one hyperfine run each.
hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$WORK/a.json" \
  -n bare "$BARE $BIG" \
  -n mcpctl "$MCPCTL --file $WORK/big.json check"
hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$WORK/b.json" \
  -n bare "$BARE $EVERYTHING stdio" \
  -n mcpctl "$MCPCTL --file $WORK/everything.json check"

# (a) peak RSS (of the client process alone), median of 5 each.
peak() { for _ in 1 2 3 4 5; do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 3p; }
RSS_BARE=$(peak $BARE $BIG)
RSS_MCPCTL=$(peak "$MCPCTL" --file "$WORK/big.json" check)

# (c) size and cold start.
SIZE=$(stat -c %s "$MCPCTL")
COLD=""
if [ -w /proc/sys/vm/drop_caches ]; then
  hyperfine -N --runs "$RUNS" --prepare "sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'" \
    --export-json "$WORK/c.json" "$MCPCTL --version" >/dev/null
  hyperfine -N --warmup 5 --runs 50 --export-json "$WORK/w.json" "$MCPCTL --version" >/dev/null
  COLD=1
fi

# (d) the supervisor with ten 5,000-tool servers.
"$MCPCTL" --file "$WORK/ten.json" start --all >/dev/null
PID=$("$MCPCTL" --file "$WORK/ten.json" supervisor status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
"$MCPCTL" --file "$WORK/ten.json" tools big0 --json >/dev/null
sleep 1
RSS_SUP=$(awk '/^VmRSS:/ {print $2}' "/proc/$PID/status")
HWM_SUP=$(awk '/^VmHWM:/ {print $2}' "/proc/$PID/status")

python3 - "$WORK" "$RUNS" "$RSS_BARE" "$RSS_MCPCTL" "$SIZE" "$COLD" "$CATALOG_BYTES" "$RSS_SUP" "$HWM_SUP" <<'PY'
import json, sys
work, runs, rb, rm, size, cold, cat, sup, hwm = sys.argv[1:]
def med(name):
    return {r["command"]: r["median"] for r in json.load(open(f"{work}/{name}.json"))["results"]}
a, b = med("a"), med("b")
rb, rm, cat, sup, hwm = int(rb), int(rm), int(cat), int(sup), int(hwm)
print(f"\nmedians of {runs} runs each")
print(f"(a) check, 5,000 tools: mcpctl / bare python: {a['mcpctl']:.3f}s / {a['bare']:.3f}s = {a['mcpctl']/a['bare']:.2f}x (target <= 1.1)")
print(f"(a) peak RSS: mcpctl / bare python: {rm/1024:.1f} / {rb/1024:.1f} MiB = {rm/rb:.2f}x (target <= 1.5)")
print(f"(b) check, server-everything: mcpctl / bare python: {b['mcpctl']:.3f}s / {b['bare']:.3f}s = {b['mcpctl']/b['bare']:.2f}x (target <= 0.9)")
print(f"(c) binary size: {int(size)/1e6:.1f} MB")
if cold:
    c, w = med("c"), med("w")
    print(f"(c) --version cold: {list(c.values())[0]*1000:.1f} ms, warm: {list(w.values())[0]*1000:.1f} ms")
print(f"(d) supervisor RSS, 10 x 5,000 tools: {sup/1024:.0f} MiB (peak {hwm/1024:.0f} MiB) vs catalogs' JSON {10*cat/2**20:.1f} MiB = {sup*1024/(10*cat):.2f}x (target <= 1.5)")
PY
