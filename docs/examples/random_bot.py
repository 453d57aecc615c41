"""A complete Snowball bot: joins or creates a game and plays random legal actions to the end.

Needs `requests` and `websockets` (both in the project's venv). See docs/api.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import uuid

import requests
import websockets


# Keys that mark an entry of legal_actions as a description (a region to pick a point in, dice
# to choose from), not an action to send.
REGION_KEYS = {"center", "bounds", "y_range", "from", "region", "corners", "per_character"}


def sendable(entry: dict) -> dict | None:
    """An entry of legal_actions as an action to send: a description (of a region to pick a point
    in, or of orders to write) gives its ``example``, which is legal as it stands; a description
    without one gives None; any other entry is an action already."""
    if "example" in entry:
        return entry["example"]
    return None if REGION_KEYS & entry.keys() else entry


def http(base: str, token: str):
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"

    def call(method: str, path: str, body: dict | None = None) -> dict:
        reply = session.request(method, base + path, json=body)
        data = reply.json()
        if reply.status_code >= 400:
            raise SystemExit(f"{method} {path}: {data['error']['code']}: {data['error']['message']}")
        return data

    return call


RETRIES_PER_VERSION = 3
SECONDS_BETWEEN_FRAMES = 0.07
"""Under the server's 20 frames a second (docs/api.md, "Limits")."""


async def play(ws_url: str, token: str, rng: random.Random) -> dict:
    """Answer each new version of the game that asks this seat with one random legal action (at
    most a few more if the server refuses one), one action in flight at a time, until the game
    is over."""
    async with websockets.connect(ws_url, additional_headers={"Authorization": f"Token {token}"}) as ws:
        latest: dict | None = None  # the newest view
        answered = -1  # the version of the view the last decision was made on
        acked = -1  # the version the last ack named: a view older than it predates this seat's own action
        choices: list[dict] = []
        in_flight: dict | None = None  # the action frame sent and not yet answered
        sent_at = 0.0

        async def send(action: dict) -> None:
            nonlocal sent_at, in_flight
            await asyncio.sleep(max(0.0, sent_at + SECONDS_BETWEEN_FRAMES - time.monotonic()))
            in_flight = {"type": "action", "action": action, "action_id": uuid.uuid4().hex, "version": answered}
            await ws.send(json.dumps(in_flight))
            sent_at = time.monotonic()

        async def decide() -> None:
            """Answer the newest view, if it asks this seat something not yet answered."""
            nonlocal answered, choices
            if in_flight or latest is None or latest["version"] <= answered or latest["version"] < acked:
                return
            if not (latest["legal_actions"] and latest["prompt"]):
                return
            concrete = [a for a in map(sendable, latest["legal_actions"]) if a is not None]
            # settings (set_...) and surrendering answer no question; a tentative choice settles nothing
            answers = [a for a in concrete if a["type"] != "surrender" and not a["type"].startswith("set_")]
            decisive = [a for a in answers if a["type"] != "choose"] or answers
            choices = [latest["prompt"]["default"]] + rng.sample(decisive, min(len(decisive), RETRIES_PER_VERSION))
            answered = latest["version"]
            await send(choices.pop())

        async for text in ws:
            frame = json.loads(text)
            mine = in_flight is not None and frame.get("action_id") == in_flight["action_id"]
            if frame["type"] == "ack" and mine:
                in_flight = None
                acked = max(acked, frame["version"])
                await decide()
            elif frame["type"] == "error":
                print("error:", frame["code"], frame["message"])
                if frame["code"] == "too_fast" and in_flight:
                    await asyncio.sleep(1.0)
                    await ws.send(json.dumps(in_flight))  # same action_id: applied at most once
                    sent_at = time.monotonic()
                elif mine:
                    in_flight = None
                    if frame["code"] != "stale_version" and choices:  # a stale one is followed by a fresh view
                        await send(choices.pop())
            elif frame["type"] == "view" and (latest is None or frame["version"] >= latest["version"]):
                latest = frame
                if frame["status"] == "finished":
                    return frame["outcome"]
                await decide()
    raise SystemExit("the server closed the connection")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--create", action="store_true", help="create a game and wait for an opponent")
    group.add_argument("--join", type=int, metavar="GAME_ID", help="join this game and start it")
    parser.add_argument("--game", default="snowball-fight", help="with --create: the game's slug (snowball-fight, "
                        "jingle-bells, snowball-fighting, what-a-snowball)")
    parser.add_argument("--vs-computer", action="store_true", help="with --create: fill the other seat with a computer player")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    call = http(args.url, args.token)
    if args.create:
        game = call("POST", "/api/games/", {"game_type": args.game})
        print(f"created game {game['id']}; invite code {game['invite_code']}")
        if args.vs_computer:
            call("POST", f"/api/games/{game['id']}/bots/")
            call("POST", f"/api/games/{game['id']}/start/")
        else:
            print(f"waiting for an opponent: another bot can join with --join {game['id']}, or a player at "
                  f"{args.url}/games/{game['id']}/ (--vs-computer plays a computer player instead)")
    else:
        game = call("POST", f"/api/games/{args.join}/join/")
        call("POST", f"/api/games/{args.join}/start/")
    ws_url = args.url.replace("http", "ws", 1) + f"/ws/api/games/{game['id']}/"
    outcome = asyncio.run(play(ws_url, args.token, random.Random(args.seed)))
    print("game over:", outcome["reason"], "scores", outcome["scores"], "winners", outcome["winners"])


if __name__ == "__main__":
    main()
