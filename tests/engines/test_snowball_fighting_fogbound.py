"""The Fogbound variant at its boundaries: the garden, options, fog and vision, the opening, the
pond, gnomes, the wheelbarrow, sounds and shouts, provisional orders and the end."""
from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import BadAction, IllegalAction
from games.engines.snowball_fighting import RULESET as R
from games.engines.snowball_fighting import engine as E
from games.engines.snowball_fighting import fog as F
from games.engines.snowball_fighting.garden import FOGBOUND as G
from games.engines.snowball_fighting.garden import KITCHEN
from games.engines.snowball_fighting.views import map_view
from tests.engines.test_snowball_fighting_helpers import STAND, dice, put, turn  # noqa: F401

FOG = {"map": "fogbound"}


def fog_started(players: int = 2, *, seed: int = 1, **options) -> dict:
    """A Fogbound game at the start of turn 1: seat x is "P<x>" on the x-th start hex."""
    s = R.new_game(players=players, options={**FOG, **options}, seed=seed)
    for seat in range(players):
        s, _ = R.apply(s, seat, {"type": "setup", "name": f"Player {seat}", "starts": [G.starts[seat]], "ready": True})
    return s


def fog_arena(positions: dict[int, str], players: int | None = None, *, turn_no: int = 3, gnomes=(),
              vision: int = 2, **options) -> dict:
    """A Fogbound game past the opening (turn 3) with combatants where asked, the gnomes where
    asked (none by default) and the given vision."""
    n = players or max(2, len(positions))
    s = fog_started(n, **options)
    spare = ["A1", "AD12", "B12", "AC1", "A11", "AB12"]
    for seat in range(n):
        s = put(s, seat, positions.get(seat) or next(h for h in spare if h not in positions.values()))
        if seat not in positions:
            spare.remove(s["combatants"][seat]["hex"])
    s["turn"] = turn_no
    s["fog"]["gnomes"] = list(gnomes)
    s["fog"]["vision"] = vision
    return s


def move(*route, **more):
    return {"type": "move", "route": list(route), **more}


def hexes(s):
    return [c["hex"] for c in s["combatants"]]


def dynamic(view: dict) -> str:
    """A view as JSON without its static map drawing (which names every hex of the garden)."""
    return json.dumps({k: v for k, v in view.items() if k != "map"})


# --------------------------------------------------------------------------- the garden and options


def test_the_fogbound_garden_is_15_hexes_long_and_12_wide_with_the_books_features():
    assert G.cols == 12 and len(G.hexes) == 180
    for col in range(1, 13):
        assert len([h for h in G.hexes if int(h.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) == col]) == 15
    # footpaths along the west and east edges and the north fence, each to a kitchen door
    assert {h for h in G.hexes if F.garden_coords(G, h)[1] in (1, 12)} <= G.path
    assert {"A1", "B2", "A11", "B12", "AC1", "AD12"} <= G.path
    assert G.kitchen_doors == ("AC1", "AD12") and set(G.neighbours(KITCHEN)) == {"AC1", "AD12"}
    assert G.cheapest_route("B2", "B12") is not None and all(h in G.path for h in G.cheapest_route("A1", "B12"))
    assert len(G.snowmen) == 3 and len(G.conifers) == 3 and len(G.pond) == 2
    assert G.adjacent(*sorted(G.pond))
    row, col = F.garden_coords(G, G.shed)
    assert row < 15 and col <= 6  # north-west
    assert any(F.garden_coords(G, c)[0] < 15 and F.garden_coords(G, c)[1] > 6 for c in G.conifers)  # north-east
    assert all(F.garden_coords(G, p)[0] in (14, 15) and F.garden_coords(G, p)[1] in (6, 7) for p in G.pond)
    assert G.wheelbarrow and G.wheelbarrow not in G.path
    assert G.fences == ("N", "E", "W")


def test_the_map_view_draws_pond_wheelbarrow_fences_paths_and_doors_but_no_gnomes():
    m = map_view("fogbound")
    assert m["pond"] == ["O7", "P6"] and m["wheelbarrow"] == "T8" and m["fences"] == ["N", "E", "W"]
    assert m["kitchen_doors"] == ["AC1", "AD12"] and len(m["rows"]) == 30 and m["rows"][-1] == "AD"
    assert "gnomes" not in json.dumps(m)
    assert map_view("garden")["pond"] == [] and map_view("garden")["kitchen_doors"] == ["W11"]


def test_creation_options_choose_fogbound_and_what_spectators_see():
    assert E.normalize_options({"map": "fogbound"})["spectators_see_all"] is False
    assert E.normalize_options({"map": "fogbound", "spectators_see_all": True, "rule14": True})["rule14"]
    assert "spectators_see_all" not in E.normalize_options({})
    with pytest.raises(BadAction, match="spectators_see_all is for the Fogbound garden"):
        E.normalize_options({"spectators_see_all": True})
    with pytest.raises(BadAction, match="spectators_see_all must be true or false"):
        E.normalize_options({"map": "fogbound", "spectators_see_all": "yes"})
    with pytest.raises(BadAction, match="option map must be one of garden, fogbound"):
        E.normalize_options({"map": "moor"})
    assert "fog" not in R.view(R.new_game(players=2, options={}, seed=1), None)


def test_the_seeded_generator_places_three_hidden_gnomes_away_from_the_start_corners():
    placements = set()
    for seed in range(20):
        s = fog_started(3, seed=seed)
        gnomes = s["fog"]["gnomes"]
        assert len(set(gnomes)) == 3
        for g in gnomes:
            assert all(G.distance(g, start) >= 3 for start in G.starts)
            assert g not in G.path | G.pond | {G.shed, G.wheelbarrow, *G.conifers, *G.snowmen}
        placements.add(tuple(gnomes))
        for viewer in (None, 0, 1, 2):
            view = dynamic(R.view(s, viewer))
            assert not any(f'"{g}"' in view for g in gnomes), viewer
    assert len(placements) > 15
    assert fog_started(3, seed=4)["fog"]["gnomes"] == fog_started(3, seed=4)["fog"]["gnomes"]


# --------------------------------------------------------------------------- sight


def test_a_seat_sees_only_the_hexes_within_its_vision_and_who_stands_there():
    s = fog_arena({0: "K5", 1: "K9", 2: "M5"}, players=3)  # K9 is 4 hexes east, M5 next to K5
    v = R.view(s, 0)
    assert set(v["fog"]["visible"]) == G.within("K5", 2) and v["fog"]["vision"] == 2
    assert [c["seen"] for c in v["combatants"]] == [True, False, True]
    assert v["combatants"][1] == {"seat": 1, "name": "Player 1", "seen": False, "vp": 0}
    assert '"K9"' not in dynamic(v)
    s["fog"]["vision"] = 4
    assert R.view(s, 0)["combatants"][1]["hex"] == "K9"


def test_spectators_see_no_positions_unless_the_creator_chose_so_and_everything_after_the_game():
    s = fog_arena({0: "K5", 1: "K9"})
    v = R.view(s, None)
    assert not any(c["seen"] for c in v["combatants"]) and v["fog"]["visible"] == [] and v["fog"]["vision"] == 2
    seeing = fog_arena({0: "K5", 1: "K9"}, spectators_see_all=True)
    v = R.view(seeing, None)
    assert all(c["seen"] for c in v["combatants"]) and len(v["fog"]["visible"]) == 180
    assert R.view(seeing, 0)["combatants"][1]["seen"] is False  # the seats still play in the fog
    s["phase"] = "over"
    assert all(c["seen"] for c in R.view(s, None)["combatants"])
    assert sorted(R.view(s, 1)["fog"]["gnomes"]) == sorted(s["fog"]["gnomes"])


def test_the_report_shows_a_seat_only_what_it_saw_in_each_segment(dice):
    s = fog_arena({0: "K3", 1: "K9", 2: "S3"}, players=3)
    s = put(s, 1, "K9", ss=2)
    dice([61])  # the vision roll: unchanged
    s2, events = turn(s, {1: [move("M9", "N8"), STAND, STAND], 0: [move("L4"), STAND, STAND]})
    seg1 = R.view(s2, 0)["report"]["segments"][0]
    assert set(seg1["visible"]) == G.within("K3", 2) | G.within("L4", 2)
    seen_hexes = set(seg1["visible"])
    for m in seg1["moves"]:
        assert {h for h in [m["from"], m["to"], *m["route"]] if h} <= seen_hexes
    assert all(str(k) in ("0",) or h in seen_hexes for k, h in seg1["positions"].items())
    assert "2" not in seg1["positions"]  # S3 is far out of sight
    assert all(not (e.get("seat") == 2) for e in seg1["events"])
    moved = next(e for e in events if e["type"] == "move" and e["seat"] == 1)
    assert 0 not in moved["visible_to"] and 1 in moved["visible_to"] and None not in moved["visible_to"]


# --------------------------------------------------------------------------- vision


@pytest.mark.parametrize("roll, before, after", [(1, 2, 3), (50, 2, 3), (51, 2, 1), (60, 2, 1), (61, 2, 2),
                                                 (100, 2, 2), (55, 1, 1), (50, 1, 2)])
def test_vision_grows_half_the_time_shrinks_a_tenth_and_never_below_one(dice, roll, before, after):
    s = fog_arena({0: "K5", 1: "K9"}, vision=before)
    dice([roll])
    s2, events = turn(s, {})
    assert s2["fog"]["vision"] == after
    vision = next(e for e in events if e["type"] == "vision")
    assert vision["roll"] == roll and "visible_to" not in vision  # reported to everyone
    assert R.view(s2, None)["fog"]["vision"] == after == R.view(s2, 1)["fog"]["vision"]
    assert R.view(s2, None)["report"]["vision"] == {"roll": roll, "before": before, "vision": after}


# --------------------------------------------------------------------------- the opening


def test_no_snow_is_thrown_in_the_two_opening_turns():
    s = fog_arena({0: "K5", 1: "M5"}, turn_no=1)
    rattle = {"type": "rattlesnake", "target": 1}
    for turn_no in (1, 2):
        s["turn"] = turn_no
        with pytest.raises(IllegalAction, match="no snow is thrown in the first 2 turns"):
            R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, rattle]})
        assert R.view(s, 0)["you"]["orders_help"]["throwing"] is False
    s["turn"] = 3
    R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, rattle]})
    assert R.view(s, 0)["you"]["orders_help"]["throwing"] is True
    s["turn"] = 1
    R.apply(s, 0, {"type": "orders", "segments": [move("L6"), {"type": "collect", "what": "ss", "count": 1}, STAND]})


def test_in_the_opening_a_route_into_the_pond_swerves_round_it(dice):
    s = fog_arena({0: "N6", 1: "AD12"}, turn_no=1)
    dice([61])
    s2, events = turn(s, {0: [move("O7", "Q7"), STAND, STAND]})
    c = s2["combatants"][0]
    assert c["hex"] == "Q7" and c["hp"] == 10 and c["status"] == "fighting"
    assert s2["report"]["segments"][0]["moves"][0]["route"] == ["M7", "N8", "P8", "Q7"]
    assert any(e["type"] == "swerve" and "pond" in e["text"] for e in events)
    assert not any(e["type"] == "splash" for e in events)


# --------------------------------------------------------------------------- the pond


def test_entering_the_pond_loses_every_hp_and_sends_you_to_the_kitchen(dice):
    s = fog_arena({0: "N6", 1: "AD12"})
    dice([61, 61])
    s2, events = turn(s, {0: [move("O7", "Q7"), STAND, STAND]})
    c = s2["combatants"][0]
    assert s2["report"]["segments"][0]["positions"]["0"] == "O7" and c["taken"] == 10
    assert [x["vp"] for x in s2["combatants"]] == [0, 0]
    assert any(e["type"] == "splash" and e["seat"] == 0 for e in events)
    assert c["status"] in ("running", "drying") and c["hex"] in (*G.kitchen_doors[1:], KITCHEN, "AB12")
    s3, _ = turn(s2, {})
    assert s3["combatants"][0]["hex"] == KITCHEN
    moves = [m for seg in s2["report"]["segments"] + s3["report"]["segments"] for m in seg["moves"] if m["seat"] == 0]
    assert not any(h in G.pond for m in moves[1:] for h in m["route"])  # the run goes round the pond


def test_a_splash_is_heard_by_those_who_cannot_see_it(dice):
    s = fog_arena({0: "N6", 1: "O11", 2: "AD12"}, players=3)  # O11 is 4 hexes east of O7
    dice([61])
    s2, _ = turn(s, {0: [move("O7"), STAND, STAND]})
    heard = [x for x in s2["fog"]["sounds"][1] if x["kind"] == "splash"]
    assert heard == [{"turn": 3, "segment": 1, "kind": "splash", "direction": "W", "distance": "middling",
                      "text": "A splash to the west, a little way off."}]
    assert [x["kind"] for x in s2["fog"]["sounds"][2]] == ["splash"] and s2["fog"]["sounds"][2][0]["distance"] == "far"
    assert s2["fog"]["sounds"][0] == []  # the splasher saw it


# --------------------------------------------------------------------------- gnomes


@pytest.mark.parametrize("route, gnome, risky", [(["L6"], "N6", 1), (["L6", "K7"], "J6", 2),
                                                (["L6", "K7", "L8"], "M7", 3)])
def test_a_gnome_trips_30_percent_a_hex_entered_at_or_next_to_it(dice, route, gnome, risky):
    """R14: one roll a segment against 30% for each entered hex holding or next to a gnome."""
    needed = 30 * risky
    base = put(fog_arena({0: "K5", 1: "AD12"}, gnomes=[gnome]), 0, "K5", ss=2)
    assert sum(h in E._gnome_zone(base, [gnome]) for h in route) == risky
    for roll, falls in ((needed, True), (needed + 1, False)):
        dice([roll, 61])
        s2, events = turn(base, {0: [move(*route), STAND, STAND]})
        fall = [e for e in events if e["type"] == "fall"]
        assert bool(fall) == falls, roll
        if falls:
            assert fall[0]["needed"] == needed and s2["combatants"][0]["ss"] == 0
            assert s2["combatants"][0]["tally"]["broken"][0] == 2
        else:
            assert s2["combatants"][0]["hex"] == route[-1] and s2["combatants"][0]["ss"] == 2


def test_a_fall_ends_the_move_where_the_running_chance_reaches_the_roll(dice):
    s = put(fog_arena({0: "K5", 1: "AD12"}, gnomes=["M7"]), 0, "K5", ss=1, dd=0)
    for roll, where in ((30, "L6"), (31, "K7"), (60, "K7"), (61, "L8"), (90, "L8")):
        dice([roll, 61])
        s2, _ = turn(s, {0: [move("L6", "K7", "L8"), STAND, STAND]})
        assert s2["combatants"][0]["hex"] == where, roll
        assert s2["combatants"][0]["ss"] == 0


def test_gnomes_trip_in_the_opening_too(dice):
    s = put(fog_arena({0: "K5", 1: "AD12"}, gnomes=["M7"], turn_no=1), 0, "K5", ss=2)
    dice([30, 61])
    s2, events = turn(s, {0: [move("L6", "K7", "L8"), STAND, STAND]})
    assert s2["combatants"][0]["hex"] == "L6" and any(e["type"] == "fall" for e in events)


def test_conditions_about_other_seats_count_only_those_in_sight(dice):
    """Rule 13 in the fog: "an opponent within 6" and "seat 1 within 6" ask about those in sight."""
    cond = {"type": "conditional", "cases": [{"when": {"if": "opponent_within", "value": 6},
                                               "then": {"type": "collect", "what": "ss", "count": 1}}],
            "otherwise": STAND}
    s = fog_arena({0: "K3", 1: "K7"}, rule13=True)  # 4 hexes apart, vision 2
    dice([61])
    s2, _ = turn(s, {0: [STAND, STAND, cond]})
    assert s2["combatants"][0]["ss"] == 2
    s["fog"]["vision"] = 4
    dice([61])
    s3, _ = turn(s, {0: [STAND, STAND, cond]})
    assert s3["combatants"][0]["ss"] == 3


def test_a_gnome_is_found_only_at_the_end_of_a_turn_within_vision(dice):
    s = fog_arena({0: "K3", 1: "AD12"}, gnomes=["K9"])
    dice([61])  # K7 is 2 hexes from K9: the gnome comes into sight when the turn ends
    s2, events = turn(s, {0: [move("L4", "K5"), move("L6", "K7"), STAND]})
    assert R.view(s, 0)["fog"]["gnomes"] == []
    assert R.view(s2, 0)["fog"]["gnomes"] == ["K9"] and R.view(s2, 1)["fog"]["gnomes"] == []
    found = next(e for e in events if e["type"] == "gnome_found")
    assert found["visible_to"] == [0]
    assert '"K9"' not in dynamic(R.view(s2, 1)) and '"K9"' not in dynamic(R.view(s2, None))


# --------------------------------------------------------------------------- the wheelbarrow


def test_the_wheelbarrow_gives_three_dirigibles_then_is_empty(dice):
    barrow = {"type": "collect", "what": "barrow"}
    s = fog_arena({0: "T8", 1: "AB10"})
    dice([61])
    s2, _ = turn(s, {0: [barrow, barrow, barrow]})
    assert s2["combatants"][0]["dd"] == 3 and s2["fog"]["barrow"] == 0
    assert R.view(s2, 0)["fog"]["wheelbarrow"] == 0 and R.view(s2, 1)["fog"]["wheelbarrow"] is None
    dice([61])
    s3, events = turn(s2, {0: [barrow, STAND, STAND]})
    assert s3["combatants"][0]["dd"] == 3 and any(e["type"] == "barrow_empty" for e in events)
    with pytest.raises(IllegalAction, match="only on its hex"):
        R.apply(s, 1, {"type": "orders", "segments": [barrow, STAND, STAND]})


def test_a_head_taken_out_of_sight_is_found_gone_only_on_reaching_it(dice):
    """An order names what the seat can know: a snowman's head taken where it cannot see is
    still there for its orders, and the fog hides it until the resolution finds none."""
    s = fog_arena({0: "Y9", 1: "X6"}, vision=1)
    dice([61])
    s, _ = turn(s, {1: [{"type": "collect", "what": "head"}, move("V6"), STAND]})
    assert s["used"]["heads"] == ["X6"] and "X6" not in F.visible_now(s, 0)
    assert R.view(s, 0)["used"]["heads"] == []
    collect = [move("X8", "W7", "X6"), {"type": "collect", "what": "head"}, STAND]
    dice([61])
    s2, events = turn(s, {0: collect})
    assert s2["combatants"][0]["dd"] == 0
    assert any("but there is none" in e.get("text", "") for e in events)


# --------------------------------------------------------------------------- throws and sounds


def test_a_throw_at_someone_out_of_sight_is_not_thrown(dice):
    s = put(fog_arena({0: "K3", 1: "K9"}), 0, "K3", ss=2)
    dice([61])
    s2, events = turn(s, {0: [{"type": "rattlesnake", "target": 1}, STAND, STAND]})
    assert s2["combatants"][0]["ss"] == 2 and not any(e["type"] == "roll" for e in events)
    assert any(e["type"] == "no_target" for e in events)


def test_a_throw_at_the_nearest_opponent_with_nobody_in_sight_says_so(dice):
    s = put(fog_arena({0: "K3", 1: "K9"}), 0, "K3", ss=2)
    dice([61])
    s2, events = turn(s, {0: [{"type": "rattlesnake", "target": "nearest"}, STAND, STAND]})
    held = [e["text"] for e in s2["report"]["segments"][0]["events"] if e["type"] == "no_target"]
    assert held == [f"{s['combatants'][0]['name']} holds the Rogerson Rattlesnake: no opponent in sight can be hit now."]
    assert s2["combatants"][0]["ss"] == 2


def test_a_throw_is_seen_by_those_in_sight_and_heard_by_the_rest(dice):
    s = put(fog_arena({0: "K3", 1: "K7", 2: "AD12"}, players=3, vision=4), 1, "K7", ss=2)
    dice([10, 61])
    s2, events = turn(s, {1: [{"type": "rattlesnake", "target": 0}, STAND, STAND]})
    assert s2["combatants"][0]["hp"] == 9
    seen = [e for seg in R.view(s2, 0)["report"]["segments"] for e in seg["events"] if e["type"] == "damage"]
    assert seen and seen[0]["thrower"] == 1
    assert s2["fog"]["sounds"][0] == []
    heard = s2["fog"]["sounds"][2]
    assert [(x["kind"], x["distance"]) for x in heard] == [("throw", "far")]
    assert not any(e["type"] in ("roll", "damage") for seg in R.view(s2, 2)["report"]["segments"]
                   for e in seg["events"])
    roll = next(e for e in events if e["type"] == "roll")
    assert roll["visible_to"] == [0, 1]


def test_a_hit_by_someone_out_of_sight_reads_as_out_of_the_fog():
    event = {"type": "damage", "seat": 0, "thrower": 1, "hp": 1, "cause": "Rogerson Rattlesnake",
             "text": "P0 takes 1 HP from P1's Rogerson Rattlesnake: 9 HP left.",
             "unseen_text": "P0 takes 1 HP from a Rogerson Rattlesnake out of the fog: 9 HP left."}
    read = F.readable(G, event, 0, frozenset({"K3"}), frozenset())
    assert read["thrower"] is None and "P1" not in json.dumps(read) and "out of the fog" in read["text"]
    assert F.readable(G, event, 2, frozenset({"K3"}), frozenset({0})) is None
    assert F.readable(G, event, 0, frozenset({"K3"}), frozenset({1})) is event


@pytest.mark.parametrize("to, direction", [("C5", "N"), ("S5", "S"), ("K9", "E"), ("K1", "W"), ("M7", "SE"),
                                           ("I3", "NW"), ("G9", "NE"), ("O1", "SW")])
def test_sounds_come_from_one_of_eight_compass_points(to, direction):
    assert F.compass(G, "K5", to) == direction


@pytest.mark.parametrize("distance, band", [(1, "near"), (3, "near"), (4, "middling"), (7, "middling"),
                                            (8, "far"), (14, "far")])
def test_sounds_come_near_middling_or_far(distance, band):
    assert F.band(distance) == band


def test_a_fall_inside_the_kitchen_is_heard_by_nobody(dice):
    s = fog_arena({0: "Q1", 1: "K5"}, rule14=True)  # six path steps and in: 4 MF, full tilt
    dice([5, 61])
    s2, events = turn(s, {0: [move("S1", "U1", "W1", "Y1", "AA1", "AC1", KITCHEN), STAND, STAND]})
    assert s2["combatants"][0]["hex"] == KITCHEN and any(e["type"] == "disaster" for e in events)
    assert s2["fog"]["sounds"] == [[], []]


# --------------------------------------------------------------------------- shouts


def test_a_shout_is_heard_within_six_hexes_only_and_changes_no_orders():
    s = fog_arena({0: "K1", 1: "L8", 2: "K7", 3: "AD12"}, players=4)  # K7 is 6 hexes from K1, L8 7
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, STAND]})
    before = copy.deepcopy(s)
    s2, events = R.apply(s, 0, {"type": "shout", "text": "  Over   here! "})
    assert s2["orders"] == before["orders"] and s2["ready"] == before["ready"]
    assert R.view(s2, 0)["fog"]["sounds"] == [{"turn": 3, "kind": "shout", "direction": None, "distance": None,
                                               "text": "Over here!", "yours": True}]
    assert R.view(s2, 2)["fog"]["sounds"] == [{"turn": 3, "kind": "shout", "direction": "W", "distance": "middling",
                                               "text": "Over here!"}]
    for deaf in (1, 3, None):
        assert R.view(s2, deaf) == R.view(before, deaf), deaf
    assert events[0]["visible_to"] == [0, 2]
    far = put(s, 2, "K9")
    s3, _ = R.apply(far, 0, {"type": "shout", "text": "hello"})
    assert R.view(s3, 2) == R.view(far, 2)


def test_a_ready_seat_may_still_shout_and_stays_ready():
    s = fog_arena({0: "K1", 1: "K5", 2: "AD12"}, players=3)
    s, _ = R.apply(s, 0, {"type": "orders", "segments": [STAND, STAND, STAND], "ready": True})
    s2, _ = R.apply(s, 0, {"type": "shout", "text": "ready when you are"})
    assert s2["ready"] == s["ready"] and s2["phase"] == "orders"


@pytest.mark.parametrize("action, error, match", [
    ({"type": "shout"}, BadAction, "text must be"),
    ({"type": "shout", "text": "   "}, BadAction, "text must be"),
    ({"type": "shout", "text": 5}, BadAction, "text must be"),
    ({"type": "shout", "text": "x" * 201}, BadAction, "at most 200 characters; this one has 201"),
    ({"type": "shout", "text": "a\x00b"}, BadAction, r"a control character \(U\+0000\)"),
    ({"type": "shout", "text": "a\u200bb"}, BadAction, r"an invisible formatting character \(U\+200B\)"),
    ({"type": "shout", "text": "a\u202eb"}, BadAction, r"a bidirectional override \(U\+202E\)"),
])
def test_a_malformed_shout_is_refused_and_changes_nothing(action, error, match):
    s = fog_arena({0: "K1", 1: "K5"})
    with pytest.raises(error, match=match):
        R.apply(s, 0, action)
    R.apply(s, 0, {"type": "shout", "text": "x" * 200})


def test_nobody_shouts_during_the_setup_or_after_the_game():
    s = R.new_game(players=2, options=FOG, seed=1)
    with pytest.raises(IllegalAction, match="only while orders are being written"):
        R.apply(s, 0, {"type": "shout", "text": "hi"})
    over = fog_arena({0: "K1", 1: "K5"})
    over["phase"] = "over"
    with pytest.raises(IllegalAction, match="the game is over"):
        R.apply(over, 0, {"type": "shout", "text": "hi"})


def test_nobody_shouts_in_the_snow_or_from_the_kitchen():
    from tests.engines.test_snowball_fighting_helpers import started
    with pytest.raises(IllegalAction, match="Fogbound"):
        R.apply(started(2), 0, {"type": "shout", "text": "hi"})
    s = put(fog_arena({0: "K1", 1: "K5"}), 0, KITCHEN)
    with pytest.raises(IllegalAction, match="nobody in the garden can hear you"):
        R.apply(s, 0, {"type": "shout", "text": "hi"})


# --------------------------------------------------------------------------- provisional orders


def test_a_provisional_move_stands_still_instead_of_stepping_into_the_pond(dice):
    s = fog_arena({0: "N6", 1: "AD12"})
    dice([61])
    s2, events = turn(s, {0: [move("O7", "Q7", if_hazard="stand"), STAND, STAND]})
    assert s2["combatants"][0]["hex"] == "N6" and s2["combatants"][0]["hp"] == 10
    assert any("stands still instead" in e["text"] for e in events)
    dice([61, 61])
    s3, _ = turn(s, {0: [move("M7", "O7", if_hazard="stand"), STAND, STAND]})  # only the first step is checked
    assert s3["combatants"][0]["hp"] == 0


def test_a_provisional_move_avoids_gnomes_only_once_they_are_found(dice):
    s = fog_arena({0: "K5", 1: "AD12"}, gnomes=["N6"])  # L6 is next to the gnome
    dice([99, 61])  # unfound: the move goes ahead (and the gnome roll misses)
    s2, _ = turn(s, {0: [move("L6", if_hazard="stand"), STAND, STAND]})
    assert s2["combatants"][0]["hex"] == "L6"
    s["fog"]["found"][0] = ["N6"]
    dice([61])
    s3, _ = turn(s, {0: [move("L6", if_hazard="stand"), STAND, STAND]})
    assert s3["combatants"][0]["hex"] == "K5"


def test_provisional_orders_are_checked_and_described():
    s = fog_arena({0: "K5", 1: "AD12"})
    with pytest.raises(BadAction, match="if_hazard must be 'stand'"):
        R.apply(s, 0, {"type": "orders", "segments": [move("L6", if_hazard="jump"), STAND, STAND]})
    s2, _ = R.apply(s, 0, {"type": "orders", "segments": [move("L6", if_hazard="stand"), STAND, STAND]})
    assert R.view(s2, 0)["you"]["orders"][0]["if_hazard"] == "stand"
    assert "if_hazard" in R.view(s2, 0)["you"]["orders_help"]["provisional"]
    from tests.engines.test_snowball_fighting_helpers import arena
    with pytest.raises(IllegalAction, match="Fogbound"):
        R.apply(arena({0: "G5", 1: "W1"}), 0,
                {"type": "orders", "segments": [move("I5", if_hazard="stand"), STAND, STAND]})


# --------------------------------------------------------------------------- the end


def test_the_game_ends_at_12_vps(dice):
    s = put(fog_arena({0: "K5", 1: "L6"}), 0, "K5", ss=2, vp=11)
    start = copy.deepcopy(s)
    dice([10])
    s2, _ = turn(s, {0: [{"type": "rattlesnake", "target": 1}, STAND, STAND]})
    assert s2["phase"] == "over" and R.outcome(s2)["code"] == "victory" and R.outcome(s2)["winners"] == [0]
    assert R.view(s2, None)["combatants"][1]["seen"]  # everyone sees everything once it is over
    s = put(start, 0, "K5", ss=2, vp=10)
    dice([10, 61])
    assert turn(s, {0: [{"type": "rattlesnake", "target": 1}, STAND, STAND]})[0]["phase"] == "orders"


def test_the_game_ends_after_turn_10(dice):
    s = put(fog_arena({0: "K5", 1: "K9"}, turn_no=9), 1, "K9", vp=2)
    dice([61])
    s2, _ = turn(s, {})
    assert s2["phase"] == "orders" and s2["turn"] == 10
    dice([61])
    s3, _ = turn(s2, {})
    out = R.outcome(s3)
    # the book's own end (Fogbound 6), not the house ruling "Turn limit" of the snowy garden (60 turns)
    assert out["code"] == "fogbound_turns" and out["winners"] == [1]
    assert out["reason"] == "10 turns have been played, the end of a Fogbound game by the rule book"


# --------------------------------------------------------------------------- the kitchen's two doors


def test_a_combatant_comes_back_out_of_the_door_it_went_in_by(dice):
    s = put(fog_arena({0: "AB12", 1: "K5"}), 0, "AB12", hp=0, status="running")
    dice([61, 61, 61])
    for _ in range(2):
        s, _ = turn(s, {})
    assert s["combatants"][0]["hex"] == "AD12" and s["combatants"][0]["status"] == "fighting"
    assert R.view(s, 0)["you"]["orders_help"]["start"] == "AD12"


# --------------------------------------------------------------------------- the computer player


def bot_orders(s, seat=0):
    action = R.bot_action(s, seat)
    assert action["type"] == "orders"
    R.apply(s, seat, action)  # legal
    return action["segments"]


def walked(s, segments, seat=0):
    here, out = s["combatants"][seat]["hex"], []
    for order in segments:
        if order["type"] in ("move", "collect_move"):
            out += order["route"]
    return out


def test_the_bot_never_throws_in_the_opening_but_throws_at_what_it_sees_after():
    s = put(fog_arena({0: "K5", 1: "L6"}, turn_no=2), 0, "K5", ss=2, dd=1)
    assert not any(o["type"] in ("rattlesnake", "dirigible", "bolero", "baker") for o in bot_orders(s))
    s["turn"] = 3
    assert bot_orders(s)[0]["type"] in ("rattlesnake", "dirigible")


def test_the_bot_walks_towards_what_it_heard():
    s = put(fog_arena({0: "K3", 1: "AD12"}), 0, "K3", ss=2, dd=1)
    s["fog"]["sounds"][0] = [{"turn": 3, "segment": 2, "kind": "throw", "direction": "E", "distance": "far",
                              "text": "A snowball thrown to the east, far off."}]
    route = walked(s, bot_orders(s))
    assert route and F.garden_coords(G, route[-1])[1] >= 7  # east across the garden


@pytest.mark.parametrize("gnomes", [[], ["R8"]])
def test_the_bot_keeps_out_of_the_pond_and_away_from_gnomes_it_found(gnomes):
    """From J8 the cheapest way south runs through the pond (O7); with the gnome at R8 found,
    the way round it by P8, Q7 and S7 is barred too."""
    s = put(fog_arena({0: "J8", 1: "AD12"}, gnomes=gnomes), 0, "J8", ss=2, dd=1)
    s["fog"]["found"][0] = list(gnomes)
    s["fog"]["sounds"][0] = [{"turn": 3, "segment": 1, "kind": "splash", "direction": "S", "distance": "middling",
                              "text": "A splash to the south, a little way off."}]
    route = walked(s, bot_orders(s))
    assert route and F.garden_coords(G, route[-1])[0] > F.garden_coords(G, "J8")[0]
    assert not set(route) & (set(G.pond) | E._gnome_zone(s, gnomes))


def test_the_bot_makes_for_the_wheelbarrow_when_it_has_no_dirigible():
    s = put(fog_arena({0: "T6", 1: "AD12"}), 0, "T6", ss=2, dd=0)
    segments = bot_orders(s)
    assert {"type": "collect", "what": "barrow"} in segments
