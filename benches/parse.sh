#!/usr/bin/env bash
# Reading large definition files (issue 8, item 10): a 5 MB single-line JSON
# file, the same with a comment in front (the JSONC path), the same text as
# YAML (flow style) and a 4.6 MB block-style YAML file; 32,000 servers each.
# Whole-process `mcpctl show` of the last server (it parses and loads the
# whole file; printing one entry keeps output out of the figure), median of
# 7 runs after one warm-up. Release build.
#
#   bash benches/parse.sh [OLD_BINARY]   # prints a Markdown table
#
# With OLD_BINARY, both binaries are measured in the same run, alternately,
# and the table gives the ratio old / new. NEW=path measures that binary
# instead of building target/release/mcpctl. Needs: python3.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${NEW:-}" ]; then
  cargo build --release --quiet
fi
new="${NEW:-$PWD/target/release/mcpctl}"
old="${1:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$new" "$old" <<'PY'
import json, os, statistics, subprocess, sys, time

work, new, old = sys.argv[1], sys.argv[2], sys.argv[3]
n = 32000
servers = {
    f"s{i}": {"command": "npx", "args": ["-y", f"pkg-{i}@1.0.0", "--flag", "x" * 40], "env": {"K": "v" * 20}}
    for i in range(n)
}
line = json.dumps({"mcpServers": servers}, separators=(",", ":"))
files = {
    "single-line JSON": ("big.json", line),
    "single-line JSONC (comment first)": ("big-c.json", "/* c */" + line),
    "single-line YAML (flow)": ("big-flow.yaml", line + "\n"),
    "block YAML": (
        "big.yaml",
        "mcpServers:\n"
        + "".join(
            f"  s{i}:\n    command: npx\n    args: [-y, pkg-{i}@1.0.0, --flag, {'x' * 40}]\n    env: {{K: {'v' * 20}}}\n"
            for i in range(n)
        ),
    ),
}
env = dict(os.environ, MCPCTL_STATE_DIR=os.path.join(work, "state"))
env.pop("MCPCTL_FILE", None)


def once(binary, path):
    start = time.perf_counter()
    subprocess.run(
        [binary, "--file", path, "show", f"s{n - 1}"],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


binaries = [("new", new)] + ([("old", old)] if old else [])
rows = []
for label, (name, text) in files.items():
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(text)
    times = {b: [] for b, _ in binaries}
    for b, binary in binaries:
        once(binary, path)
    for _ in range(7):
        for b, binary in binaries:
            times[b].append(once(binary, path))
    med = {b: statistics.median(t) for b, t in times.items()}
    rows.append((label, len(text) / 1e6, med))

if old:
    print("| file (32,000 servers) | size | before | after | before / after |")
    print("|---|---|---|---|---|")
    for label, mb, med in rows:
        print(f"| {label} | {mb:.1f} MB | {med['old']:.3f} s | {med['new']:.3f} s | **{med['old'] / med['new']:.1f}×** |")
else:
    print("| file (32,000 servers) | size | median |")
    print("|---|---|---|")
    for label, mb, med in rows:
        print(f"| {label} | {mb:.1f} MB | {med['new']:.3f} s |")
PY
