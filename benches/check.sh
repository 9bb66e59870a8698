#!/usr/bin/env bash
# Benchmarks for `mcpctl check` (issue 3), recorded in BENCHMARKS.md as
# medians of hyperfine's runs, like the other benches:
#  (a) 20 fixture servers that each take 500 ms to start vs one of them
#      (target: ratio <= 1.5);
#  (b) mcpctl check vs a bare rmcp client doing only initialize + tools/list
#      against server-everything over stdio (target: ratio <= 1.1);
#  (c) mcpctl check vs the MCP Inspector CLI (`--method tools/list`).
#
# Needs: hyperfine, mcp-server-everything (npm i -g
# @modelcontextprotocol/server-everything@2026.8.31), npx (for c).
# PROFILE=debug skips the release build (numbers are then only indicative).
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-release}
RUNS=${RUNS:-10}
if [ "$PROFILE" = release ]; then
  cargo build --release --quiet --bin mcpctl --example fixture-server --example bare-client
else
  cargo build --quiet --bin mcpctl --example fixture-server --example bare-client
fi
BIN=target/$PROFILE
MCPCTL=$BIN/mcpctl
FIXTURE=$BIN/examples/fixture-server
BARE=$BIN/examples/bare-client
EVERYTHING=$(command -v mcp-server-everything) || { echo "mcp-server-everything is not installed" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# (a) one slow fixture vs twenty.
python3 - "$FIXTURE" "$WORK" "$EVERYTHING" <<'PY'
import json, sys
fx, work, everything = sys.argv[1], sys.argv[2], sys.argv[3]
slow = {"command": fx, "args": ["--slow-start", "500"]}
json.dump({"mcpServers": {"slow0": slow}}, open(f"{work}/one.json", "w"))
json.dump({"mcpServers": {f"slow{i}": slow for i in range(20)}}, open(f"{work}/twenty.json", "w"))
json.dump({"mcpServers": {"everything": {"command": everything, "args": ["stdio"]}}}, open(f"{work}/everything.json", "w"))
PY

hyperfine --warmup 2 --runs "$RUNS" --export-json "$WORK/a.json" \
  -n one "$MCPCTL --file $WORK/one.json check" \
  -n twenty "$MCPCTL --file $WORK/twenty.json check"

# (b) mcpctl vs a bare rmcp client, same server, same run.
hyperfine --warmup 2 --runs "$RUNS" --export-json "$WORK/b.json" \
  -n bare-rmcp "$BARE $EVERYTHING stdio" \
  -n mcpctl "$MCPCTL --file $WORK/everything.json check"

# (c) the MCP Inspector's CLI mode (peer tool).
HAVE_INSPECTOR=0
if npx --yes @modelcontextprotocol/inspector --cli "$EVERYTHING" stdio --method tools/list >/dev/null 2>&1; then
  HAVE_INSPECTOR=1
  hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/c.json" \
    -n inspector "npx --yes @modelcontextprotocol/inspector --cli $EVERYTHING stdio --method tools/list" \
    -n mcpctl "$MCPCTL --file $WORK/everything.json check"
else
  echo "note: the MCP Inspector CLI could not run (no network?); skipping (c)" >&2
fi

python3 - "$WORK" "$HAVE_INSPECTOR" "$RUNS" <<'PY'
import json, sys
work, have_c = sys.argv[1], sys.argv[2] == "1"
def medians(name):
    return {r["command"]: r["median"] for r in json.load(open(f"{work}/{name}.json"))["results"]}
a, b = medians("a"), medians("b")
print()
print(f"medians of {sys.argv[3]} runs each")
print(f"(a) twenty / one slow servers: {a['twenty']:.3f}s / {a['one']:.3f}s = {a['twenty']/a['one']:.2f}x (target <= 1.5)")
print(f"(b) mcpctl / bare rmcp client: {b['mcpctl']:.3f}s / {b['bare-rmcp']:.3f}s = {b['mcpctl']/b['bare-rmcp']:.2f}x (target <= 1.1)")
if have_c:
    c = medians("c")
    print(f"(c) inspector / mcpctl: {c['inspector']:.3f}s / {c['mcpctl']:.3f}s = {c['inspector']/c['mcpctl']:.2f}x")
PY
