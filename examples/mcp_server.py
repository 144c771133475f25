"""Tools served over MCP, and an MCP client calling them, offline.

``python examples/mcp_server.py serve`` serves the tools over stdio (what a desktop client
starts: ``{"command": "python", "args": ["examples/mcp_server.py", "serve"]}``). Without
``serve`` it connects the MCP SDK's own client to the server in memory, lists the tools and
calls them, one call with a misspelled argument.

Run it: ``uv run python examples/mcp_server.py``
"""

from __future__ import annotations

import sys

import anyio
from mcp import Client

import toolparse as tp
import toolparse.mcp


@tp.tool
def search_books(query: str, limit: int = 5) -> str:
    """Search the library's catalogue."""
    titles = ["Dune", "Dune Messiah", "Children of Dune"]
    found = [t for t in titles if query.lower() in t.lower()][:limit]
    return ", ".join(found) or "nothing found"


tools = [search_books]


async def client_session() -> list[str]:
    """What an MCP client sees: the tools, a good call and a call toolparse answers."""
    server = toolparse.mcp.make_server(tools, name="library")
    seen = []
    async with Client(server) as client:  # the SDK's in-memory transport
        listed = await client.list_tools()
        seen.append("tools: " + ", ".join(tool.name for tool in listed.tools))
        good = await client.call_tool("search_books", {"query": "dune", "limit": 2})
        seen.append(f"search_books -> {good.content[0].text}")
        wrong = await client.call_tool("search_books", {"querry": "dune"})
        seen.append(f"search_books (is_error={wrong.is_error}) -> {wrong.content[0].text}")
    for line in seen:
        print(line)
    return seen


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        toolparse.mcp.serve(tools, name="library")
    else:
        lines = anyio.run(client_session)
        assert lines[1] == "search_books -> Dune, Dune Messiah"
        assert 'querry (did you mean "query"?)' in lines[2]
