#!/usr/bin/env python3
"""A bare MCP client in stdlib Python: the baseline of benches/catalog.sh.

Spawns a stdio server (argv), sends initialize and notifications/initialized,
reads every tools/list page (parsing each reply with json.loads), then ends
the server with SIGTERM and waits for it. Prints the tool count. Nothing
else: no resources, prompts, lints or output formatting.
"""
import json
import signal
import subprocess
import sys


def main():
    proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    next_id = 0

    def request(method, params):
        nonlocal next_id
        next_id += 1
        msg = {"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"server closed stdout during {method}")
            reply = json.loads(line)
            if reply.get("id") == next_id:
                if "error" in reply:
                    sys.exit(f"{method}: {reply['error']}")
                return reply["result"]

    request("initialize", {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bare-python", "version": "0"},
    })
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.flush()
    tools, cursor = [], None
    while True:
        page = request("tools/list", {"cursor": cursor} if cursor else {})
        tools.extend(page.get("tools", []))
        cursor = page.get("nextCursor")
        if not cursor:
            break
    proc.send_signal(signal.SIGTERM)
    proc.wait()
    print(len(tools))


if __name__ == "__main__":
    main()
