"""Snowball Fighting's hints say, in the engine's words, why an order is not offered in each
segment a player writes: a throw without the snowballs it needs (counting the player's own
earlier orders), from inside the kitchen, a Maniac out of reach, collecting on the path, the
segments spent drying socks in the kitchen; how far a move reaches; and why orders cannot be
sealed before any is written."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.depth import examples

from games.engines.base import GameError

from games.engines.snowball_fighting import RULESET as SFG
from games.engines.snowball_fighting.garden import KITCHEN
from games.engines.snowball_fighting.hints import hints
from games.engines.snowball_fighting.orders import garden_of


def in_orders(seed: int = 5, players: int = 3):
    state = SFG.new_game(players=players, options={}, seed=seed)
    for seat in range(players):
        while seat in SFG.to_act(state):
            state, _ = SFG.apply(state, seat, SFG.bot_action(state, seat))
    assert state["phase"] == "orders"
    return state


def put(state, seat=0, **changes):
    state = {**state, "combatants": [dict(c) for c in state["combatants"]]}
    state["combatants"][seat].update(changes)
    return state


def missing(state, seat=0):
    found = hints(prompt=SFG.to_act(state)[seat].as_dict(), legal_actions=SFG.legal_actions(state, seat),
                  state=state, seat=seat)
    return {m["type"]: m["why"] for m in found["not_offered"]}


def test_without_snowballs_no_throw_that_needs_them_is_offered_and_the_reason_is_the_engines():
    why = missing(put(in_orders(), ss=0, dd=0))
    assert why["rattlesnake"] == "segments 1, 2 and 3: a Rogerson Rattlesnake needs 1 simple snowball, and you will have 0"
    assert "needs 2 simple snowballs" in why["bolero"]
    assert "needs a Doubleday Dirigible" in why["dirigible"]
    assert "collect" not in why


def test_a_throw_written_in_segment_one_uses_up_what_segment_two_would_throw():
    state = put(in_orders(), ss=2, dd=0)
    written, _ = SFG.apply(state, 0, {"type": "orders", "segments": [{"type": "bolero", "targets": [1, 2]}, None, None]})
    why = missing(written)
    assert why["rattlesnake"] == "segments 2 and 3: a Rogerson Rattlesnake needs 1 simple snowball, and you will have 0"
    assert "ready" not in why


def test_from_inside_the_kitchen_nothing_is_thrown_or_collected():
    why = missing(put(in_orders(), hex=KITCHEN))
    assert why["rattlesnake"].endswith("nobody can throw from inside the kitchen")
    assert why["collect"].endswith("there is no snow inside the kitchen")


def test_collecting_is_not_offered_on_the_path_and_a_far_maniac_is_said_to_be_out_of_reach():
    state = in_orders()
    garden = garden_of(state)
    path_hex = next(h for h in sorted(garden.path)
                    if all((garden.throw_range(h, c["hex"]) or 99) > 2 for c in state["combatants"]))
    why = missing(put(state, hex=path_hex))
    assert why["collect"] == f"segments 1, 2 and 3: snowballs cannot be collected on the path ({path_hex})"
    assert "a Mendham Maniac reaches 2 hexes, and the nearest opponent is" in why["maniac"]
    assert f"from {path_hex} a move reaches" in why["reach"] and f"the shed ({garden.shed})" in why["reach"]


def test_while_drying_socks_the_first_segments_are_not_offered_and_orders_start_at_the_kitchen_door():
    state = in_orders()
    state = put(state, hex=KITCHEN, status="drying", dry_until=state["clock"] + 1)
    why = missing(state)
    door = garden_of(state).kitchen_door
    assert why["segment"].startswith("segment 1: you are drying your socks in the kitchen; your orders start in segment 2")
    assert f"segments 2 and 3: from {door} a move reaches" in why["reach"]


def test_orders_cannot_be_sealed_before_one_is_written_and_a_written_order_lifts_that():
    state = in_orders()
    assert missing(state)["ready"] == "write your orders before marking them ready"
    written, _ = SFG.apply(state, 0, {"type": "orders", "segments": [{"type": "stand"}, None, None]})
    assert "ready" not in missing(written)


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 2**31), ss=st.integers(0, 3), dd=st.integers(0, 1))
def test_a_throw_is_called_not_offered_exactly_when_the_engine_refuses_it_at_everyone(seed, ss, dd):
    state = put(in_orders(seed % 50), ss=ss, dd=dd)
    why = missing(state)
    aimed = {"rattlesnake": [{"target": t} for t in (1, 2)], "baker": [{"target": t, "bounce": "spot"} for t in (1, 2)],
             "bolero": [{"targets": [1, 2]}], "dirigible": [{"target": t} for t in (1, 2)],
             "storm": [{"conifer": c} for c in garden_of(state).conifers], "avalanche": [{"side": s} for s in "NS"]}
    for kind, variants in aimed.items():
        accepted = []
        for variant in variants:
            try:
                SFG.apply(state, 0, {"type": "orders", "segments": [{"type": kind, **variant}, None, None]})
                accepted.append(variant)
            except GameError:
                pass
        refused_everywhere = not accepted
        said = kind in why and why[kind].startswith("segments 1") and "throwing route" not in why[kind]
        assert said == refused_everywhere, (kind, why.get(kind))



def test_at_the_setup_the_hints_say_ready_starts_the_game_before_and_after_anything_is_saved():
    """Only what is legal is offered (Ready once a setup is saved), and Save's words tell of the
    page's Ready, which saves and seals at once, from the start."""
    state = SFG.new_game(players=2, options={}, seed=5)
    for written in (False, True):
        found = hints(prompt=SFG.to_act(state)[0].as_dict(), legal_actions=SFG.legal_actions(state, 0),
                      state=state, seat=0)
        does = {o["type"]: o["does"] for o in found["options"]}
        assert set(does) == ({"setup", "ready"} if written else {"setup"}), written
        assert "the game starts once everyone is ready" in does["setup"]
        if written:
            assert "the game starts once everyone is ready" in does["ready"] and "orders" not in does["ready"]
        state, _ = SFG.apply(state, 0, {"type": "setup", "name": "Ana", "starts": []})
