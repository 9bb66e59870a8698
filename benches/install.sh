#!/usr/bin/env bash
# Fresh-clone install time (issue 21, item 5): clone this repository's
# committed HEAD into a scratch directory and time `cargo install --path .`
# there, with a target directory of its own (nothing reused from an earlier
# build; crates already downloaded into ~/.cargo/registry are reused, so the
# figure is compile and link time, not download time).
#
#   bash benches/install.sh                 # the default (release) profile
#   PROFILE=dist bash benches/install.sh    # the small binary (fat LTO)
#   REV=main bash benches/install.sh        # another commit, for a before
#
# Prints one Markdown row. Needs: git, cargo. Nothing is installed on PATH:
# the executables go into the scratch directory, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-release}
REV=${REV:-HEAD}
work=$(mktemp -d /tmp/mcpctl-install.XXXX)
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks . "$work/src"
git -C "$work/src" checkout --quiet "$(git rev-parse "$REV")"
commit=$(git -C "$work/src" rev-parse --short HEAD)

flags=(--locked --offline --path . --root "$work/root")
[[ "$PROFILE" == release ]] || flags+=(--profile "$PROFILE")
start=$(date +%s.%N)
(cd "$work/src" && CARGO_TARGET_DIR="$work/target" cargo install --quiet "${flags[@]}")
end=$(date +%s.%N)

python3 - "$start" "$end" "$commit" "$PROFILE" "$work/root/bin" <<'PY'
import os, sys
start, end, commit, profile, bindir = sys.argv[1:]
secs = float(end) - float(start)
load = os.getloadavg()[0]
sizes = ", ".join(
    f"`{name}` {os.path.getsize(os.path.join(bindir, name)) / 1e6:.1f} MB"
    for name in sorted(os.listdir(bindir))
)
print(f"| `cargo install --path .` ({profile}), {commit} | {int(secs // 60)} min {secs % 60:.0f} s | {sizes} | load {load:.1f} at the end |")
PY
