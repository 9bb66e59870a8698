"""A stdio MCP server built with the official Python SDK (mcp==2.3.0) whose
tools talk back in the 2026-07-28 way: `input_required` results with a
request state that must come back verbatim, progress notifications, and a
slow tool that records its cancellation.

Usage: python mrtr_server.py RECORD_FILE

mcpctl's tests run it with the interpreter in MCPCTL_TEST_PYTHON (the venv
tests/run.sh installs the SDK into). Every retry round appends
`round TOOL STATE` to RECORD_FILE, and a cancelled `slow` appends
`cancelled slow`.
"""

import sys

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitRequestURLParams, InputRequiredResult

RECORD = sys.argv[1] if len(sys.argv) > 1 else "/dev/null"

server = MCPServer("mcpctl-python-peer")


def record(line: str) -> None:
    with open(RECORD, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def form(message: str, properties: dict, required: list) -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(
            message=message,
            requested_schema={"type": "object", "properties": properties, "required": required},
        )
    )


def answer(ctx: Context, key: str) -> dict | None:
    responses = ctx.input_responses or {}
    value = responses.get(key)
    if value is None:
        return None
    return value if isinstance(value, dict) else value.model_dump(by_alias=True, exclude_none=True)


@server.tool()
async def ask(ctx: Context) -> str | InputRequiredResult:
    """Ask for a name and a colour, in one input_required round."""
    if ctx.request_state is not None:
        record(f"round ask {ctx.request_state}")
    got = answer(ctx, "who")
    if got is None or ctx.request_state != "py-asked":
        return InputRequiredResult(
            input_requests={
                "who": form(
                    "Who is deploying?",
                    {
                        "name": {"type": "string", "default": "Grace"},
                        "color": {"type": "string", "enum": ["red", "green", "blue"], "default": "blue"},
                    },
                    ["name", "color"],
                )
            },
            request_state="py-asked",
        )
    if got.get("action") != "accept":
        raise ValueError(f"the user chose {got.get('action')}; nothing was deployed")
    content = got.get("content") or {}
    return f"python: {content.get('name')} likes {content.get('color')}"


@server.tool()
async def rounds(ctx: Context) -> str | InputRequiredResult:
    """Ask two questions in two rounds; the state carries the first answer."""
    state = ctx.request_state
    if state is not None:
        record(f"round rounds {state}")
    if state is None:
        return InputRequiredResult(
            input_requests={"a": form("First?", {"a": {"type": "string"}}, ["a"])},
            request_state="py-1",
        )
    if state == "py-1":
        a = (answer(ctx, "a") or {}).get("content", {}).get("a", "")
        return InputRequiredResult(
            input_requests={"b": form("Second?", {"b": {"type": "string"}}, ["b"])},
            request_state=f"py-2:{a}",
        )
    if state.startswith("py-2:"):
        b = (answer(ctx, "b") or {}).get("content", {}).get("b", "")
        return f"python: a={state[5:]} b={b}"
    raise ValueError(f"unexpected request state {state!r}")


@server.tool()
async def ask_url(ctx: Context) -> str | InputRequiredResult:
    """Ask the user to visit a URL."""
    got = answer(ctx, "visit")
    if got is None:
        return InputRequiredResult(
            input_requests={
                "visit": ElicitRequest(
                    params=ElicitRequestURLParams(
                        message="Approve in the browser",
                        url="https://example.com/py-approve",
                        elicitation_id="py-approve",
                    )
                )
            },
            request_state="py-url",
        )
    return f"python: url {got.get('action')}"


@server.tool()
async def progress(ctx: Context) -> str:
    """Report progress three times."""
    for i in range(1, 4):
        await ctx.report_progress(i, 3, f"py step {i}")
        await anyio.sleep(0.05)
    return "python: done after 3 steps"


@server.tool()
async def slow(ctx: Context) -> str:
    """Sleep 30 s unless cancelled."""
    try:
        await anyio.sleep(30)
    except anyio.get_cancelled_exc_class():
        record("cancelled slow")
        raise
    return "python: slept"


if __name__ == "__main__":
    server.run("stdio")
