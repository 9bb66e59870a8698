#!/usr/bin/env bash
# Benchmarks for `mcpctl serve` (issue 12), release build:
#  - a `tools/call` to the fixture's fast tool through `serve --stdio` vs
#    the same call on the supervisor's socket, in the same run (p50);
#  - calls/s with 16 agents over `serve --http`;
#  - the RSS of the `serve` process.
#
#   bash benches/serve.sh            # prints a Markdown table
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-release}
flag=--release
[[ "$PROFILE" == release ]] || flag=
cargo build $flag --quiet --bins --example fixture-server --example serve_bench
bin="$PWD/target/$PROFILE/mcpctl"
fixture="$PWD/target/$PROFILE/examples/fixture-server"
work=$(mktemp -d /tmp/msv.XXXX)
export MCPCTL_STATE_DIR="$work/st"
cleanup() { "$bin" --file "$work/servers.json" supervisor stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

printf '{"mcpServers": {"fast0": {"command": "%s", "args": []}}}\n' "$fixture" >"$work/servers.json"
"$bin" --file "$work/servers.json" start fast0 >/dev/null
"$bin" --file "$work/servers.json" grant fast0 fast >/dev/null

echo "| benchmark | result | target |"
echo "|---|---|---|"
"$PWD/target/$PROFILE/examples/serve_bench" "$work/servers.json" "$bin"
