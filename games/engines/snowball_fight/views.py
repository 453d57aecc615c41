"""What one viewer may see of a game: ``view(state, seat)``; seat None is a spectator.

Hidden from a viewer: other seats' hands (unless Whitewash shows them) and sealed
choices, the face-down cards in other seats' discard piles, every draw pile's
order and contents (counts only, the owner included), the Arsenal cards below
the face-up ones, and the generator's seed and counter.
"""
from __future__ import annotations

import re
from typing import Any

from games.engines.base import State, View
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E
from games.engines.snowball_fight.cards import card_dict, side_of

HIDDEN_CARD = {"hidden": True, "face_down": True}
_PLACEHOLDER = re.compile(r"\{p(\d+)\}")


def view(state: State, seat: int | None) -> View:
    """The JSON-safe picture of the game for ``seat`` (None: a spectator)."""
    n = state["players"]
    viewer = seat if isinstance(seat, int) and 0 <= seat < n else None
    battle = state["battle"]
    return {
        "game": E.SLUG,
        "phase": state["phase"],
        "step": state["step"],
        "turn": state["turn"],
        "final_round": state["final_round"],
        "players": n,
        "viewer": viewer,
        "options": {"draft": state["options"]["draft"],
                    "alternates": list(state["options"]["alternates"])},
        "waiting_for": E.asked_seats(state),
        "seats": [_seat_view(state, x, viewer) for x in range(n)],
        "arsenal": [_pile_view(state, i) for i in range(len(state["arsenal"]))],
        "abandoned": [card_dict(c) for c in state["abandoned"]],
        "draft": _draft_public(state),
        "last_reveal": _reveal_view(state, battle) if battle else _reveal_view(state, None),
        "you": _you(state, viewer) if viewer is not None else None,
        "outcome": E.outcome(state),
    }


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
        "points": sum(C.points_of(c) for c in owned) if own or over else None,
    }


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
    """
    parts: list[dict[str, Any]] = []
    for i, piece in enumerate(_PLACEHOLDER.split(text)):
        if i % 2:
            parts.append({"seat": int(piece)})
        elif piece:
            parts.append({"text": piece})
    return parts


def _played(p: dict[str, Any]) -> dict[str, Any]:
    side = side_of(p["card"], p["side"])
    return {"card": card_dict(p["card"]), "side": p["side"], "title": side.title,
            "type": side.type, "via": p["via"], "cancelled": p["cancelled"]}


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
                "chosen_side": sealed["side"] if sealed and sealed["card"] == cid else None,
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
            "options": [{"action": dict(o), "label": _option_label(o),
                         "card": card_dict(o["card"]) if "card" in o else None}
                        for o in task["options"]],
        }
    return you


def _choice_view(sealed: dict[str, Any] | None, locked: bool) -> dict[str, Any] | None:
    if sealed is None:
        return None
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
        for choice in E._choices(state, seat):
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


def _option_label(option: dict[str, Any]) -> str:
    kind = option["type"]
    if kind == "pass":
        return "Pass: no second card"
    if kind == "exchange":
        return f"Give {C.card_name(option['give'])}, take {C.card_name(option['take'])}"
    name = C.card_name(option["card"])
    if kind == "second_card":
        return f"Play {side_of(option['card'], option['side']).title} ({name})"
    verb = {"abandon": "Abandon", "upgrade": "Take", "cache": "Cache", "restock": "Restock",
            "raid": "Steal"}[kind]
    return f"{verb} {name}"
