#!/usr/bin/env bash
# Benchmarks for the lockfile (issue 11), recorded in BENCHMARKS.md:
#  (a) `mcpctl check --locked` vs `mcpctl check` on server-everything over
#      stdio, alternating in one hyperfine run (target: ratio <= 1.05);
#  (b) hashing a 5,000-tool catalog (examples/lock_hash_bench.rs; target:
#      under 50 ms).
#
# Needs: hyperfine, mcp-server-everything (npm i -g
# @modelcontextprotocol/server-everything@2026.8.31).
# PROFILE=debug skips the release build (numbers are then only indicative).
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-release}
RUNS=${RUNS:-20}
if [ "$PROFILE" = release ]; then
  cargo build --release --quiet --bin mcpctl --example lock_hash_bench
else
  cargo build --quiet --bin mcpctl --example lock_hash_bench
fi
BIN=target/$PROFILE
MCPCTL=$BIN/mcpctl
EVERYTHING=$(command -v mcp-server-everything) || { echo "mcp-server-everything is not installed" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf '{"mcpServers": {"everything": {"command": "%s", "args": ["stdio"]}}}\n' "$EVERYTHING" > "$WORK/servers.json"
"$MCPCTL" --file "$WORK/servers.json" lock >/dev/null

# (a) check vs check --locked, same server, same run.
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/a.json" \
  "$MCPCTL --file $WORK/servers.json check" \
  "$MCPCTL --file $WORK/servers.json check --locked"
python3 - "$WORK/a.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
plain, locked = r[0]["median"], r[1]["median"]
print(f"(a) check --locked / check, medians: {locked:.3f} s / {plain:.3f} s = {locked / plain:.3f}x (target <= 1.05)")
PY

# (b) hashing 5,000 tools.
"$BIN/examples/lock_hash_bench" 5000
