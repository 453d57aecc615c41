"""The whole rule book on the rules pages of Snowball Fighting and What a Snowball!: every throw,
movement cost, hit-chance line, Kid type, Trait, Wild die use, cheating rule and ability card the
engine knows is on the page with the engine's own figures, each row with its anchor, and the
picture of the board is the game page's drawing of a real game."""
from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client

from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting import rules as SF
from games.engines.snowball_fighting import rulings as sf_rulings
from games.engines.snowball_fighting.garden import GARDEN, MF_PER_SEGMENT
from games.engines.what_a_snowball import kids as K
from games.engines.what_a_snowball import rulings as was_rulings
from games.engines.what_a_snowball.common import LONG_RANGE_NEEDS, RANGE_BANDS, can_cheat, throw_modifiers
from games.engines.what_a_snowball.engine import RULESET as WAS

pytestmark = pytest.mark.django_db


class Page(HTMLParser):
    """Every element id of a page, and the text of each cell of every table row that has one."""

    def __init__(self, html: str):
        super().__init__()
        self.ids: list[str] = []
        self.rows: dict[str, list[str]] = {}
        self.tables: dict[str, list[str]] = {}
        self._table: str | None = None
        self._row: str | None = None
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "table":
            self._table = attrs.get("id")
            self.tables[self._table] = []
        elif tag == "tr" and attrs.get("id"):
            self._row = attrs["id"]
            self.rows[self._row] = []
            self.tables[self._table].append(self._row)
        elif tag in ("td", "th") and self._row:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[self._row].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def page_of(slug: str) -> tuple[str, Page]:
    response = Client().get(f"/rules/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    return html, Page(html)


def anchor(prefix: str, key: str) -> str:
    return f"{prefix}-{key.replace('_', '-')}"


def words_after(name: str, text: str) -> bool:
    """``name`` is followed by words of its own explaining it (not straight by the next name)."""
    return re.search(re.escape(name) + r": [^\s:][^:]{8,}", text) is not None


@pytest.mark.parametrize("slug", ["snowball-fighting", "what-a-snowball"])
def test_every_part_of_a_rules_page_has_its_own_anchor_and_the_contents_link_to_each(slug):
    html, page = page_of(slug)
    assert [i for i, n in Counter(page.ids).items() if n > 1] == []
    module = {"snowball-fighting": sf_rulings, "what-a-snowball": was_rulings}[slug]
    for part in module.BOOK:
        assert f'<section class="book-part" id="{part["id"]}">' in html
        assert html.count(f'href="#{part["id"]}"') == 2  # the contents and the part's own "#"
    for row_id in page.rows:
        assert f'href="#{row_id}"' in html
    assert html.index('id="how-to-play"') < html.index('id="the-rules"') < html.index('id="house-rulings"')


def test_every_throw_of_snowball_fighting_is_in_the_table_with_the_engines_figures():
    _, page = page_of("snowball-fighting")
    ammunition = {(1, 0): "1 simple snowball", (2, 0): "2 simple snowballs", (0, 1): "1 Dirigible", (0, 0): "none"}
    assert page.tables["throw-table"] == [f"throw-{key}" for key in SF.THROWS]
    for key, throw in SF.THROWS.items():
        name, reach, chance, damage, uses, words = page.rows[f"throw-{key}"]
        assert (name, reach, chance, damage) == (throw.name, f"{throw.range} hexes", f"{throw.chance}%",
                                                 f"{throw.damage} HP")
        assert uses == ammunition[(throw.ss, throw.dd)]
        assert len(words) > 40
    storm, avalanche = page.rows["throw-storm"][-1], page.rows["throw-avalanche"][-1]
    assert f"{SF.STORM_FALL_CHANCE}%" in storm and f"{SF.STORM_CONIFER_DAMAGE} HP" in storm
    assert f"{SF.STORM_AROUND_DAMAGE} HP" in storm
    assert f"slides {SF.AVALANCHE_CHANCE}%" in avalanche and f"{SF.AVALANCHE_SIDE_CHANCE}% of those" in avalanche
    assert f"at {SF.NEAREST_PENALTY:+d}%" in page.rows["throw-rattlesnake"][-1]


def test_snowball_fightings_movement_costs_and_every_hit_chance_line_are_the_engines():
    html, page = page_of("snowball-fighting")
    half = {"mf-segment": MF_PER_SEGMENT, "mf-collect-ss": SF.COLLECT_COST["ss"],
            "mf-collect-dd": SF.COLLECT_COST["dd"], "mf-collect-head": SF.COLLECT_COST["head"],
            "mf-path": GARDEN.step_cost("A11", "C11"), "mf-step": GARDEN.step_cost("A1", "C1")}
    for row_id, cost in half.items():
        assert page.rows[row_id][1] == f"{cost / 2:g}", row_id
    lines = {row[0]: row[1] for row in (page.rows[r] for r in page.tables["hit-lines"])}
    facts = [{"collected": 2}, {"collected": 1}, {"moved": 0}, {"moved": 2}, {"moved": 4}, {"big_hit_last": True},
             {"hex": "R8"}, {"hex": "Q7"}, {"hex": "Q3"}, {"action": "maniac"},
             {"action": "baker", "bounce_spot": True}, {"action": "bolero"}, {"nmr": True}]
    found = [m for f in facts for m in SF.target_modifiers(GARDEN, f)]
    found += SF.thrower_modifiers(big_hit_last=True, conditional=True)
    assert len(found) == 15
    for label, value in found:
        assert lines.get(label) == f"{value:+d}%", label
    assert lines[SF.M_NEAREST] == f"{SF.NEAREST_PENALTY:+d}%"
    assert lines["Target closer than the throw's range, per hex"] == f"{SF.range_modifier(3, 4)[1]:+d}%"
    assert lines["Target beyond the throw's range, per hex"] == f"{SF.range_modifier(5, 4)[1]:+d}%"
    assert f"01 to {SF.ALWAYS_HITS:02d} always hits and {SF.ALWAYS_MISSES} to 00 always misses" in html
    rule12 = html[html.index('id="rule-12"'):html.index('id="rule-13"')]
    rule14 = html[html.index('id="rule-14"'):html.index('id="fogbound"')]
    assert f"{SF.DISASTER_DAMAGE} HP" in rule12 and f"{SF.SLIP_CHANCE}% chance" in rule14
    fogbound = html[html.index('id="fogbound"'):]
    fogbound = fogbound[:fogbound.index("</section>")]
    assert f"reaches {F.VICTORY_VPS} VPs" in fogbound and f"after turn {F.MAX_TURNS}" in fogbound
    assert f"{F.GNOME_CHANCE}%" in fogbound and f"within {F.SHOUT_RANGE} hexes" in fogbound


def test_the_snowball_fighting_page_draws_the_garden_of_a_new_game():
    html, _ = page_of("snowball-fighting")
    board = html[html.index('id="rules-board"'):html.index("</figure>")]
    assert '<svg class="sf-map"' in board
    assert re.findall(r'data-hex="([A-W]\d+)"', board) == list(GARDEN.hexes)
    assert len(re.findall(r'<g class="sf-start"', board)) == len(GARDEN.starts)
    assert len(re.findall(r'<g class="sf-conifer"', board)) == len(GARDEN.conifers)
    assert html.index('id="the-garden"') < html.index('id="rules-board"') < html.index('id="turns"')


def test_every_kid_type_trait_and_card_of_what_a_snowball_is_on_the_page_with_the_engines_figures():
    _, page = page_of("what-a-snowball")
    assert page.tables["type-table"] == [anchor("type", kind) for kind in K.TYPES]
    for kind, t in K.TYPES.items():
        label, worth, traits, gather, rules = page.rows[anchor("type", kind)]
        assert (label, worth) == (t["label"], f"{t['worth']:g}")
        if t["fixed_traits"] is None:
            assert traits == f"{t['traits']} of your choice"
        else:
            assert traits == (" and ".join(K.TRAIT_LABELS[x] for x in t["fixed_traits"]) or "none")
        assert gather == f"makes Size {t['gather']} or adds {t['gather']}"
        for benefit in K.BENEFITS[kind]:
            assert words_after(benefit, rules), (kind, benefit)
    for trait in K.TRAITS:
        label, five, why = page.rows[anchor("trait", trait)]
        assert (label, five) == (K.TRAIT_LABELS[trait], K.ACTION_LABELS[K.TRAIT_ACTION[trait]]) and why
    for face in range(1, 7):
        assert page.rows[f"face-{face}"][1] == K.ACTION_LABELS.get(K.FACES.get(face), "depends on the Trait")
    assert page.tables["card-table"] == [anchor("card", key) for key in K.CARDS]
    for key, card in K.CARDS.items():
        title, when, words = page.rows[anchor("card", key)]
        assert (title, when) == (card["title"], card["when"]) and len(words) > 20


def test_what_a_snowballs_range_modifiers_and_cheating_tables_are_the_engines():
    _, page = page_of("what-a-snowball")
    needs = [page.rows[r][1] for r in page.tables["range-table"]]
    assert needs == [str(n) for _, n in RANGE_BANDS] + [str(LONG_RANGE_NEEDS)]
    assert page.rows[f"range-{RANGE_BANDS[0][1]}"][0] == f"up to {RANGE_BANDS[0][0]:g}\""
    for kind in K.TYPES:
        assert page.rows.get(anchor("mod-at", kind), [None, "+0"])[1] == f"{roll_modifier('kid', kind):+d}", kind
        assert page.rows.get(anchor("mod-by", kind), [None, "+0"])[1] == f"{roll_modifier(kind, 'kid'):+d}", kind
        listed = page.rows[anchor("cheat", kind)][1]
        victims = {K.TYPES[v]["label"] for v in K.TYPES if can_cheat({"type": kind}, {"type": v})}
        assert set(re.split(r", | and ", listed)) - {"nobody"} == victims, kind
    modifiers = [page.rows[r] for r in page.tables["modifier-table"]]
    for size in range(2, K.MAX_SIZE + 1):
        bonus = f"{roll_modifier('kid', 'kid', size):+d}"
        assert any("Size" in when and str(size) in when and value == bonus for when, value in modifiers), size


def roll_modifier(thrower: str, target: str, size: int = 1) -> int:
    """The engine's Roll to Hit modifiers, added up, for a Kid of one type throwing at another."""
    kids = {"a": {"name": "A", "aims": 0, "type": thrower}, "b": {"name": "B", "aims": 0, "type": target}}
    return sum(m["value"] for m in throw_modifiers({"kids": kids}, "a", "b", size, []))


def test_every_use_the_engine_offers_for_a_wild_die_is_on_the_page():
    _, page = page_of("what-a-snowball")
    state = was_rulings.board_state()
    kid_id = state["activation"]["kid"]
    state["kids"][kid_id].update(down=True, command_dice=4)
    state["activation"] = {**state["activation"], "stage": "turn", "tray": [6]}
    seat = state["kids"][kid_id]["seat"]
    uses = {a["use"] for a in WAS.legal_actions(state, seat) if a["type"] == "wild"}
    assert uses == {"recover", "prepare", "get_up"}
    for use in uses:
        assert page.rows[anchor("wild", use)][1]
    as_other = page.rows["wild-as"][1]
    assert all(K.ACTION_LABELS[a] in as_other for a in K.ACTIONS)


def test_the_what_a_snowball_page_draws_the_village_of_a_real_game():
    html, _ = page_of("what-a-snowball")
    board = html[html.index('id="rules-board"'):html.index("</figure>")]
    view = WAS.view(was_rulings.board_state(), None)
    assert '<svg id="was-village"' in board
    assert len(re.findall(r'<g class="was-t[^"]*" data-id="t\d+"', board)) == len(view["village"]["terrain"])
    assert sorted(re.findall(r'data-kid="([^"]+)"', board)) == sorted(view["kids"])
    assert "data-action" not in board  # nothing on the picture can be clicked
    assert html.index('id="the-village"') < html.index('id="rules-board"') < html.index('id="activation"')
