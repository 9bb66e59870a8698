#!/usr/bin/env bash
# Benchmarks for `mcpctl serve` (issue 12), release build:
#  - a `tools/call` to the fixture's fast tool through `serve --stdio` vs
#    the same call on the supervisor's socket, in the same run (p50);
#  - calls/s with 16 agents over `serve --http`;
#  - the RSS of the `serve` process;
#  - (issue 20) a keep-alive HTTP client, as agents' HTTP libraries are:
#    one session on one connection, calls one after another (p50/p99), and
#    16 such clients at once (calls/s), against `serve --http` and, in the
#    same run, `serve --stdio`, mcp-proxy from npm and from PyPI wrapping
#    the same fixture server, and OLD_BIN's `serve --http` (an older
#    build, with its `mcpctl-serve` beside it) when given.
#
#   bash benches/serve.sh            # prints Markdown tables
#
# mcp-proxy rows appear when MCP_PROXY_NPM / MCP_PROXY_PY name the
# executables; install both into a scratch directory, e.g.
#   npm install --prefix /tmp/peers/npm mcp-proxy
#   python3 -m venv /tmp/peers/venv && /tmp/peers/venv/bin/pip install mcp-proxy
#   MCP_PROXY_NPM=/tmp/peers/npm/node_modules/.bin/mcp-proxy \
#   MCP_PROXY_PY=/tmp/peers/venv/bin/mcp-proxy OLD_BIN=/tmp/old/mcpctl \
#     bash benches/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-release}
flag=--release
[[ "$PROFILE" == release ]] || flag=
cargo build $flag --quiet --bins --example fixture-server --example serve_bench --example keepalive_bench
bin="$PWD/target/$PROFILE/mcpctl"
fixture="$PWD/target/$PROFILE/examples/fixture-server"
work=$(mktemp -d /tmp/msv.XXXX)
export MCPCTL_STATE_DIR="$work/st"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$bin" --file "$work/servers.json" supervisor stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

printf '{"mcpServers": {"fast0": {"command": "%s", "args": []}}}\n' "$fixture" >"$work/servers.json"
"$bin" --file "$work/servers.json" start fast0 >/dev/null
"$bin" --file "$work/servers.json" grant fast0 fast >/dev/null

echo "| benchmark | result | target |"
echo "|---|---|---|"
"$PWD/target/$PROFILE/examples/serve_bench" "$work/servers.json" "$bin"

# --- keep-alive clients (issue 20) ---
keepalive="$PWD/target/$PROFILE/examples/keepalive_bench"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Start "$@" in the background and wait until PORT accepts connections.
listen() {
  local port=$1; shift
  "$@" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listened on $port: $*" >&2
  return 1
}
token=$("$bin" --file "$work/servers.json" serve --print-token)
echo
echo "| keep-alive client, one connection / 16 connections | p50 | p99 | calls/s, 16 clients |"
echo "|---|---|---|---|"
"$keepalive" '`mcpctl serve --stdio` (pipes, for reference)' stdio fast0__fast -- \
  "$bin" --file "$work/servers.json" serve --stdio
if [[ -n "${OLD_BIN:-}" ]]; then
  port=$(free_port)
  listen "$port" "$OLD_BIN" --file "$work/servers.json" serve --http "127.0.0.1:$port"
  "$keepalive" '`mcpctl serve --http`, before (OLD_BIN)' http "http://127.0.0.1:$port/mcp" "$token" fast0__fast
  kill "${pids[-1]}"
fi
port=$(free_port)
listen "$port" "$bin" --file "$work/servers.json" serve --http "127.0.0.1:$port"
"$keepalive" '`mcpctl serve --http`' http "http://127.0.0.1:$port/mcp" "$token" fast0__fast
kill "${pids[-1]}"
npm_proxy=${MCP_PROXY_NPM:-}
if [[ -n "$npm_proxy" && -x "$npm_proxy" ]]; then
  port=$(free_port)
  listen "$port" "$npm_proxy" --host 127.0.0.1 --port "$port" --endpoint /mcp -- "$fixture"
  "$keepalive" 'mcp-proxy (npm) wrapping the fixture' http "http://127.0.0.1:$port/mcp" none fast
  kill "${pids[-1]}"
fi
py_proxy=${MCP_PROXY_PY:-}
if [[ -n "$py_proxy" && -x "$py_proxy" ]]; then
  port=$(free_port)
  listen "$port" "$py_proxy" --host 127.0.0.1 --port "$port" "$fixture"
  "$keepalive" 'mcp-proxy (PyPI) wrapping the fixture' http "http://127.0.0.1:$port/mcp" none fast
  kill "${pids[-1]}"
fi
