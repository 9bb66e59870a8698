#!/bin/sh
# mcpctl as the client under test of the official MCP conformance suite
# (@modelcontextprotocol/conformance, `conformance client --command`).
# The suite appends the server URL as the last argument and names the
# scenario in MCP_CONFORMANCE_SCENARIO; a scenario that hands the client
# credentials puts them in MCP_CONFORMANCE_CONTEXT (JSON).
#
# What a new user would do, in a private HOME and state directory:
#   mcpctl add --name conf --url URL --auth oauth [client flags]
#   mcpctl login conf          (BROWSER: tests/support/browser.sh)
#   mcpctl call conf TOOL --direct
#
#   MCPCTL_BIN   the binary to drive (default: target/debug/mcpctl)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${MCPCTL_BIN:-$root/target/debug/mcpctl}
[ $# -ge 1 ] || { echo "usage: client.sh URL" >&2; exit 2; }
for url; do :; done
scenario=${MCP_CONFORMANCE_SCENARIO:-}
context=${MCP_CONFORMANCE_CONTEXT:-"{}"}

work=$(mktemp -d "${TMPDIR:-/tmp}/mcpctl-conformance.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" MCPCTL_STATE_DIR="$work/s"
export BROWSER="$root/tests/support/browser.sh"
mkdir -p "$HOME"
defs="$work/servers.json"

field() { # a string field of the context, or nothing
  python3 -c 'import json,sys; v=json.loads(sys.argv[1]).get(sys.argv[2]); print(v if isinstance(v,str) else "")' "$context" "$2"
}
client_id=$(field "$context" client_id)
client_secret=$(field "$context" client_secret)
private_key=$(field "$context" private_key_pem)

mcpctl() { "$bin" --file "$defs" "$@"; }

case "$scenario" in
auth/*)
  set -- add --name conf --url "$url" --auth oauth
  if [ -n "$private_key" ]; then
    export CONF_CLIENT_KEY="$private_key"
    set -- "$@" --grant client-credentials --client-id "$client_id" \
      --token-endpoint-auth private-key-jwt --client-key '${CONF_CLIENT_KEY}'
  elif [ -n "$client_id" ]; then
    export CONF_CLIENT_SECRET="$client_secret"
    case "$scenario" in
    auth/client-credentials-*) set -- "$@" --grant client-credentials ;;
    esac
    set -- "$@" --client-id "$client_id" --client-secret '${CONF_CLIENT_SECRET}'
  else
    # The suite's client ID metadata document URL: used only where the
    # authorization server says it supports such documents.
    set -- "$@" --client-metadata-url https://conformance-test.local/client-metadata.json
  fi
  mcpctl "$@"
  mcpctl login conf --timeout 60
  mcpctl call conf test-tool --direct
  ;;
tools_call)
  mcpctl add --name conf --url "$url"
  mcpctl call conf add_numbers --direct --arg a=5 --arg b=3
  ;;
*)
  mcpctl add --name conf --url "$url"
  mcpctl check conf
  ;;
esac
