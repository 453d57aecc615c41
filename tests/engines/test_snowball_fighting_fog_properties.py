"""Property tests over whole Fogbound games played by the computer player, random orders, missed
deadlines and shouts: at every version, no view of any seat holds a hex beyond what that seat
may see, spectators see no position, vision stays at least 1, every game ends by turn 10 or
at 12 VPs, a game replays exactly from its seed and actions, and a view does not change when
nothing its viewer may see changed."""
from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.base import GameError
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import bot
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting.garden import FOGBOUND as G
from games.engines.snowball_fighting.garden import KITCHEN

HEX = re.compile(r"\b([A-Z]{1,2}\d{1,2})\b")
PUBLIC_KEYS = {"waiting_for", "ready"}  # whose orders are awaited and who is ready: public


def hexes_in(value) -> set[str]:
    """Every garden hex named anywhere in a JSON value, as a field or inside a text."""
    return {h for h in HEX.findall(json.dumps(value)) if G.is_hex(h)}


def segment_sight(before: dict, after: dict, seat: int, k: int) -> frozenset[str]:
    """What ``seat`` may have seen in segment ``k`` of the turn resolved from ``before`` to
    ``after``: the hexes within the turn's vision of where it stood and everything it walked."""
    vision = before["fog"]["vision"]
    segments = after["report"]["segments"]
    start = before["combatants"][seat]["hex"] if k == 1 else segments[k - 2]["positions"].get(str(seat))
    stood = [start] + [h for m in segments[k - 1]["moves"] if m["seat"] == seat for h in [m["from"], *m["route"]]]
    stood.append(segments[k - 1]["positions"].get(str(seat)))
    out: frozenset[str] = frozenset()
    for h in stood:
        if h is not None and h != KITCHEN:
            out |= G.within(h, vision)
    return out


def check_views(state: dict, sights: dict[int, list[frozenset[str]]]) -> dict:
    """Check every viewer's view of ``state``; return them."""
    views = {}
    over = state["phase"] == "over"
    for viewer in [None, *range(state["players"])]:
        v = json.loads(json.dumps(R.view(state, viewer)))
        views[viewer] = v
        assert v["fog"]["vision"] >= 1
        if over:
            continue
        if viewer is None:
            assert not any(c["seen"] for c in v["combatants"]) and v["fog"]["visible"] == []
            for seg in (v["report"] or {"segments": []})["segments"]:
                assert not seg["moves"] and not seg["throws"] and not seg["positions"]
                assert {e["type"] for e in seg["events"]} <= F.PUBLIC_EVENTS
            continue
        now = F.visible_now(state, viewer)
        assert set(v["fog"]["visible"]) == now
        assert set(v["fog"]["gnomes"]) <= set(state["fog"]["found"][viewer])
        rest = {k: x for k, x in v.items() if k not in ("map", "report", "you", "options")}
        rest["fog"] = {k: x for k, x in v["fog"].items() if k not in ("visible", "gnomes")}
        own = {state["combatants"][viewer]["hex"]} if state["combatants"] else set()
        assert hexes_in(rest) - own <= now, viewer
        if v["you"] and v["you"]["preview"]:
            assert all(p["target"] in [c["seat"] for c in v["combatants"] if c["seen"]]
                       for rows in v["you"]["preview"] for p in rows if isinstance(p["target"], int))
        if v["report"] is not None and viewer in sights:
            for k, seg in enumerate(v["report"]["segments"], start=1):
                allowed = sights[viewer][k - 1]
                assert set(seg["visible"]) <= allowed
                shown = {key: x for key, x in seg.items() if key != "visible"}
                assert hexes_in(shown) <= set(seg["visible"]), (viewer, k)
    return views


def play(players: int, seed: int, options: dict, *, check: bool = True, random_share: float = 0.4,
         ) -> tuple[dict, list]:
    rng = random.Random(seed)
    s = R.new_game(players=players, options={"map": "fogbound", **options}, seed=seed)
    log: list = []
    sights: dict[int, list[frozenset[str]]] = {}
    views = check_views(s, sights) if check else {}
    while R.outcome(s) is None:
        assert len(log) < 1500
        asked = sorted(R.to_act(s))
        if s["phase"] == "orders" and rng.random() < 0.15:
            seat = rng.randrange(players)
            action = {"type": "shout", "text": rng.choice(["over here", "missed me", "who is there?"])}
        else:
            seat = asked[0]
            if s["phase"] == "orders" and s["orders"][seat] is None and rng.random() < random_share:
                action = bot.random_orders(s, seat, rng) if rng.random() > 0.1 else {"type": "deadline"}
            else:
                action = R.bot_action(s, seat)
        try:
            after, events = R.apply(s, seat, action)
        except GameError:
            assert action["type"] == "shout"
            continue
        log.append([seat, action])
        for e in events:
            if "visible_to" not in e:
                assert not hexes_in(e) or e["type"] in ("start",), e
        if check:
            if after["clock"] != s["clock"]:
                sights = {x: [segment_sight(s, after, x, k) for k in range(1, len(after["report"]["segments"]) + 1)]
                          for x in range(players)}
            new_views = check_views(after, sights)
            if after["clock"] == s["clock"] and after["phase"] == s["phase"] and after["turn"] == s["turn"]:
                for x in range(players):
                    if x == seat:
                        continue
                    changed = {k for k in new_views[x] if new_views[x][k] != views[x][k]}
                    if action["type"] == "shout":
                        here, there = F.eye(s, seat), F.eye(s, x)
                        hears = here and there and G.distance(here, there) <= F.SHOUT_RANGE
                        assert changed <= ({"fog"} if hears else set()), (x, changed)
                    else:
                        assert changed <= PUBLIC_KEYS, (x, changed)
            views = new_views
        s = after
    return s, log


def ends_in_time(s: dict) -> None:
    out = R.outcome(s)
    assert s["turn"] <= F.MAX_TURNS + 1
    if out["code"] == "victory":
        assert all(out["scores"][w] >= F.VICTORY_VPS for w in out["winners"])
    else:
        assert out["code"] in ("fogbound_turns", "abandoned")
        assert max(out["scores"]) < F.VICTORY_VPS or out["code"] == "abandoned"


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31), rule14=st.booleans())
def test_no_view_ever_shows_a_seat_more_than_it_may_see(players, seed, rule14):
    s, _ = play(players, seed, {"rule14": rule14, "rule12": not rule14})
    ends_in_time(s)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31), see_all=st.booleans(),
       rules=st.fixed_dictionaries({f"rule{n}": st.booleans() for n in (12, 13, 14)}),
       random_share=st.sampled_from([0.4, 1.0]))
def test_every_game_ends_by_turn_10_or_at_12_vps_and_replays_exactly(players, seed, see_all, rules, random_share):
    options = {"spectators_see_all": see_all, **rules}
    s, log = play(players, seed, options, check=False, random_share=random_share)
    ends_in_time(s)
    again = R.new_game(players=players, options={"map": "fogbound", **options}, seed=seed)
    for seat, action in log:
        again, _ = R.apply(again, seat, json.loads(json.dumps(action)))
    assert json.dumps(again, sort_keys=True) == json.dumps(s, sort_keys=True)
    assert all(c["hp"] >= 0 for c in s["combatants"]) and s["fog"]["vision"] >= 1
    if see_all:
        assert all(c["seen"] for c in R.view(s, None)["combatants"])
