"""An agent for `mcpctl serve`'s tests, built on the official MCP Python SDK.

Usage: python serve_client.py PLAN_JSON -- COMMAND [ARG...]

Launches COMMAND (e.g. `mcpctl --file F serve --stdio`) as a stdio MCP
server, or connects to a URL when COMMAND is `http URL [TOKEN]`, then runs
the steps of PLAN_JSON (a list) and prints one JSON object per step on
stdout:

  {"op": "list"}                      -> {"tools": [{"name", "description", "inputSchema"}...]}
  {"op": "call", "name": N, "args": {...}}
                                      -> {"result": {...}} or {"error": {"code", "message"}}
  {"op": "prompts"}                   -> {"prompts": [...]}
  {"op": "get_prompt", "name": N, "args": {...}}
                                      -> {"result": {...}} or {"error": {...}}
  {"op": "resources"}                 -> {"resources": [...]}
  {"op": "templates"}                 -> {"resourceTemplates": [...]}
  {"op": "read", "uri": U}            -> {"result": {...}} or {"error": {...}}
  {"op": "run", "argv": [...]}        -> {"code": EXIT}   (a command, e.g. `mcpctl grant`)
  {"op": "wait_changed", "timeout": S, "what": W}
                                      -> {"changed": true|false}
                                         (a notifications/W/list_changed since the last wait
                                         for W: tools (the default), prompts or resources)
  {"op": "wait_closed", "timeout": S} -> {"closed": true|false}  (the server ended the session)

An agent host that offers elicitation, sampling and roots: a first step
  {"op": "host", "roots": [{"uri", "name"}...], "elicit": {CONTENT}, "sample": TEXT,
   "elicit_delay": S}
makes the session offer them (roots listed as given, every elicitation
accepted with CONTENT after S seconds, every sampling request answered
with TEXT), and
records what the server asks and logs. Then also:
  {"op": "call", ..., "progress": true}
                                      -> as above, plus "progress": [[progress, total, message]...]
  {"op": "set_level", "level": L}     -> {"ok": true}  (logging/setLevel)
  {"op": "events"}                    -> {"events": [{"elicit": MESSAGE} | {"sample": TEXT}
                                                     | {"log": DATA, "level": L} | {"roots": N}]}
                                         (since the last "events")
  {"op": "cancel", "name": N, "args": {...}, "after": S}
                                      -> {"cancelled": true|false}  (the call is abandoned
                                         after S seconds, which sends notifications/cancelled)

Over HTTP only:
  {"op": "swarm", "n": N, "name": TOOL, "args": {...}}
      -> {"ok": K, "errors": [...]}: N more sessions at once, each
         initializing, listing and calling TOOL while all are open.
"""

import contextlib
import json
import os
import subprocess
import sys

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


def emit(obj):
    print(json.dumps(obj), flush=True)


async def call_step(session, step):
    progress = []

    async def on_progress(done, total, message):
        progress.append([done, total, message])

    try:
        result = await session.call_tool(
            step["name"], step.get("args") or {}, progress_callback=on_progress if step.get("progress") else None
        )
        out = {"result": result.model_dump(by_alias=True, exclude_none=True, mode="json")}
    except MCPError as e:
        out = {"error": {"code": e.code, "message": e.message}}
    if step.get("progress"):
        # The SDK runs progress callbacks in tasks of their own, which may
        # not have run yet when the result is returned.
        await anyio.sleep(0.2)
        out["progress"] = progress
    return out


def host_callbacks(host, events):
    """The ClientSession callbacks of an agent host offering elicitation,
    sampling and roots, recording each request (and log message) in events."""
    if host is None:
        return {"logging_callback": None}

    async def elicit(context, params):
        events.append({"elicit": params.message})
        await anyio.sleep(host.get("elicit_delay", 0))
        return types.ElicitResult(action="accept", content=host.get("elicit") or {})

    async def sample(context, params):
        events.append({"sample": params.messages[0].content.text})
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=host.get("sample", "")),
            model="agent-host-model",
            stop_reason="endTurn",
        )

    async def roots(context):
        events.append({"roots": len(host.get("roots") or [])})
        return types.ListRootsResult(roots=[types.Root(**r) for r in host.get("roots") or []])

    async def log(params):
        events.append({"log": params.data, "level": params.level})

    return {
        "elicitation_callback": elicit,
        "sampling_callback": sample,
        "list_roots_callback": roots,
        "logging_callback": log,
    }


async def run_plan(session, plan, state):
    for step in plan:
        op = step["op"]
        if op == "host":
            continue
        if op == "call":
            emit(await call_step(session, step))
        elif op == "set_level":
            await session.set_logging_level(step["level"])
            emit({"ok": True})
        elif op == "events":
            await anyio.sleep(step.get("settle", 0.3))
            emit({"events": list(state["events"])})
            state["events"].clear()
        elif op == "cancel":
            done = False
            with anyio.move_on_after(step["after"]):
                await session.call_tool(step["name"], step.get("args") or {})
                done = True
            emit({"cancelled": not done})
        elif op == "list":
            result = await session.list_tools()
            emit({"tools": [t.model_dump(by_alias=True, exclude_none=True) for t in result.tools]})
        elif op == "prompts":
            result = await session.list_prompts()
            emit({"prompts": [p.model_dump(by_alias=True, exclude_none=True) for p in result.prompts]})
        elif op == "resources":
            result = await session.list_resources()
            emit({"resources": [r.model_dump(by_alias=True, exclude_none=True, mode="json") for r in result.resources]})
        elif op == "templates":
            result = await session.list_resource_templates()
            emit({"resourceTemplates": [r.model_dump(by_alias=True, exclude_none=True, mode="json") for r in result.resource_templates]})
        elif op in ("get_prompt", "read"):
            try:
                if op == "get_prompt":
                    result = await session.get_prompt(step["name"], step.get("args") or {})
                else:
                    result = await session.read_resource(step["uri"])
                emit({"result": result.model_dump(by_alias=True, exclude_none=True, mode="json")})
            except MCPError as e:
                emit({"error": {"code": e.code, "message": e.message}})
        elif op == "run":
            code = subprocess.run(step["argv"], stdout=subprocess.DEVNULL).returncode
            emit({"code": code})
        elif op == "wait_changed":
            what = step.get("what", "tools")
            with anyio.move_on_after(step.get("timeout", 10)):
                await state[what].wait()
            emit({"changed": state[what].is_set()})
            state[what] = anyio.Event()
        elif op == "swarm":
            emit(await swarm(state["connect"], step["n"], step["name"], step.get("args") or {}))
        elif op == "wait_closed":
            closed = False
            with anyio.move_on_after(step.get("timeout", 10)):
                while not closed:
                    try:
                        with anyio.fail_after(2):
                            await session.send_ping()
                        await anyio.sleep(0.2)
                    except Exception:  # noqa: BLE001 - any failure means the session is gone
                        closed = True
            emit({"closed": closed or state["closed"].is_set()})
        else:
            raise SystemExit(f"unknown op {op}")


async def swarm(connect, n, name, args):
    ok = 0
    errors = []
    opened = anyio.Event()
    count = {"open": 0}

    async def agent():
        nonlocal ok
        try:
            async with connect() as session:
                count["open"] += 1
                if count["open"] == n:
                    opened.set()
                with anyio.fail_after(30):
                    await opened.wait()
                tools = await session.list_tools()
                assert any(t.name == name for t in tools.tools), "tool not listed"
                result = await session.call_tool(name, args)
                assert not result.is_error, "isError"
                ok += 1
        except BaseException as e:  # noqa: BLE001 - reported to the test
            errors.append(repr(e))
            opened.set()

    async with anyio.create_task_group() as tg:
        for _ in range(n):
            tg.start_soon(agent)
    return {"ok": ok, "errors": errors[:5]}


async def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    plan = json.loads(argv[0])
    command = argv[sep + 1:]
    state = {what: anyio.Event() for what in ("tools", "prompts", "resources", "closed")}
    state["events"] = []
    host = plan[0] if plan and plan[0].get("op") == "host" else None
    callbacks = host_callbacks(host, state["events"])

    async def on_message(message):
        if isinstance(message, Exception):
            state["closed"].set()
            return
        root = getattr(message, "root", message)
        if isinstance(root, types.ToolListChangedNotification):
            state["tools"].set()
        elif isinstance(root, types.PromptListChangedNotification):
            state["prompts"].set()
        elif isinstance(root, types.ResourceListChangedNotification):
            state["resources"].set()

    if command[0] == "http":
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        headers = {"Authorization": f"Bearer {command[2]}"} if len(command) > 2 else {}

        @contextlib.asynccontextmanager
        async def connect():
            async with create_mcp_http_client(headers=headers) as http:
                async with streamable_http_client(command[1], http_client=http) as streams:
                    async with ClientSession(streams[0], streams[1]) as session:
                        await session.initialize()
                        yield session

        state["connect"] = connect
        async with create_mcp_http_client(headers=headers) as http:
            async with streamable_http_client(command[1], http_client=http) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write, message_handler=on_message, **callbacks) as session:
                    await session.initialize()
                    await run_plan(session, plan, state)
        return

    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    try:
        async with stdio_client(params) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write, message_handler=on_message, **callbacks) as session:
                await session.initialize()
                await run_plan(session, plan, state)
    except Exception as e:  # the server went away while steps remained
        emit({"session_error": repr(e)})


if __name__ == "__main__":
    anyio.run(main)
