#!/usr/bin/env bash
# Benchmarks for clients' own files (issue 9): `list` of 1,000 servers in a
# VS Code `.vscode/mcp.json` (comments, `inputs`, `${input:…}`) and in a
# Codex `config.toml` (`[mcp_servers.NAME]` tables), beside the plain
# `mcpServers` file, so detecting the shape shows as a difference.
# Whole-process timings with hyperfine, release build.
#
#   bash benches/client_files.sh           # prints a Markdown table
#
# Needs: hyperfine (apt-get install hyperfine), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/mcpctl"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.vscode" "$work/.codex"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def entry(i, typed):
    if i % 2:
        e = {"command": "sh", "args": ["-c", f"exec cat # {i}"], "env": {"TOKEN": "${input:token}"}}
        if typed:
            e = {"type": "stdio", **e}
        return e
    return {"type": "http", "url": f"https://127.0.0.1:{8000 + i}/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}
names = [f"srv-{i:04}" for i in range(1000)]
json.dump({"mcpServers": {n: entry(i, False) for i, n in enumerate(names)}},
          open(f"{work}/servers.json", "w"), indent=2)
body = json.dumps({n: entry(i, True) for i, n in enumerate(names)}, indent=2)
with open(f"{work}/.vscode/mcp.json", "w") as f:
    f.write('{\n  // VS Code workspace servers\n  "inputs": [{"type": "promptString", "id": "token", '
            '"description": "Token", "password": true}],\n  "servers": ' + body.replace("\n", "\n  ") + "\n}\n")
with open(f"{work}/.codex/config.toml", "w") as f:
    f.write('# Codex settings\nmodel = "gpt-5-codex"\n')
    for i, n in enumerate(names):
        if i % 2:
            f.write(f'\n[mcp_servers.{n}]\ncommand = "sh"\nargs = ["-c", "exec cat # {i}"]\n'
                    'env = { "TOKEN" = "${TOKEN}" }\n')
        else:
            f.write(f'\n[mcp_servers.{n}]\nurl = "https://127.0.0.1:{8000 + i}/mcp"\n'
                    'bearer_token_env_var = "TOKEN"\n')
PY

for kind in servers.json .vscode/mcp.json .codex/config.toml; do
  test "$("$bin" --file "$work/$kind" list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["servers"]))')" = 1000
done
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/mcp.json" \
  "$bin --file $work/servers.json list" >/dev/null
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/vscode.json" \
  "$bin --file $work/.vscode/mcp.json list" >/dev/null
hyperfine -N --style none --warmup 5 --runs 50 --export-json "$work/codex.json" \
  "$bin --file $work/.codex/config.toml list" >/dev/null

python3 - "$work" <<'PY'
import json, sys, statistics
work = sys.argv[1]
def median_ms(name):
    runs = json.load(open(f"{work}/{name}.json"))["results"][0]["times"]
    return statistics.median(runs) * 1000
print("| benchmark | median | target |")
print("|---|---|---|")
print(f"| `mcpctl list`, 1,000 servers, `mcpServers` JSON | {median_ms('mcp'):.1f} ms | < 10 ms |")
print(f"| `mcpctl list`, 1,000 servers, VS Code `.vscode/mcp.json` | {median_ms('vscode'):.1f} ms | < 10 ms |")
print(f"| `mcpctl list`, 1,000 servers, Codex `config.toml` | {median_ms('codex'):.1f} ms | < 10 ms |")
PY
