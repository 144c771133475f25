"""Many clients at once over loopback HTTP: every valid call is answered, none refused.

Bounded work: a fixed number of clients each make a fixed number of calls and
stop. The pool has fewer threads than there are calls in flight, so calls wait
their turn in its queue; what is checked is that each is answered, in full and
to the right client, not how fast (speed goes in the benchmarks).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client
from tests.mcp.http_server import serving

import toolparse as tp
import toolparse.mcp as tmcp
from toolparse.calls import set_max_workers, worker_pool

CLIENTS, CALLS, WORKERS, SECONDS = 20, 5, 4, 0.2


@pytest.fixture
def pool_as_it_was() -> Iterator[None]:
    pool = worker_pool()
    workers, queue = pool.max_workers, pool.max_queue
    yield
    set_max_workers(workers, queue=queue)


class Peak:
    """How many bodies ran at once, at most."""

    def __init__(self) -> None:
        self.now = self.most = 0
        self.lock = threading.Lock()

    def tool(self) -> tp.Function:
        def work(arguments: Any) -> str:
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
            time.sleep(SECONDS)  # a sync body that holds its thread
            with self.lock:
                self.now -= 1
            return f"done {arguments['client']}-{arguments['call']}"

        params = [tp.FunctionParam("client", "integer"), tp.FunctionParam("call", "integer")]
        return tp.Function("work", work, parameters=params, concurrent=True)


@pytest.mark.usefixtures("pool_as_it_was")
def test_clients_beyond_the_pool_wait_their_turn_and_none_is_refused() -> None:
    peak = Peak()
    app = tmcp.asgi_app([peak.tool()], stateless=True, max_workers=WORKERS, timeout=120)
    answers: dict[int, list[tuple[bool, str]]] = {}

    async def one_client(url: str, client_id: int) -> None:
        async with Client(url) as client:
            got = answers.setdefault(client_id, [])
            for call in range(CALLS):
                result = await client.call_tool("work", {"client": client_id, "call": call})
                got.append((result.is_error, result.content[0].text))  # type: ignore[union-attr]

    async def main(url: str) -> None:
        with anyio.fail_after(300):  # a hang fails; this says nothing about speed
            async with anyio.create_task_group() as tg:
                for client_id in range(CLIENTS):
                    tg.start_soon(one_client, url, client_id)

    with serving(app) as url:
        anyio.run(main, url)
    assert sorted(answers) == list(range(CLIENTS))
    for client_id, got in answers.items():
        assert got == [(False, f"done {client_id}-{call}") for call in range(CALLS)]
    assert peak.most == WORKERS  # the bound held, and was used
    assert worker_pool().waiting == 0
