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
