"""Who Snowball Fight asks and what: the seats asked now (``asked_seats``, ``to_act``), the
question's text, the legal actions of each seat, and what is played for a seat whose time runs
out (``default_action``). Read-only functions over a state; ``engine`` re-exports them."""
from __future__ import annotations

from dataclasses import fields
from itertools import combinations
from typing import Any

from games.engines.base import Action, Prompt, State
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import table
from games.engines.snowball_fight.cards import kind_of
from games.engines.snowball_fight.engine import CHOOSE_TIMEOUT, DRAFT_TIMEOUT, EFFECT_TIMEOUT, KEEP, SIDE_NAMES


def asked_seats(state: State) -> list[int]:
    """Seats that must act now, in seat order."""
    if state["step"] == "over":
        return []
    if state["step"] == "resolve":
        return [state["battle"]["todo"][0]["ask"]]
    if state["step"] == "deal":
        return table.dealers(state)
    return [seat for seat in range(state["players"]) if not state["locked"][seat]]


def _is_asked(state: State, seat: int) -> bool:
    """``seat in asked_seats(state)``, without building the list."""
    step = state["step"]
    if step == "over":
        return False
    if step == "resolve":
        return state["battle"]["todo"][0]["ask"] == seat
    if step == "deal":
        return seat in table.dealers(state)
    return seat in range(state["players"]) and not state["locked"][seat]


def to_act(state: State) -> dict[int, Prompt]:
    """What each asked seat is asked, with a time limit and the action applied when it runs out."""
    step = state["step"]
    if step == "over":
        return {}
    if step == "resolve":
        task = state["battle"]["todo"][0]
        return {task["ask"]: _prompt("effect", prompt_text(state, task), EFFECT_TIMEOUT,
                                     _effect_default(task["options"]), {"what": task["what"]})}
    if step == "deal":
        return {seat: _prompt("deal", table.DEAL_TEXT, CHOOSE_TIMEOUT, table.deal_default(state, seat),
                              {"what": "deal"})
                for seat in table.dealers(state)}
    if step == "choose":
        timeout, text = CHOOSE_TIMEOUT, table.choose_text(state) if "mode" in state else _CHOOSE_TEXT
    else:
        timeout, text = DRAFT_TIMEOUT, prompt_text(state, None)
    sealed = state["sealed"]
    prompts: dict[int, Prompt] = {}
    for seat, locked in enumerate(state["locked"]):  # the seats asked_seats lists
        if not locked:
            prompts[seat] = _prompt("sealed", text, timeout, _sealed_default(state, seat),
                                    {"chosen": sealed[seat] is not None})
    return prompts


_PROMPT_FIELDS = ("kind", "text", "timeout", "default", "extra")


def _prompt(kind: str, text: str, timeout: float, default: Action, extra: dict[str, Any]) -> Prompt:
    """``Prompt(kind, text, timeout, default, extra)``, without the frozen dataclass's slow ``__init__``."""
    prompt = object.__new__(Prompt)
    prompt.__dict__.update(kind=kind, text=text, timeout=timeout, default=default, extra=extra)
    return prompt


if (tuple(f.name for f in fields(Prompt)) != _PROMPT_FIELDS or hasattr(Prompt, "__slots__")
        or hasattr(Prompt, "__post_init__")):
    def _prompt(kind: str, text: str, timeout: float, default: Action, extra: dict[str, Any]) -> Prompt:
        """``Prompt`` has changed shape: build it the ordinary way."""
        return Prompt(kind=kind, text=text, timeout=timeout, default=default, extra=extra)


_CHOOSE_TEXT = ("Choose one card and the side to play; your other card goes face-down "
                "to your discard pile.")


def prompt_text(state: State, task: dict[str, Any] | None) -> str:
    """The question, in words, for the sealed step or for an effect prompt."""
    step = state["step"]
    if task is None:
        if step == "pick":
            count = len(state["draft"]["packs"][0])
            return f"Draft: keep one of these {count} Advanced cards; the rest are passed on."
        if step == "keep":
            return f"Draft: keep two of these {len(state['draft']['packs'][0])} Advanced cards."
        if step == "deal":
            return table.DEAL_TEXT
        return table.choose_text(state) if "mode" in state else _CHOOSE_TEXT
    what = task["what"]
    if what == "abandon":
        return f"{task['why']} hit you: choose a card from your discard pile to Abandon."
    if what == "upgrade":
        title = C.SIDES[task["ability"]].title
        where = "an Arsenal pile" + (" or the Abandoned pile" if task["abandoned_ok"] else "")
        if task["ability"] == "refined_upgrade":
            where = "the top two cards of an Arsenal pile"
        return f"{title}: choose a card to take from {where}."
    if what == "second_card":
        if "mode" in state:
            return table.second_card_text(state)
        return "Barrage hit! Play your second card (choose a side) before your opponent's attack, or pass."
    if what == "exchange":
        return "Snatch and Run: give one card from your discard pile for one Abandoned card."
    if what == "cache":
        return "Weapons Cache: choose a card from your discard pile to keep in your Weapons Cache."
    if what == "restock" and task.get("optional"):
        return ("You dodged, so you may use Restock: choose a discard to shuffle into your draw pile "
                "with it, or pass.")
    if what == "restock":
        return "Restock: choose one other discard to shuffle into your draw pile with Restock."
    return "Raid: steal the card your opponent played or an Abandoned card."


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may send now; empty when it is not asked."""
    step = state["step"]
    if step == "resolve":
        task = state["battle"]["todo"][0]
        return [dict(o) for o in task["options"]] if task["ask"] == seat else []
    if step == "deal":
        return table.deal_actions(state, seat)
    if step == "over" or seat not in range(state["players"]) or state["locked"][seat]:
        return []  # not asked (see _is_asked)
    actions: list[Action] = []
    if step == "choose" and state.get("mode") == "ring":
        actions = [{"type": kind, **choice} for choice in table.ring_choices(state, seat)
                   for kind in ("choose", "play")]
    elif step == "choose":
        for cid in state["hands"][seat] + state["cache"][seat]:
            choose_top, play_top, choose_bottom, play_bottom = _CARD_ACTIONS[cid]
            actions += (choose_top.copy(), play_top.copy(), choose_bottom.copy(), play_bottom.copy())
    else:
        for choice in _choices(state, seat):
            actions += ({"type": "choose", **choice}, {"type": "play", **choice})
    if state["sealed"][seat] is not None:
        actions.append({"type": "lock"})
    return actions


# Each card's choose and play actions for either side, in legal_actions order (copied there).
_CARD_ACTIONS = {cid: tuple({"type": kind, "card": cid, "side": side}
                            for side in SIDE_NAMES for kind in ("choose", "play"))
                 for cid in C.DECK}


def _choices(state: State, seat: int) -> list[dict[str, Any]]:
    """Every sealed choice open to ``seat`` in the current step."""
    step = state["step"]
    if step == "pick":
        return [{"card": c} for c in state["draft"]["packs"][seat]]
    if step == "keep":
        return [{"keep": sorted(pair)} for pair in combinations(state["draft"]["packs"][seat], KEEP)]
    if state.get("mode") == "ring":
        return table.ring_choices(state, seat)
    cards = state["hands"][seat] + state["cache"][seat]
    return [{"card": c, "side": side} for c in cards for side in SIDE_NAMES]


# Draft preference used by defaults: dodges and Sneak Attack first.
_DRAFT_ORDER = ("sneak-dodge", "slushball-dodge", "dodge-upgrade", "sneak-upgrade", "slushball-upgrade")


def _draft_value(cid: str) -> int:
    return -_DRAFT_ORDER.index(C.DECK[cid])


def default_action(state: State, seat: int) -> Action | None:
    """What is applied for ``seat`` when its time runs out: a safe, sensible choice."""
    if not _is_asked(state, seat):
        return None
    if state["step"] == "resolve":
        return _effect_default(state["battle"]["todo"][0]["options"])
    if state["step"] == "deal":
        return table.deal_default(state, seat)
    return _sealed_default(state, seat)


def _sealed_default(state: State, seat: int) -> Action:
    """The default for an asked seat during the draft or the card choice."""
    if state["sealed"][seat] is not None:
        return {"type": "lock"}
    step = state["step"]
    if step == "choose" and state.get("mode") == "ring":
        return table.ring_default(state, seat)
    if step == "choose":
        hand = state["hands"][seat]
        cid = hand[0] if hand else state["cache"][seat][0]
        return {"type": "play", "card": cid, "side": _SAFE_SIDES[kind_of(cid).key]}
    if step == "pick":
        return {"type": "play", "card": max(state["draft"]["packs"][seat], key=_draft_value)}
    best = sorted(state["draft"]["packs"][seat], key=_draft_value, reverse=True)[:KEEP]
    return {"type": "play", "keep": sorted(best)}


def _effect_default(options: list[Action]) -> Action:
    """The default answer to an effect prompt with these options."""
    what = options[0]["type"]
    if what in ("second_card", "cache"):  # both "may": doing nothing keeps every card where it scores
        return {"type": "pass"}
    if what == "abandon":
        return min(options, key=lambda o: C.points_of(o["card"]))
    if what == "exchange":
        return max(options, key=lambda o: C.points_of(o["take"]) - C.points_of(o["give"]))
    with_card = [o for o in options if "card" in o]
    if not with_card:
        return options[0]
    return max(with_card, key=lambda o: C.points_of(o["card"]))


def safe_side(cid: str) -> str:
    """The side to play when nothing better is known: a dodge, else a defence, else the top."""
    return _SAFE_SIDES[kind_of(cid).key]


def _safe_side_of(kind: C.Kind) -> str:
    if kind.top.dodges:
        return "top"
    if kind.bottom.dodges:
        return "bottom"
    return "top" if kind.bottom.is_attack else "bottom"


_SAFE_SIDES = {key: _safe_side_of(kind) for key, kind in C.KINDS.items()}  # by kind key
