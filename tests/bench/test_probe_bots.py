"""The probes' bots play as docs/api.md tells a client to: act on the newest view they hold."""
import asyncio
import json
import random
import threading

from bench.probes import clients


class FakeSocket:
    """A JSON socket whose frames the test hands over one by one."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.sent: list[dict] = []

    async def recv(self) -> str:
        return await self.incoming.get()

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def view(version: int, *, asked: bool = True) -> dict:
    return {"type": "view", "version": version, "status": "active",
            "legal_actions": [{"type": "pass"}] if asked else []}


def test_a_view_that_overtakes_the_answer_to_an_http_action_is_acted_on(monkeypatch):
    """The socket brings version 2 (which asks this seat again) before the HTTP answer that
    acknowledges version 2: once the answer is in, the bot acts on version 2."""
    calls: list[dict] = []
    view_2_delivered = threading.Event()

    def api_call(base_url, path, token, body=None, timeout=30.0):
        calls.append(body)
        if len(calls) == 1:
            assert view_2_delivered.wait(10)
            reply_view = {k: v for k, v in view(2).items() if k != "type"}
            return {"ack": {"version": 2, "duplicate": False}, "view": reply_view}
        return {"ack": {"version": 3, "duplicate": False}, "view": None}

    monkeypatch.setattr(clients, "api_call", api_call)

    async def play() -> list[dict]:
        ws = FakeSocket()
        bot = clients.BotPlayer(ws_url="ws://unused", game_id=1, token="t", slot=0, stats=clients.BotStats(),
                                rng=random.Random(1), think=(0, 0), silence_refresh=1000,
                                http_url="http://unused", http_moves=1.0)
        session = asyncio.create_task(bot._session(ws))
        await ws.incoming.put(json.dumps(view(1)))
        while not calls:
            await asyncio.sleep(0.01)
        await ws.incoming.put(json.dumps(view(2)))
        while ws.incoming.qsize():
            await asyncio.sleep(0.01)
        view_2_delivered.set()
        try:
            await asyncio.wait_for(_until(lambda: len(calls) >= 2), 10)
        finally:
            bot.stopping = True
            session.cancel()
        return calls

    sent = asyncio.run(play())
    assert [body["version"] for body in sent] == [1, 2]


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)
