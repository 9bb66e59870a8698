#!/usr/bin/env bash
# Benchmarks for the supervisor (issue 5), release build:
#  - `mcpctl status` as a whole process (median, hyperfine);
#  - a `tools/call` to the fixture's fast tool through the supervisor vs a
#    direct rmcp call in the same run (p50);
#  - calls/s with 16 concurrent callers;
#  - the daemon's RSS with 10 servers ready.
#
#   bash benches/supervisor.sh            # prints a Markdown table
#
# Needs: hyperfine (apt-get install hyperfine), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin mcpctl --example fixture-server --example supervisor_bench
bin="$PWD/target/release/mcpctl"
fixture="$PWD/target/release/examples/fixture-server"
work=$(mktemp -d /tmp/msb.XXXX)
export MCPCTL_STATE_DIR="$work/st"
cleanup() { "$bin" --file "$work/servers.json" supervisor stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

python3 - "$work/servers.json" "$fixture" <<'PY'
import json, sys
servers = {f"fast{i}": {"command": sys.argv[2], "args": []} for i in range(10)}
json.dump({"mcpServers": servers}, open(sys.argv[1], "w"), indent=2)
PY
export MCPCTL_FILE="$work/servers.json"
"$bin" supervisor start >/dev/null
"$bin" start fast0 >/dev/null

hyperfine -N --style none --warmup 10 --runs 200 --export-json "$work/status.json" \
  "$bin status" >/dev/null

echo "| benchmark | result | target |"
echo "|---|---|---|"
python3 - "$work" <<'PY'
import json, sys, statistics
runs = json.load(open(f"{sys.argv[1]}/status.json"))["results"][0]["times"]
print(f"| `mcpctl status` (whole process), median | {statistics.median(runs)*1000:.1f} ms | < 10 ms |")
PY
"$PWD/target/release/examples/supervisor_bench" "$work/servers.json"
