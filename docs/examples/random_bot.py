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
    most a few more if the server refuses one), until the game is over."""
    async with websockets.connect(ws_url, additional_headers={"Authorization": f"Token {token}"}) as ws:
        newest = 0
        answered = -1
        choices: list[dict] = []
        last_sent = None
        sent_at = 0.0

        async def send(action: dict) -> str:
            nonlocal sent_at
            await asyncio.sleep(max(0.0, sent_at + SECONDS_BETWEEN_FRAMES - time.monotonic()))
            frame = json.dumps({"type": "action", "action": action, "action_id": uuid.uuid4().hex,
                                "version": answered})
            await ws.send(frame)
            sent_at = time.monotonic()
            return frame

        async for text in ws:
            frame = json.loads(text)
            if frame["type"] == "error":
                print("error:", frame["code"], frame["message"])
                if frame["code"] == "too_fast" and last_sent:
                    await asyncio.sleep(1.0)
                    await ws.send(last_sent)  # same action_id: applied at most once
                    sent_at = time.monotonic()
                elif frame["code"] != "stale_version" and choices:
                    last_sent = await send(choices.pop())
                continue
            if frame["type"] != "view" or frame["version"] < newest:
                continue
            newest = frame["version"]
            if frame["status"] == "finished":
                return frame["outcome"]
            if frame["legal_actions"] and frame["prompt"] and newest > answered:
                concrete = [a for a in map(sendable, frame["legal_actions"]) if a is not None]
                # settings (set_...) and surrendering answer no question; a tentative choice settles nothing
                answers = [a for a in concrete if a["type"] != "surrender" and not a["type"].startswith("set_")]
                decisive = [a for a in answers if a["type"] != "choose"] or answers
                choices = [frame["prompt"]["default"]] + rng.sample(decisive, min(len(decisive), RETRIES_PER_VERSION))
                answered = newest
                last_sent = await send(choices.pop())
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
