#!/usr/bin/env bash
# Benchmarks for the definition layer (issue: list and add on a 1,000-server
# file). Whole-process timings with hyperfine, release build.
#
#   bash benches/definitions.sh            # prints a Markdown table
#
# Needs: hyperfine (apt-get install hyperfine), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/mcpctl"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/servers.json" <<'PY'
import json, sys
servers = {}
for i in range(1000):
    if i % 2:
        servers[f"srv-{i:04}"] = {"command": "sh", "args": ["-c", f"exec cat # {i}"], "env": {"TOKEN": "${TOKEN}"}}
    else:
        servers[f"srv-{i:04}"] = {"type": "http", "url": f"https://127.0.0.1:{8000 + i}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
json.dump({"mcpServers": servers}, open(sys.argv[1], "w"), indent=2)
PY
cp "$work/servers.json" "$work/pristine.json"

export MCPCTL_FILE="$work/servers.json"
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/list.json" \
  "$bin list" >/dev/null
# each add run starts from the same 1,000-server file
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/add.json" \
  --prepare "cp $work/pristine.json $work/servers.json" \
  "$bin add --no-check --name new --command sh" >/dev/null

python3 - "$work" <<'PY'
import json, sys, statistics
work = sys.argv[1]
def median_ms(name):
    runs = json.load(open(f"{work}/{name}.json"))["results"][0]["times"]
    return statistics.median(runs) * 1000
print("| benchmark | median | target |")
print("|---|---|---|")
print(f"| `mcpctl list`, 1,000 servers | {median_ms('list'):.1f} ms | < 10 ms |")
print(f"| `mcpctl add --no-check`, into 1,000 servers | {median_ms('add'):.1f} ms | < 20 ms |")
PY
