"""Snowball Fight's hints say why locking is not offered yet (the engine's words) and that only
the cards in the hand can be played, with how many wait in the draw and discard piles."""
from __future__ import annotations

from games.engines.snowball_fight import RULESET as SF
from games.engines.snowball_fight.hints import hints as sf_hints


def test_hints_say_why_a_lock_and_the_cards_outside_the_hand_are_not_offered():
    state = SF.new_game(players=2, options={}, seed=5)
    while not (state["step"] == "choose" and state["discard"][0] and 0 in SF.to_act(state)):
        seat = sorted(SF.to_act(state))[0]
        state, _ = SF.apply(state, seat, SF.bot_action(state, seat))
    legal = SF.legal_actions(state, 0)
    found = sf_hints(prompt=SF.to_act(state)[0].as_dict(), legal_actions=legal, state=state, seat=0)
    why = {m["type"]: m["why"] for m in found["not_offered"]}
    assert why["lock"] == "Choose a card before you lock."
    assert f"the {len(state['discard'][0])} in your discard pile" in why["other_cards"]
    chosen, _ = SF.apply(state, 0, next(a for a in legal if a["type"] == "choose"))
    found = sf_hints(prompt=SF.to_act(chosen)[0].as_dict(), legal_actions=SF.legal_actions(chosen, 0), state=chosen, seat=0)
    assert "lock" not in {m["type"] for m in found["not_offered"]}
