#!/usr/bin/env bash
# Benchmarks `mcpctl search` as a whole process against the loopback
# registry (never the public one):
#   1. warm cache: median of `search io.github --all` served from the cache
#      (target: under 15 ms); the registry is stopped first, so a run that
#      missed the cache would fail instead of being timed;
#   2. paging: a 3-page search vs a 1-page search, both fetched (--refresh)
#      from the loopback registry (target: under 3x).
# Needs hyperfine (apt-get install hyperfine). Usage: benches/search.sh [--debug]
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
[[ "${1:-}" == "--debug" ]] && profile=debug
flag=(); [[ $profile == release ]] && flag=(--release)
cargo build -q "${flag[@]}" --bin mcpctl --example loopback_registry
bin="target/$profile/mcpctl"

work=$(mktemp -d)
fifo="$work/url"
mkfifo "$fifo"
"target/$profile/examples/loopback_registry" >"$fifo" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
read -r url <"$fifo"

export MCPCTL_REGISTRY_URL="$url" MCPCTL_CACHE_DIR="$work/cache" MCPCTL_FILE="$work/servers.json"

hyperfine -N --warmup 3 --runs 30 --export-json "$work/paging.json" \
  "$bin search acme --refresh" \
  "$bin search io.github --all --refresh"

# Warm the cache (its chatter on stderr is shown only if it fails).
"$bin" search io.github --all >/dev/null 2>"$work/warm.txt" || { cat "$work/warm.txt" >&2; exit 1; }
# Stop the registry: from here on only the cache can answer, and hyperfine
# aborts on the first run that fails to reach it.
kill "$server"
wait "$server" 2>/dev/null || true
if ! "$bin" search io.github --all >/dev/null 2>"$work/miss.txt"; then
  echo "benches/search.sh: the warm search was not served from the cache:" >&2
  cat "$work/miss.txt" >&2
  exit 1
fi
hyperfine -N --warmup 5 --runs 50 --export-json "$work/warm.json" \
  "$bin search io.github --all"

python3 - "$work/warm.json" "$work/paging.json" <<'PY'
import json, sys
warm = json.load(open(sys.argv[1]))["results"][0]["median"] * 1000
one, three = (r["median"] for r in json.load(open(sys.argv[2]))["results"])
print(f"warm-cache search median: {warm:.1f} ms (target < 15 ms): {'ok' if warm < 15 else 'SLOW'}")
print(f"3 pages / 1 page: {three/one:.2f}x (target < 3x): {'ok' if three/one < 3 else 'SLOW'}")
PY
