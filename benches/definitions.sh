#!/usr/bin/env bash
# Benchmarks for the definition layer (issue: list and add on a 1,000-server
# file). Whole-process timings with hyperfine, release build.
#
#   bash benches/definitions.sh            # prints a Markdown table
#   bash benches/definitions.sh OLD_MCPCTL # the same, beside another build
#                                          # (copy it aside before rebuilding)
#
# Needs: hyperfine (apt-get install hyperfine), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/mcpctl"
old="${1:-}"
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
# With OLD_MCPCTL, each hyperfine call times both builds (new first).
commands=("$bin")
[ -n "$old" ] && commands+=("$old")
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/list.json" \
  "${commands[@]/%/ list}" >/dev/null
# each add run starts from the same 1,000-server file
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/add.json" \
  --prepare "cp $work/pristine.json $work/servers.json" \
  "${commands[@]/%/ add --no-check --name new --command sh}" >/dev/null

python3 - "$work" "$old" <<'PY2'
import json, sys, statistics
work, old = sys.argv[1], sys.argv[2]
def median_ms(name, which):
    runs = json.load(open(f"{work}/{name}.json"))["results"][which]["times"]
    return statistics.median(runs) * 1000
rows = [("`mcpctl list`, 1,000 servers", "list", "< 10 ms"),
        ("`mcpctl add --no-check`, into 1,000 servers", "add", "< 20 ms")]
if old:
    print("| benchmark | this build | OLD_MCPCTL | target |")
    print("|---|---|---|---|")
    for label, name, target in rows:
        print(f"| {label} | {median_ms(name, 0):.1f} ms | {median_ms(name, 1):.1f} ms | {target} |")
else:
    print("| benchmark | median | target |")
    print("|---|---|---|")
    for label, name, target in rows:
        print(f"| {label} | {median_ms(name, 0):.1f} ms | {target} |")
PY2
