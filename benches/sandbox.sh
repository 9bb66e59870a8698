#!/usr/bin/env bash
# The sandbox's cost (issue 22, item 5), recorded in BENCHMARKS.md
# ("Sandbox"): `mcpctl check NAME` of one server, unconfined (no `sandbox`
# field) against `"sandbox": "none"`, `"network"`, and Anthropic's
# sandbox-runtime (`srt`) wrapping the same server command, in one run:
#  (a) the native fixture server (examples/fixture-server): the start cost,
#      in ms (budget: `none` adds at most 5 ms);
#  (b) server-everything run by node (budget: `none` at most 1.10x).
# Each case runs its variants in interleaved rounds (benches/sandbox_rounds.py)
# and compares each with the unconfined one round by round.
#
# Needs: python3, node, server-everything (bash tests/run.sh --peers-only
# installs it in .peers). For the srt rows: srt (npm i
# @anthropic-ai/sandbox-runtime; SRT=PATH if it is not on PATH), bubblewrap,
# socat and ripgrep (apt-get install bubblewrap socat ripgrep); without
# them the srt rows are left out, with a note.
#
#   bash benches/sandbox.sh                 # release build, both cases
#   LAUNCH=npx bash benches/sandbox.sh      # (b) through npx -y (needs npx
#                                           # to work under `none`)
#   PROFILE=debug ROUNDS=5 EV_ROUNDS=3 bash benches/sandbox.sh   # a quick look
#   MCPCTL=... FIXTURE=... bash benches/sandbox.sh   # given binaries, no build
#   KEEP=1 bash benches/sandbox.sh          # keep servers.json and srt's settings
#                                           # (HOME=WORK/home MCPCTL_STATE_DIR=WORK/state)
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE=${PROFILE:-release}
ROUNDS=${ROUNDS:-30}
EV_ROUNDS=${EV_ROUNDS:-15}
LAUNCH=${LAUNCH:-node}
EVERYTHING_VERSION=2026.8.31
PACKAGES=${PACKAGES:-$PWD/.peers/npm/node_modules}
EVERYTHING_JS=$PACKAGES/@modelcontextprotocol/server-everything/dist/index.js

BUILT="$PROFILE build"
if [ -z "${MCPCTL:-}" ]; then
  if [ "$PROFILE" = release ]; then
    cargo build --release --quiet --bin mcpctl --example fixture-server
  else
    cargo build --quiet --bin mcpctl --example fixture-server
  fi
  MCPCTL=$PWD/target/$PROFILE/mcpctl
  FIXTURE=$PWD/target/$PROFILE/examples/fixture-server
fi
: "${FIXTURE:?give FIXTURE with MCPCTL}"
MCPCTL=$(realpath "$MCPCTL") FIXTURE=$(realpath "$FIXTURE")
[ "$MCPCTL" = "$PWD/target/$PROFILE/mcpctl" ] || BUILT="given binary"
[ "$LAUNCH" = npx ] || [ -f "$EVERYTHING_JS" ] || {
  echo "server-everything is not in $PACKAGES (bash tests/run.sh --peers-only installs it)" >&2
  exit 1
}

SRT=${SRT:-$(command -v srt || true)}
SRT_NOTE=""
for need in bwrap socat rg; do
  command -v "$need" >/dev/null || SRT_NOTE="srt rows left out: $need is not installed"
done
[ -n "$SRT" ] && [ -x "$SRT" ] || SRT_NOTE="srt rows left out: srt is not installed (SRT=PATH)"

WORK=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
  echo "KEEP: the definitions and srt settings stay in $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK/home" "$WORK/srt-tmp"
export HOME=$WORK/home MCPCTL_STATE_DIR=$WORK/state
REAL_HOME=$(getent passwd "$(id -u)" | cut -d: -f6)

echo "# benches/sandbox.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
  "kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "mcpctl: $("$MCPCTL" --version) ($BUILT, $(git rev-parse --short HEAD 2>/dev/null || echo '?'))," \
  "node $(node --version)${SRT_NOTE:+; $SRT_NOTE}"
[ -n "$SRT_NOTE" ] || echo "srt: $("$SRT" --version) ($SRT), bubblewrap $(bwrap --version | cut -d' ' -f2)"
echo

# Writes srt's settings (the nearest to `none` and to `network`), the
# definitions file and one case file for each of (a) and (b).
python3 - "$WORK" "$REAL_HOME" "$MCPCTL" "$FIXTURE" "$LAUNCH" "$PACKAGES" \
  "$EVERYTHING_VERSION" "$SRT" "$SRT_NOTE" "$ROUNDS" "$EV_ROUNDS" <<'PY'
import json, os, sys
work, real_home, mcpctl, fixture, launch, packages, version, srt, srt_note, rounds, ev_rounds = sys.argv[1:]
defs = f"{work}/servers.json"
# `none` in srt's terms: reads allowed by default, so deny the homes, mcpctl's
# state and the definitions file, and allow back what the server runs from
# (as `none` grants the launcher's directory); writes only a private
# directory; no domain allowed. srt has no "any host" setting (`*` is
# refused): its `network` lists the registry, reached through its proxy.
files = {
    "denyRead": [real_home, f"{work}/home", f"{work}/state", defs],
    "allowRead": [os.path.dirname(fixture), packages],
    "allowWrite": [f"{work}/srt-tmp"] + ([f"{work}/home/.npm"] if launch == "npx" else []),
    "denyWrite": [],
}
for name, domains in [("none", []), ("network", ["registry.npmjs.org"])]:
    settings = {"network": {"allowedDomains": domains, "deniedDomains": []}, "filesystem": files}
    json.dump(settings, open(f"{work}/srt-{name}.json", "w"), indent=2)

if launch == "npx":
    everything = ["npx", "-y", f"@modelcontextprotocol/server-everything@{version}", "stdio"]
    ev_none, ev_network = "none", "network"
    none_label, network_label = '`"none"`', '`"network"`'
else:
    everything = ["node", f"{packages}/@modelcontextprotocol/server-everything/dist/index.js", "stdio"]
    # `none` does not open a script named by node's arguments (issue 22,
    # item 3 is another change's): the same rules plus the package tree.
    ev_none = {"read": [packages]}
    ev_network = {"read": [packages], "network": {"outbound": {"insecure_allow_all": True}}}
    none_label = '`"none"` + `read` of the packages'
    network_label = '`"network"` + `read` of the packages'
servers, cases = {}, []
for key, command, none, network, n in [
    ("fx", [fixture], "none", "network", rounds),
    ("ev", everything, ev_none, ev_network, ev_rounds),
]:
    servers[f"{key}-off"] = {"command": command[0], "args": command[1:]}
    servers[f"{key}-none"] = {"command": command[0], "args": command[1:], "sandbox": none}
    servers[f"{key}-network"] = {"command": command[0], "args": command[1:], "sandbox": network}
    variants = [("unconfined (no field)", "off"),
                (none_label if key == "ev" else '`"none"`', "none"),
                (network_label if key == "ev" else '`"network"`', "network")]
    if not srt_note:
        for kind in ["none", "network"]:
            srt_args = ["-s", f"{work}/srt-{kind}.json", "--"] + command
            servers[f"{key}-srt-{kind}"] = {"command": srt, "args": srt_args}
            variants.append((f"srt ({kind} settings)", f"srt-{kind}"))
    cases.append({
        "title": ("(a) `mcpctl check` of the native fixture server" if key == "fx" else
                  f"(b) `mcpctl check` of server-everything through {launch}"),
        "budget": ('`"none"` adds at most 5 ms' if key == "fx" else '`"none"` at most 1.10×'),
        "rounds": int(n),
        "variants": [{"label": label, "argv": [mcpctl, "--file", defs, "check", f"{key}-{suffix}"]}
                     for label, suffix in variants],
    })
json.dump({"mcpServers": servers}, open(defs, "w"), indent=2)
for key, case in zip(["a", "b"], cases):
    json.dump(case, open(f"{work}/case-{key}.json", "w"))
PY

cd "$WORK"
python3 "$OLDPWD/benches/sandbox_rounds.py" "$WORK/case-a.json"
python3 "$OLDPWD/benches/sandbox_rounds.py" "$WORK/case-b.json"
