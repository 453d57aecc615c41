"""A complete Snowball bot: joins or creates a game and plays random legal actions to the end.

Needs `requests` and `websockets` (both in the project's venv). See docs/api.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import uuid

import requests
import websockets


# Entries of legal_actions that describe a region to pick a point in, not an action to send.
REGION_KEYS = {"center", "bounds", "y_range", "from"}


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


async def play(ws_url: str, token: str, rng: random.Random) -> dict:
    async with websockets.connect(ws_url, additional_headers={"Authorization": f"Token {token}"}) as ws:
        newest = 0
        last_sent = None
        async for text in ws:
            frame = json.loads(text)
            if frame["type"] == "error":
                print("error:", frame["code"], frame["message"])
                if frame["code"] == "too_fast" and last_sent:
                    await asyncio.sleep(0.5)
                    await ws.send(last_sent)  # same action_id: applied at most once
                continue
            if frame["type"] != "view" or frame["version"] < newest:
                continue
            newest = frame["version"]
            if frame["status"] == "finished":
                return frame["outcome"]
            if frame["legal_actions"]:
                concrete = [a for a in frame["legal_actions"] if not REGION_KEYS & a.keys()]
                decisive = [a for a in concrete if a["type"] != "choose"] or concrete
                action = rng.choice(decisive) if decisive else frame["prompt"]["default"]
                last_sent = json.dumps({"type": "action", "action": action,
                                        "action_id": uuid.uuid4().hex, "version": frame["version"]})
                await ws.send(last_sent)
    raise SystemExit("the server closed the connection")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--create", action="store_true", help="create a game and wait for an opponent")
    group.add_argument("--join", type=int, metavar="GAME_ID", help="join this game and start it")
    parser.add_argument("--vs-computer", action="store_true", help="with --create: fill the other seat with a computer player")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    call = http(args.url, args.token)
    if args.create:
        game = call("POST", "/api/games/", {"game_type": "snowball-fight"})
        print(f"created game {game['id']}; invite code {game['invite_code']}")
        if args.vs_computer:
            call("POST", f"/api/games/{game['id']}/bots/")
            call("POST", f"/api/games/{game['id']}/start/")
    else:
        game = call("POST", f"/api/games/{args.join}/join/")
        call("POST", f"/api/games/{args.join}/start/")
    ws_url = args.url.replace("http", "ws", 1) + f"/ws/api/games/{game['id']}/"
    outcome = asyncio.run(play(ws_url, args.token, random.Random(args.seed)))
    print("game over:", outcome["reason"], "scores", outcome["scores"], "winners", outcome["winners"])


if __name__ == "__main__":
    main()
