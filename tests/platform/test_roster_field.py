"""The roster editor's form field: what it accepts, the errors it gives, and that the engine plays what it returns."""
from __future__ import annotations

import json

import pytest
from django import forms

from games.engines.base import BadAction
from games.engines.what_a_snowball import RULESET as R
from games.roster_field import RosterField

SIX = [{"name": n, "seat": i // 3, "traits": [t], "type": "kid"}
       for i, (n, t) in enumerate(zip(["Ann", "Bo", "Cy", "Di", "Ed", "Flo"],
                                      ["fast", "strong", "skilful", "resourceful", "fast", "strong"]))]


class RosterForm(forms.Form):
    opt_kids = RosterField(label="Kids")


def cleaned(value):
    form = RosterForm({"opt_kids": value})
    return form, (form.cleaned_data["opt_kids"] if form.is_valid() else None)


@pytest.mark.parametrize("empty", ["", "[]", "null"])
def test_an_empty_roster_means_the_games_default(empty):
    form, value = cleaned(empty)
    assert form.is_valid() and value is None
    state = R.new_game(players=2, options={"kids": value}, seed=1)
    assert len(state["kids"]) == 6


def test_a_roster_from_the_editor_becomes_the_games_kids():
    roster = [dict(k) for k in SIX]
    roster[0]["name"] = "Blizzard"
    form, value = cleaned(json.dumps(roster))
    assert form.is_valid(), form.errors
    state = R.new_game(players=2, options={"kids": value}, seed=1)
    assert [k["name"] for k in state["kids"].values()][0] == "Blizzard"
    assert [k["seat"] for k in state["kids"].values()] == [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize("value, words", [
    ("[{", "does not read as JSON"),
    ('{"name": "Ann"}', "must be a list"),
    ('["Ann"]', "Kid 1 must be an object"),
    ('[{"name": "Ann", "seat": 0, "hat": "red"}]', "Kid 1 has unknown field(s) hat"),
    ('[{"name": "Ann", "seat": "0"}]', "Kid 1: the seat must be a seat number"),
    ('[{"name": "Ann", "seat": true}]', "Kid 1: the seat must be a seat number"),
    ('[{"name": "Ann", "seat": 0}, {"name": 7, "seat": 1}]', "Kid 2: the name must be text"),
    ('[{"name": "Ann", "seat": 0, "traits": "fast"}]', "Kid 1: the Traits must be a list"),
])
def test_a_malformed_roster_is_refused_with_the_kid_and_the_problem(value, words):
    form, _ = cleaned(value)
    assert not form.is_valid()
    assert words in " ".join(form.errors["opt_kids"])


def test_a_well_formed_roster_that_breaks_the_rules_is_refused_by_the_engine_naming_it():
    roster = [dict(k) for k in SIX[:5]]  # 5 Kids: 3 against 2
    form, value = cleaned(json.dumps(roster))
    assert form.is_valid()
    with pytest.raises(BadAction, match="5 Kids|same size"):
        R.new_game(players=2, options={"kids": value}, seed=1)


def test_the_widget_renders_the_editor_round_the_json():
    form = RosterForm({"opt_kids": json.dumps(SIX)})
    page = str(form["opt_kids"])
    assert "data-roster-editor" in page and 'name="opt_kids"' in page and "roster-editor.js" in page
    assert "&quot;Ann&quot;" in page  # the JSON is in the textarea, escaped
    choices = json.loads(__import__("html").unescape(page.split('data-choices="')[1].split('"', 1)[0]))
    assert ["yeti", "Yeti (Fast and Strong)"] in choices["types"] and len(choices["traits"]) == 4


@pytest.mark.django_db
def test_the_new_game_page_explains_the_roster_in_players_words(client):
    page = client.get("/games/new/what-a-snowball/").content.decode()
    help_text = page.split("data-roster-help>", 1)[1].split("data-roster-fallback", 1)[0]
    assert "waiting room" in help_text and "split among several" in help_text
    assert "1 to 3 Kids" in help_text and "6 to 12 Kids" in help_text and "same number of Kids" in help_text
    assert "one team per player" not in page
    assert "{" not in help_text and "seat" not in help_text  # no JSON, no seat numbers outside the no-script hint
    assert page.count("player who commands it") == 1  # the editor's help, not the option's again under the field
