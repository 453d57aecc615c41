"""Parts of a board drawn once for every viewer who sees them alike (``{% render_once %}``).

What a player notices: nothing, except that a page comes sooner. What must never happen: a
part drawn for one viewer shown to another who sees it differently (a turn report drawn for
a spectator who sees through the fog, shown to a player in it), a string one viewer's page
marks safe shown unescaped on another's, or a part that differs from what the page drew
before it was shared.
"""
from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from hypothesis import given, settings
from hypothesis import strategies as st

from games.templatetags.games_tags import RENDERED_ONCE

REPORT = "games/snowball-fighting/report.html"
ONCE = Template('{% load games_tags %}{% render_once "' + REPORT + '" turn=turn notes=notes segments=segments '
                'fog_hides=fog_hides %}')


@pytest.fixture(autouse=True)
def _empty_memo():
    RENDERED_ONCE.clear()
    yield
    RENDERED_ONCE.clear()


def once(**values) -> str:
    return ONCE.render(Context(values))


def test_a_player_in_the_fog_is_not_shown_the_report_drawn_for_a_spectator_who_sees_all():
    quiet = {"turn": 3, "notes": [], "segments": [{"segment": 1, "entries": []}]}
    seeing_all = once(**quiet, fog_hides=False)
    in_the_fog = once(**quiet, fog_hides=True)
    assert "Nothing happened." in seeing_all
    assert "Nothing you could see through the fog." in in_the_fog
    assert "Nothing happened." not in in_the_fog


def test_text_one_page_marked_safe_is_escaped_on_a_page_that_did_not():
    segments = [{"segment": 1, "entries": []}]
    trusted = once(turn=1, notes=[{"text": mark_safe("<b>Ana</b> slipped")}], segments=segments, fog_hides=False)
    untrusted = once(turn=1, notes=[{"text": "<b>Ana</b> slipped"}], segments=segments, fog_hides=False)
    assert "<b>Ana</b> slipped" in trusted
    assert "&lt;b&gt;Ana&lt;/b&gt; slipped" in untrusted


line = st.fixed_dictionaries({"kind": st.sampled_from(["move", "collect", "note"]),
                              "text": st.text(max_size=30)})
segment = st.fixed_dictionaries({"segment": st.integers(1, 3), "entries": st.lists(line, max_size=3)})


@settings(max_examples=60, deadline=None)
@given(turn=st.integers(1, 10), notes=st.lists(st.fixed_dictionaries({"text": st.text(max_size=30)}), max_size=2),
       segments=st.lists(segment, max_size=3), fog_hides=st.booleans(),
       other_segments=st.lists(segment, max_size=3), other_fog=st.booleans())
def test_a_shared_part_is_what_the_page_drew_for_that_viewer_alone(turn, notes, segments, fog_hides,
                                                                   other_segments, other_fog):
    once(turn=turn, notes=notes, segments=other_segments, fog_hides=other_fog)  # another viewer's, drawn first
    values = {"turn": turn, "notes": notes, "segments": segments, "fog_hides": fog_hides}
    assert once(**values) == render_to_string(REPORT, values)
    assert once(**values) == render_to_string(REPORT, values)  # and again, from the memo


ROW = Template("{% load games_tags %}{% players_row payload seat %}")
LOG = Template('{% load games_tags %}{% render_once "games/log_lines.html" log=log %}')


def player(seat: int, **extra) -> dict:
    return {"seat": seat, "name": f"Player {seat}", "username": None, "user_id": seat + 1, "is_bot": False,
            "team": None, "team_leader": False, "empty": False, **extra}


def row(seat: int | None, **payload) -> str:
    base = {"players": [player(0), player(1), player(2)], "waiting_for": [], "resigned": [], "handed": [],
            "status": "active"}
    return ROW.render(Context({"payload": {**base, **payload}, "seat": seat}))


def test_each_player_sees_only_its_own_name_marked_as_theirs_whoever_drew_the_row_first():
    for first in (None, 0, 1, 2):  # the memo filled by another viewer first
        RENDERED_ONCE.clear()
        row(first)
        assert "(you)" not in row(None)
        for seat in (0, 1, 2):
            page = row(seat)
            assert page.count("(you)") == 1
            assert f"Player {seat} (you)" in page


def test_the_players_asked_now_are_marked_to_act_and_no_others():
    page = row(None, waiting_for=[2], resigned=[1])
    spans = page.split('<span class="player')[1:]
    assert ["to act" in span for span in spans] == [False, False, True]
    assert ["resigned" in span for span in spans] == [False, True, False]
    assert "to act" not in row(None, waiting_for=[2], status="finished")


def test_a_log_line_one_viewer_may_read_is_not_on_the_log_of_one_who_may_not():
    public = [{"seq": 1, "type": "play", "text": "Ana threw"}]
    private = public + [{"seq": 2, "type": "draw", "text": "You drew the Snow Fort"}]
    assert "Snow Fort" in LOG.render(Context({"log": private}))
    assert "Snow Fort" not in LOG.render(Context({"log": public}))
    assert LOG.render(Context({"log": []})) == '<li class="muted">Nothing has happened yet.</li>'
    newest_first = LOG.render(Context({"log": private}))
    assert newest_first.index("Snow Fort") < newest_first.index("Ana threw")
