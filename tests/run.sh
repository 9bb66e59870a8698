#!/usr/bin/env bash
# The test command (README, "Run the tests"): install the real third-party MCP
# servers the suite runs against, pinned, then run every test. Safe to rerun.
#
#   bash tests/run.sh            # extra arguments go to `cargo test`
set -euo pipefail
cd "$(dirname "$0")/.."

EVERYTHING_VERSION=2026.8.31
TIME_VERSION=2026.10.19
UV_VERSION=0.13.9

# server-everything from npm (stdio, streamableHttp and sse modes).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "tests/run.sh: Node.js and npm are required (apt-get install nodejs npm)" >&2
  exit 1
fi
installed=$(npm ls -g --depth=0 "@modelcontextprotocol/server-everything" 2>/dev/null | grep -o "server-everything@[0-9.]*" || true)
if [[ "$installed" != "server-everything@$EVERYTHING_VERSION" ]]; then
  npm install -g --no-fund --no-audit "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION"
fi

# uv (for uvx) from PyPI, then mcp-server-time through uvx into uv's cache.
if ! command -v uvx >/dev/null || [[ "$(uv --version 2>/dev/null)" != "uv $UV_VERSION"* ]]; then
  python3 -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
  if command -v pyenv >/dev/null; then pyenv rehash; fi
  hash -r
fi
# uv ships its own CA bundle; trust the system's too (TLS-inspecting proxies).
export UV_SYSTEM_CERTS=1
uvx "mcp-server-time==$TIME_VERSION" --help >/dev/null

# `script` (util-linux) gives the prompt tests a real pseudo-terminal.
if ! command -v script >/dev/null; then
  apt-get install -y -qq bsdutils >/dev/null
fi

# Never in update mode: generated_files would rewrite instead of compare.
unset MCPCTL_UPDATE_GENERATED
cargo test --locked "$@"
