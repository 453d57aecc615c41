"""A computer player that decides from its own view only (it cannot peek).

It values each playable side by a rough guess of what it gains: attacks by
their effect, dodges and Snow Fort by the chance the opponent attacks, upgrades
by the best card on offer times the chance of not being hit. A little
deterministic jitter, seeded from what the bot can see, keeps it from being
entirely predictable without touching the game's own generator.
"""
from __future__ import annotations

import random
from typing import Any

from games.engines.base import Action, View

_ATTACK_VALUE = {
    "snowball": 1.0, "slushball": 1.6, "sneak": 1.8, "iceball": 2.6, "offensive_dodge": 2.0,
    "barrage": 2.3, "throwing_rocks": 1.4, "whitewash": 0.9,
}
_DRAFT_VALUE = {"sneak-dodge": 5, "slushball-dodge": 4, "dodge-upgrade": 3, "sneak-upgrade": 3,
                "slushball-upgrade": 2}


def choose_action(view: View) -> Action:
    """The bot's action for the viewer of ``view``; the viewer must be asked to act."""
    you = view["you"]
    if you is None or not you["asked"]:
        raise ValueError("the bot was asked to act for a seat that is not asked anything")
    if you["prompt"] is not None:
        return _answer(view, you["prompt"])
    if you["lock"] is not None:
        return you["lock"]
    if you.get("deal") is not None:
        return _deal(view)
    if you["draft"] is not None:
        best = max(you["draft"]["options"],
                   key=lambda o: (sum(_DRAFT_VALUE.get(c["kind"], 0) for c in o["cards"]),
                                  [c["id"] for c in o["cards"]]))
        return best["play"]
    if you.get("targets") is not None:
        return _choose_pair(view)
    return _choose_card(view)


def _jitter(view: View) -> random.Random:
    you = view["you"]
    hand = ",".join(c["id"] for c in you["hand"])
    return random.Random(f"bot:{view['turn']}:{you['seat']}:{hand}")


def _opponent(view: View) -> dict[str, Any]:
    me = view["seats"][view["you"]["seat"]]
    if "opponent" in me:
        return view["seats"][me["opponent"]]
    return view["seats"][(view["you"]["seat"] + 1) % view["players"]]


def _attack_chance(view: View, foe: dict[str, Any] | None = None) -> float:
    """How likely the opponent is to attack, judged from what the bot can see."""
    foe = foe or _opponent(view)
    if foe["hand"] is not None:
        attacks = sum(1 for c in foe["hand"] + foe["cache"]
                      if c["top"]["type"] == "attack" or c["bottom"]["type"] == "attack")
        return 0.15 + 0.7 * attacks / max(1, len(foe["hand"]) + len(foe["cache"]))
    return 0.55


def _best_upgrade(view: View, *, abandoned: bool) -> int:
    tops = [p["top"]["points"] for p in view["arsenal"] if p["top"]]
    if abandoned:
        tops += [c["points"] for c in view["abandoned"]]
    return max(tops, default=0)


def _side_value(view: View, card: dict[str, Any], side: str, p_attack: float) -> float:
    ability = card[side]["ability"]
    safe = 1.0 - p_attack
    other = card["bottom" if side == "top" else "top"]["ability"]
    if ability in _ATTACK_VALUE:
        return _ATTACK_VALUE[ability] * (0.75 if ability != "whitewash" else 1.0)
    if ability == "dodge":
        follow = _ATTACK_VALUE.get(other, 0.0) or (0.8 * _best_upgrade(view, abandoned=False)
                                                  if other == "upgrade" else 0.5)
        return p_attack * (1.0 + follow)
    if ability == "upgrade":
        return safe * _best_upgrade(view, abandoned=False)
    if ability in ("ultra_upgrade", "refined_upgrade"):
        return safe * (_best_upgrade(view, abandoned=ability == "ultra_upgrade") + 0.3)
    if ability == "upgrade_dodge":
        return p_attack * 1.2 + safe * _best_upgrade(view, abandoned=False)
    if ability == "restock":
        return safe * 0.6
    if ability in ("snow_fort", "dud", "backfire"):
        return p_attack * 2.4
    if ability == "snatch_and_run":
        gain = max((c["points"] for c in view["abandoned"]), default=0) - 1
        return p_attack * 1.0 + max(0, gain)
    if ability == "weapons_cache":
        return safe * 1.0
    if ability == "raid":
        return safe * max([c["points"] for c in view["abandoned"]] + [1.5])
    return 0.0


def _choose_card(view: View) -> Action:
    p_attack = _attack_chance(view)
    rng = _jitter(view)
    scored = []
    for item in view["you"]["playable"]:
        for side in ("top", "bottom"):
            value = _side_value(view, item["card"], side, p_attack) + rng.uniform(0, 0.4)
            scored.append((value, item["card"]["id"], side, item[side]["play"]))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return scored[0][3]


def _choose_pair(view: View) -> Action:
    """3+ players: the best two cards, one to each neighbour, each on its better side."""
    you = view["you"]
    rng = _jitter(view)
    best: dict[tuple[str, str], tuple[float, str]] = {}
    for where, target in you["targets"].items():
        p_attack = _attack_chance(view, view["seats"][target])
        for item in you["playable"]:
            card = item["card"]
            sides = [(_side_value(view, card, side, p_attack) + rng.uniform(0, 0.4), side)
                     for side in ("top", "bottom")]
            best[card["id"], where] = max(sides)
    ids = [item["card"]["id"] for item in you["playable"]]
    pairs = sorted(((best[a, "left"][0] + best[b, "right"][0], a, b) for a in ids for b in ids if a != b),
                   key=lambda p: (-p[0], p[1], p[2]))
    _, left, right = pairs[0]
    return {"type": "play", "left": {"card": left, "side": best[left, "left"][1]},
            "right": {"card": right, "side": best[right, "right"][1]}}


def _deal(view: View) -> Action:
    """Team leader: the most useful cards to the team-mates, the two least useful to the discard."""
    deal = view["you"]["deal"]

    def worth(card: dict[str, Any]) -> tuple[float, str]:
        return max(_side_value(view, card, side, 0.5) for side in ("top", "bottom")), card["id"]

    ranked = sorted(deal["cards"], key=worth, reverse=True)
    return {"type": "deal", "give": {str(seat): card["id"] for seat, card in zip(deal["to"], ranked)}}


def _current_foe(view: View) -> int:
    """The seat the bot battles in the battle being resolved."""
    me = view["you"]["seat"]
    reveal = view["last_reveal"]
    for battle in reveal.get("battles", ()):
        if battle["current"]:
            a, b = battle["seats"]
            return b if me == a else a
    return (me + 1) % view["players"]


def _answer(view: View, prompt: dict[str, Any]) -> Action:
    options = prompt["options"]
    what = prompt["what"]
    if what == "second_card":
        reveal = view["last_reveal"]
        foe = _current_foe(view)
        if "battles" in reveal:
            battle = next(b for b in reveal["battles"] if b["current"])
            foe_plays = battle["plays"][battle["seats"].index(foe)]
        else:
            foe_plays = reveal["plays"][foe]
        foe_attacks = any(p["type"] == "attack" and not p["cancelled"] for p in foe_plays)
        p_attack = 1.0 if foe_attacks else 0.0
        best = max(options, key=lambda o: (
            _side_value(view, o["card"], o["action"]["side"], p_attack) if o["card"] else 0.3,
            o["label"]))
        return best["action"]
    if what == "abandon":
        return min(options, key=lambda o: (o["card"]["points"], o["label"]))["action"]
    if what == "exchange":
        def gain(o: dict[str, Any]) -> tuple[int, str]:
            a = o["action"]
            points = {c["id"]: c["points"] for c in view["abandoned"]}
            me = view["seats"][view["you"]["seat"]]
            pile = view["teams"][me["team"]]["discard"] if view.get("teams") else me["discard"]
            mine = {c.get("id"): c.get("points", 0) for c in pile}
            return points.get(a["take"], 0) - mine.get(a["give"], 0), o["label"]
        return max(options, key=gain)["action"]
    with_card = [o for o in options if o["card"]]
    if not with_card:  # an optional Restock after a Dodge with nothing else to shuffle back
        return next(o for o in options if o["action"]["type"] != "pass")["action"]
    return max(with_card, key=lambda o: (o["card"]["points"], o["label"]))["action"]
