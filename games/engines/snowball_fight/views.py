"""What one viewer may see of a game: ``view(state, seat)``; seat None is a spectator.

Hidden from a viewer: other seats' hands (unless Whitewash shows them) and sealed
choices, the face-down cards in other seats' discard piles, every draw pile's
order and contents (counts only, the owner included), the Arsenal cards below
the face-up ones, and the generator's seed and counter.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from games.engines.base import State, View
from games.engines.snowball_fight import asking
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E
from games.engines.snowball_fight.cards import card_dict, side_of
from games.engines.snowball_fight import table as T

HIDDEN_CARD = {"hidden": True, "face_down": True}
_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def view(state: State, seat: int | None) -> View:
    """The JSON-safe picture of the game for ``seat`` (None: a spectator)."""
    n = state["players"]
    viewer = seat if isinstance(seat, int) and 0 <= seat < n else None
    if "mode" in state:
        return table_view(state, viewer)
    public = _public_parts(state)
    return {
        "game": E.SLUG,
        "phase": state["phase"],
        "step": state["step"],
        "turn": state["turn"],
        "final_round": state["final_round"],
        "players": n,
        "viewer": viewer,
        "options": public["options"],
        "waiting_for": public["waiting_for"],
        "seats": [public["seats"][x] if _sees_as_everyone(state, x, viewer) else _seat_view(state, x, viewer)
                  for x in range(n)],
        "arsenal": public["arsenal"],
        "abandoned": public["abandoned"],
        "draft": public["draft"],
        "last_reveal": public["last_reveal"],
        "you": _you(state, viewer) if viewer is not None else None,
        "outcome": public["outcome"],
    }


def _sees_as_everyone(state: State, x: int, viewer: int | None) -> bool:
    """Whether ``viewer`` sees seat ``x`` as a spectator does: not its own, its hand not shown to it."""
    return viewer is None or (viewer != x and viewer not in state["shown"][x])


_PUBLIC_PARTS: OrderedDict[int, tuple[State, dict[str, Any]]] = OrderedDict()  # id(state) -> (state, its parts)
_PUBLIC_PARTS_AT_MOST = 256
_PUBLIC_PARTS_LOCK = threading.Lock()


def _public_parts(state: State) -> dict[str, Any]:
    """What every viewer of a two-player ``state`` sees alike (each seat as a spectator sees it),
    worked out for its first viewer and shared by the next ones (a version's player, opponent
    and spectators ask for it one after another). States are never changed once made, and
    the state is held with its parts, so its ``id`` names no other state meanwhile. Shared
    by every view that shows them: never mutate them."""
    entry = _PUBLIC_PARTS.get(id(state))
    if entry is not None and entry[0] is state:
        return entry[1]
    battle = state["battle"]
    parts = {
        "options": {"draft": state["options"]["draft"], "alternates": list(state["options"]["alternates"])},
        "waiting_for": E.asked_seats(state),
        "seats": [_seat_view(state, x, None) for x in range(state["players"])],
        "arsenal": [_pile_view(state, i) for i in range(len(state["arsenal"]))],
        "abandoned": [card_dict(c) for c in state["abandoned"]],
        "draft": _draft_public(state),
        "last_reveal": _reveal_view(state, battle) if battle else _reveal_view(state, None),
        "outcome": E.outcome(state),
    }
    with _PUBLIC_PARTS_LOCK:
        _PUBLIC_PARTS[id(state)] = (state, parts)
        while len(_PUBLIC_PARTS) > _PUBLIC_PARTS_AT_MOST:
            _PUBLIC_PARTS.popitem(last=False)
    return parts


def _seat_view(state: State, x: int, viewer: int | None) -> dict[str, Any]:
    own = viewer == x
    sees_hand = own or (viewer is not None and viewer in state["shown"][x])
    over = state["phase"] == "over"
    discard = []
    for cid in state["discard"][x]:
        if cid in state["face_down"][x]:
            discard.append({**card_dict(cid), "face_down": True} if own else dict(HIDDEN_CARD))
        else:
            discard.append(card_dict(cid))
    owned = state["hands"][x] + state["draw"][x] + state["discard"][x] + state["cache"][x]
    return {
        "seat": x,
        "hand_count": len(state["hands"][x]),
        "hand": [card_dict(c) for c in state["hands"][x]] if sees_hand else None,
        "draw_count": len(state["draw"][x]),
        "discard": discard,
        "discard_count": len(discard),
        "cache": [card_dict(c) for c in state["cache"][x]],
        "draws_next": state["draws_next"][x],
        "chosen": state["sealed"][x] is not None,
        "locked": state["locked"][x],
        "shows_hand_to": list(state["shown"][x]),
        "must_show_next_draw_to": list(state["whitewash"][x]),
        "card_count": len(owned),
        "points": _points(state["hands"][x] + E.scoring_cards(state, x)) if own or over else None,
    }


def _points(cards: list[str]) -> int:
    """What cards score (Weapons Cache cards never do; cards in hand will be discarded this turn)."""
    return sum(C.points_of(c) for c in cards if not C.is_no_effect(c))


def _team_in_hand(state: State, team: int) -> list[str]:
    pool = state["pool"][team]
    return [c for m in T.team_members(state, team) for c in state["hands"][m]] + (pool["cards"] if pool else [])


def _pile_view(state: State, i: int) -> dict[str, Any]:
    pile = state["arsenal"][i]
    closed = state["battle"] is not None and i in state["battle"]["closed"]
    return {
        "pile": i,
        "nearest": i,
        "count": len(pile),
        "top": card_dict(pile[-1]) if pile and not closed else None,
    }


def _draft_public(state: State) -> dict[str, Any] | None:
    draft = state["draft"]
    if draft is None:
        return None
    return {
        "step": state["step"],
        "round": draft["round"],
        "pack_counts": [len(p) for p in draft["packs"]],
        "kept_counts": [len(k) for k in draft["kept"]],
    }


def _reveal_view(state: State, battle: dict[str, Any] | None) -> dict[str, Any] | None:
    """The reveal being resolved (``resolving`` true) or the last one resolved."""
    if battle is not None:
        plays = [[{"card": p["card"], "side": p["side"], "via": p["via"], "cancelled": p["off"]}
                  for p in seat_plays] for seat_plays in battle["plays"]]
        turn, lines, resolving = battle["turn"], battle["lines"], True
    elif state["last_reveal"] is not None:
        last = state["last_reveal"]
        plays, turn, lines, resolving = last["plays"], last["turn"], last["lines"], False
    else:
        return None
    return {
        "turn": turn,
        "resolving": resolving,
        "plays": [[_played(p) for p in seat_plays] for seat_plays in plays],
        "lines": list(lines),
        "line_parts": [text_parts(line) for line in lines],
    }


def text_parts(text: str) -> list[dict[str, Any]]:
    """A text with "{p0}" placeholders split into {"text": ...} and {"seat": n} pieces.

    Templates render a seat piece with the player's name, without parsing placeholders.
    The pieces are shared by every view that shows the same line: never mutate them.
    """
    return list(_text_parts(text))


@lru_cache(maxsize=4096)
def _text_parts(text: str) -> tuple[dict[str, Any], ...]:
    parts: list[dict[str, Any]] = []
    for i, piece in enumerate(_PLACEHOLDER.split(text)):
        if i % 2:
            parts.append({"seat": int(piece)})
        elif piece:
            parts.append({"text": piece})
    return tuple(parts)


def _played(p: dict[str, Any]) -> dict[str, Any]:
    """A play as every viewer sees it (one dict shared by all of them: never mutate it)."""
    return _play_dict(p["card"], p["side"], p["via"], p["cancelled"])


@lru_cache(maxsize=4096)
def _play_dict(card: str, side_name: str, via: str, cancelled: bool) -> dict[str, Any]:
    side = side_of(card, side_name)
    return {"card": card_dict(card), "side": side_name, "title": side.title,
            "type": side.type, "via": via, "cancelled": cancelled}


def _you(state: State, seat: int) -> dict[str, Any]:
    """Private details for a player: hand, tentative choice, and what it is asked."""
    step = state["step"]
    asked = seat in E.asked_seats(state)
    sealed = state["sealed"][seat]
    you: dict[str, Any] = {
        "seat": seat,
        "asked": asked,
        "hand": [card_dict(c) for c in state["hands"][seat]],
        "choice": _choice_view(sealed, state["locked"][seat]),
        "lock": {"type": "lock"} if asked and sealed is not None and step != "resolve" else None,
        "playable": [],
        "draft": None,
        "prompt": None,
    }
    if step == "choose" and asked:
        for cid in state["hands"][seat] + state["cache"][seat]:
            you["playable"].append({
                "card": card_dict(cid),
                "from": "cache" if cid in state["cache"][seat] else "hand",
                "chosen_side": sealed["side"] if sealed and sealed.get("card") == cid else None,
                **{side: {"choose": {"type": "choose", "card": cid, "side": side},
                          "play": {"type": "play", "card": cid, "side": side}}
                   for side in E.SIDE_NAMES},
            })
    if step in ("pick", "keep"):
        you["draft"] = _draft_you(state, seat, asked)
    if step == "resolve" and asked:
        task = state["battle"]["todo"][0]
        you["prompt"] = {
            "what": task["what"],
            "text": E.prompt_text(state, task),
            "default": E.default_action(state, seat),
            "options": [{"action": dict(o), "label": _option_label(o, task["what"]),
                         "card": card_dict(o["card"]) if "card" in o else None}
                        for o in task["options"]],
        }
    return you


def _choice_view(sealed: dict[str, Any] | None, locked: bool) -> dict[str, Any] | None:
    if sealed is None:
        return None
    if "left" in sealed:
        return {where: {"card": card_dict(sealed[where]["card"]), "side": sealed[where]["side"],
                        "title": side_of(sealed[where]["card"], sealed[where]["side"]).title}
                for where in ("left", "right")} | {"locked": locked}
    if "keep" in sealed:
        return {"keep": [card_dict(c) for c in sealed["keep"]], "locked": locked}
    choice: dict[str, Any] = {"card": card_dict(sealed["card"]), "locked": locked}
    if "side" in sealed:
        choice["side"] = sealed["side"]
        choice["title"] = side_of(sealed["card"], sealed["side"]).title
    return choice


def _draft_you(state: State, seat: int, asked: bool) -> dict[str, Any]:
    draft = state["draft"]
    sealed = state["sealed"][seat] or {}
    options = []
    if asked:
        for choice in asking._choices(state, seat):
            ids = choice["keep"] if "keep" in choice else [choice["card"]]
            options.append({
                "cards": [card_dict(c) for c in ids],
                "chosen": choice == sealed,
                "choose": {"type": "choose", **choice},
                "play": {"type": "play", **choice},
            })
    return {
        "pack": [card_dict(c) for c in draft["packs"][seat]],
        "kept": [card_dict(c) for c in draft["kept"][seat]],
        "options": options,
    }


def _option_label(option: dict[str, Any], what: str) -> str:
    kind = option["type"]
    if kind == "pass" and what == "restock":
        return "Pass: no Restock"
    if kind == "pass" and what == "cache":
        return "Pass: cache nothing"
    if kind == "pass":
        return "Pass: no second card"
    if kind == "restock" and "card" not in option:
        return "Restock: shuffle it back alone"
    if kind == "exchange":
        return f"Give {C.card_name(option['give'])}, take {C.card_name(option['take'])}"
    name = C.card_name(option["card"])
    if kind == "second_card":
        return f"Play {side_of(option['card'], option['side']).title} ({name})"
    verb = {"abandon": "Abandon", "upgrade": "Take", "cache": "Cache", "restock": "Restock",
            "raid": "Steal"}[kind]
    return f"{verb} {name}"


# --------------------------------------------------------------------------- 3+ players and teams


def _team_sees(state: State, viewer: int | None, x: int) -> bool:
    """Whether ``viewer`` is on seat ``x``'s team (team play; a seat is on its own team)."""
    return viewer is not None and "teams" in state and state["teams"][viewer] == state["teams"][x]


def table_view(state: State, viewer: int | None) -> View:
    """The view of a 3+ player or team game: the two-player view plus who plays at whom."""
    n = state["players"]
    teams = state["mode"] == "teams"
    seats = []
    for x in range(n):
        seat = _seat_view(state, x, viewer) if not teams else _team_seat_view(state, x, viewer)
        seat["no_effect"] = card_dict(state["no_effect"][x])
        seat["arsenal_pile"] = x if x < len(state["arsenal"]) else None
        if teams:
            seat.update(team=state["teams"][x], opponent=state["opponents"][x],
                        leader=state["leaders"][state["teams"][x]] == x, active=True)
        else:
            seat.update(left=T._left_of(state, x) if x in state["active"] else None,
                        right=T._right_of(state, x) if x in state["active"] else None,
                        active=x in state["active"])
            seat["card_count"] = len(T.seat_cards(state, x))
        seats.append(seat)
    arsenal = [_pile_view(state, i) for i in range(len(state["arsenal"]))]
    for pile in arsenal:
        if pile["pile"] >= n:
            pile["nearest"] = None
    view = {
        "game": E.SLUG,
        "mode": state["mode"],
        "phase": state["phase"],
        "step": state["step"],
        "turn": state["turn"],
        "final_round": state["final_round"],
        "players": n,
        "viewer": viewer,
        "options": {"draft": state["options"]["draft"],
                    "alternates": list(state["options"]["alternates"]),
                    **({"team_leaders": list(state["options"]["team_leaders"])} if teams else {})},
        "waiting_for": E.asked_seats(state),
        "seats": seats,
        "battles": [{"battle": j, "seats": list(pair)} for j, pair in enumerate(T.battles_of(state))]
        if state["phase"] == "play" else [],
        "arsenal": arsenal,
        "abandoned": [card_dict(c) for c in state["abandoned"]],
        "set_aside_count": len(state["set_aside"]),
        "tiebreak": None if state.get("tiebreak") is None else {
            "tied": list(state["tiebreak"]["tied"]), "scores": list(state["tiebreak"]["scores"])},
        "teams": [_team_view(state, t, viewer) for t in (0, 1)] if teams else None,
        "draft": _draft_public(state),
        "last_reveal": _table_reveal_view(state),
        "you": _table_you(state, viewer) if viewer is not None else None,
        "outcome": E.outcome(state),
    }
    return view


def _team_seat_view(state: State, x: int, viewer: int | None) -> dict[str, Any]:
    """A team player's area: hand (seen by the team), own draw pile, Weapons Cache."""
    sees_hand = viewer == x or _team_sees(state, viewer, x) or (viewer is not None and viewer in state["shown"][x])
    own = state["hands"][x] + state["draw"][x] + state["cache"][x]
    return {
        "seat": x,
        "hand_count": len(state["hands"][x]),
        "hand": [card_dict(c) for c in state["hands"][x]] if sees_hand else None,
        "draw_count": len(state["draw"][x]),
        "discard": [],
        "discard_count": 0,
        "cache": [card_dict(c) for c in state["cache"][x]],
        "draws_next": state["draws_next"][x],
        "chosen": state["sealed"][x] is not None,
        "locked": state["locked"][x],
        "shows_hand_to": list(state["shown"][x]),
        "must_show_next_draw_to": list(state["whitewash"][x]),
        "card_count": len([c for c in own if not C.is_no_effect(c)]),
        "points": None,
    }


def _team_view(state: State, team: int, viewer: int | None) -> dict[str, Any]:
    """A team's common piles: the discard (face-down cards named to the team only) and draw deck."""
    mine = viewer is not None and state["teams"][viewer] == team
    discard = []
    for cid in state["discard"][team]:
        if cid in state["face_down"][team]:
            discard.append({**card_dict(cid), "face_down": True} if mine else dict(HIDDEN_CARD))
        else:
            discard.append(card_dict(cid))
    pool = state["pool"][team]
    over = state["phase"] == "over"
    return {
        "team": team,
        "name": T.TEAM_NAMES[team],
        "seats": T.team_members(state, team),
        "leader": state["leaders"][team],
        "common_deck": state["common"][team],
        "draw_count": len(state["team_draw"][team]),
        "discard": discard,
        "discard_count": len(discard),
        "dealing": pool is not None,
        "deal_count": len(pool["cards"]) if pool else 0,
        "deal": None if pool is None or not mine else {
            "cards": [card_dict(c) for c in pool["cards"]], "to": list(pool["to"])},
        "points": _points(T.team_cards(state, team) + _team_in_hand(state, team)) if mine or over else None,
    }


def _table_reveal_view(state: State) -> dict[str, Any] | None:
    """This turn's reveal while it resolves, else the last one: every play, battle by battle."""
    battle = state["battle"]
    if battle is not None:
        source, resolving = battle, True
        done = list(battle["done"])
        current = battle["current"]
        a, c = battle["pair"]
        done.append({"battle": current, "seats": [a, c], "current": True,
                     "plays": [[{"card": p["card"], "side": p["side"], "via": p["via"], "cancelled": p["off"]}
                                for p in battle["plays"][x]] for x in (a, c)]})
    elif state["last_reveal"] is not None:
        source, resolving = state["last_reveal"], False
        done = list(source["battles"])
    else:
        return None
    n = state["players"]
    plays: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    for x, picks in enumerate(source["played"]):
        for where, pick in picks.items():
            plays[x].append({**_played({**pick, "cancelled": False}), "at": pick["at"], "toward": where})
    battles = []
    for entry in done:
        battles.append({
            "battle": entry["battle"], "seats": list(entry["seats"]), "current": entry.get("current", False),
            "plays": [[_played(p) for p in seat_plays] for seat_plays in entry["plays"]],
        })
        for x, seat_plays in zip(entry["seats"], entry["plays"]):
            for p in seat_plays:
                if p["via"] in ("barrage", "dodge"):
                    foe = entry["seats"][1] if x == entry["seats"][0] else entry["seats"][0]
                    plays[x].append({**_played(p), "at": foe, "toward": "battle"})
                elif p["cancelled"]:
                    for shown in plays[x]:
                        if shown["card"]["id"] == p["card"] and shown["via"] == p["via"]:
                            shown["cancelled"] = True
    lines = source["lines"]
    if battle is not None:
        order = [list(battle["battles"][j]) for j in battle["order"]]
    else:
        order = [list(entry["seats"]) for entry in source["battles"]]
    return {
        "turn": source["turn"],
        "resolving": resolving,
        "order": order,
        "plays": plays,
        "battles": battles,
        "lines": list(lines),
        "line_parts": [text_parts(line) for line in lines],
    }


def _table_you(state: State, seat: int) -> dict[str, Any]:
    """The two-player ``you`` block, with both plays of the ring and the leader's deal."""
    you = _you(state, seat)
    if state["mode"] == "teams":
        team = state["teams"][seat]
        pool = state["pool"][team]
        you["team"] = team
        you["deal"] = None
        if state["step"] == "deal" and seat in T.dealers(state):
            you["deal"] = {"cards": [card_dict(c) for c in pool["cards"]], "to": list(pool["to"]),
                           "default": T.deal_default(state, seat),
                           "text": T.DEAL_TEXT}
        return you
    if state["step"] == "choose" and you["asked"]:
        sealed = state["sealed"][seat] or {}
        you["playable"] = [{
            "card": card_dict(cid),
            "from": "cache" if cid in state["cache"][seat] else "hand",
            "chosen_at": next((w for w in ("left", "right") if sealed.get(w, {}).get("card") == cid), None),
            "chosen_side": next((sealed[w]["side"] for w in ("left", "right")
                                 if sealed.get(w, {}).get("card") == cid), None),
        } for cid in state["hands"][seat] + state["cache"][seat]]
        you["targets"] = {"left": T._left_of(state, seat), "right": T._right_of(state, seat)}
    return you
