"""A game's pace, deadlines the server keeps, ready, resign, absence, "my games" and e-mails,
as players and bots see them through the JSON API, the pages and the sockets."""
from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import time
import uuid
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from games import coordinator, engines, selectors, services
from games.engines.base import IllegalAction, Prompt
from games.errors import StaleVersion
from games.models import ActionRecord, ApiToken, Game
from games.state_cache import STATE_CACHE
from tests.engines.table_engine import TABLE, TEMPLATES_DIR, TableEngine, registered_table_engines

pytestmark = pytest.mark.django_db


class TimedTable(TableEngine):
    """The pile game with the engine's own time limit of 45 seconds a decision."""

    def to_act(self, state):
        return {seat: Prompt(kind=p.kind, text=p.text, timeout=45, default=p.default)
                for seat, p in super().to_act(state).items()}


class ResigningTable(TimedTable):
    """...whose rule for resigning: the next seat takes the whole pile, and so wins."""

    def resign(self, state, seat):
        new = {**state, "taken": list(state["taken"]), "pile": 0, "last": (seat + 1) % state["players"]}
        new["taken"][new["last"]] += state["pile"]
        return new, [{"type": "gives_up", "seat": seat, "text": f"{{p{seat}}} hands the pile over"}]


class SealedTable(TableEngine):
    """Both seats pick high or low in secret, the same question every round; a round reveals
    once both have picked, and the third round's reveal ends the game."""

    name = "Snowball Guess"
    reveal_events = frozenset({"reveal"})
    ROUNDS = 3

    def new_game(self, *, players, options, seed, teams=None):
        return {"seed": seed, "rng_counter": 0, "players": players, "teams": None, "round": 1,
                "picks": [None] * players, "highs": [0] * players}

    def to_act(self, state):
        if state["round"] > self.ROUNDS:
            return {}
        return {seat: Prompt(kind="sealed", text="Pick high or low", timeout=45, default={"type": "pick", "side": "low"})
                for seat, pick in enumerate(state["picks"]) if pick is None}

    def legal_actions(self, state, seat):
        if state["round"] > self.ROUNDS or state["picks"][seat] is not None:
            return []
        return [{"type": "pick", "side": "high"}, {"type": "pick", "side": "low"}]

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{{p{seat}}} cannot {action!r} now")
        new = copy.deepcopy(state)
        new["picks"][seat] = action["side"]
        events = [{"type": "picked", "seat": seat, "text": f"{{p{seat}}} has picked"}]
        if None not in new["picks"]:
            events.append({"type": "reveal", "text": f"round {new['round']}: " + ", ".join(new["picks"])})
            new["highs"] = [h + (pick == "high") for h, pick in zip(new["highs"], new["picks"])]
            new["picks"] = [None] * new["players"]
            new["round"] += 1
        return new, events

    def view(self, state, seat):
        return {"round": state["round"], "highs": state["highs"],
                "picked": [pick is not None for pick in state["picks"]]}

    def outcome(self, state):
        if state["round"] <= self.ROUNDS:
            return None
        return {"reason": "three rounds", "winners": [0], "scores": state["highs"]}

    def bot_action(self, state, seat):
        return {"type": "pick", "side": "low"}


TIMED = TimedTable(slug="timed-table-test", team_counts=())
RESIGNING = ResigningTable(slug="resigning-table-test", team_counts=())
SEALED = SealedTable(slug="sealed-table-test", team_counts=())


@pytest.fixture(autouse=True)
def boards_of_the_test_engines(settings):
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES_DIR]}]


@pytest.fixture(scope="module", autouse=True)
def test_engines():
    with registered_table_engines():
        engines.register(TIMED)
        engines.register(RESIGNING)
        engines.register(SEALED)
        yield


def _client(user) -> Client:
    _, key = ApiToken.issue(user=user, name="bot")
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def _post(client: Client, url: str, body: dict | None = None):
    return client.post(url, data=json.dumps(body or {}), content_type="application/json")


def _error(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.content
    return response.json()["error"]["message"]


def _table(host, *others, game_type: str = TIMED.slug, pace: str | None = None, seconds: int | None = None,
           bots: int = 0) -> Game:
    game = services.create_game(creator=host, game_type=game_type, num_seats=1 + len(others) + bots, pace=pace,
                                decision_seconds=seconds)
    for user in others:
        services.join_seat(game_id=game.pk, user=user)
    for _ in range(bots):
        services.add_bot(game_id=game.pk, user=host)
    services.start_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def _take(game_id: int, user, count: int = 1):
    game = selectors.get_game(game_id)
    return services.submit_action(game_id=game_id, user=user, action={"type": "take", "count": count},
                                  action_id=uuid.uuid4().hex, version=game.version)


def _rewind(game_id: int, seconds: float) -> None:
    """Let ``seconds`` pass for the game's deadlines, as if the server had been down meanwhile."""
    game = Game.objects.get(pk=game_id)
    for entry in game.prompts["seats"].values():
        for key in ("due", "deadline"):
            if entry.get(key):
                entry[key] -= seconds
    Game.objects.filter(pk=game_id).update(prompts=game.prompts, next_deadline=services.next_deadline(game))


def _restart() -> None:
    """A fresh process: nothing cached, a new coordinator, no sockets."""
    STATE_CACHE.clear()
    selectors.SNAPSHOTS.clear()
    selectors.PAYLOADS.clear()
    coordinator.reset_coordinator()


def _view(user, game_id: int) -> dict:
    return _client(user).get(f"/api/games/{game_id}/").json()


# ------------------------------------------------------------------ pace at creation


def test_a_bot_creates_a_game_by_the_day_and_every_view_says_its_pace(make_user):
    ana = make_user("Ana")
    api = _client(ana)
    created = _post(api, "/api/games/", {"game_type": TIMED.slug, "pace": "daily", "decision_seconds": 4 * 3600})
    assert created.status_code == 201, created.content
    summary = created.json()
    assert (summary["pace"], summary["decision_seconds"]) == ("daily", 14400)
    assert summary["pace_text"] == "By the day · 4 h a turn"
    assert _view(ana, summary["id"])["pace_text"] == "By the day · 4 h a turn"
    live = _post(api, "/api/games/", {"game_type": TIMED.slug}).json()
    assert (live["pace"], live["decision_seconds"], live["pace_text"]) == ("live", None, "Live · the game's own timers")


@pytest.mark.parametrize("body, field", [
    ({"pace": "live", "decision_seconds": 45}, "decision_seconds"),
    ({"pace": "daily", "decision_seconds": 60}, "decision_seconds"),
    ({"pace": "weekly"}, "pace"),
    ({"pace": "daily", "decision_seconds": "1 day"}, "decision_seconds"),
])
def test_a_pace_outside_the_choices_is_refused_and_creates_nothing(make_user, body, field):
    api = _client(make_user("Ana"))
    message = _error(_post(api, "/api/games/", {"game_type": TIMED.slug, **body}), 400, "bad_request")
    assert field in message
    assert not Game.objects.exists()


def test_the_create_form_offers_the_paces_and_the_lobby_and_game_page_show_the_choice(make_user):
    browser = Client()
    browser.force_login(make_user("Ana"))
    page = browser.get("/games/new/snowball-fight/").content.decode()
    assert "Live: 30 s a decision" in page and "By the day: 3 days a turn" in page
    response = browser.post("/games/new/snowball-fight/", {"is_public": "on", "pace": "daily:43200",
                                                           "opt_draft": "draft"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    assert (game.pace, game.decision_seconds) == ("daily", 43200)
    assert "By the day · 12 h a turn" in browser.get("/").content.decode()
    assert "By the day · 12 h a turn" in browser.get(f"/games/{game.pk}/").content.decode()


# ------------------------------------------------------------------ deadlines


@pytest.mark.parametrize("pace, seconds, expected", [
    ("live", None, 45),  # the engine's own Prompt.timeout
    ("live", 30, 30),
    ("live", 300, 300),
    ("daily", 3600, 3600),
    ("daily", 3 * 86400, 3 * 86400),
])
def test_a_prompt_is_due_when_the_pace_says(make_user, pace, seconds, expected):
    ana, ben = make_user("Ana"), make_user("Ben")
    before = time.time()
    game = _table(ana, ben, pace=pace, seconds=seconds)
    after = time.time()
    prompt = _view(ana, game.pk)["prompt"]
    deadline = prompt["deadline"]
    assert before + expected <= deadline <= after + expected
    assert prompt["timeout"] == expected, "the seconds the deadline gives, not the engine's own timer"
    assert game.next_deadline == deadline
    assert _view(ben, game.pk)["next_deadline"] == deadline


def test_after_a_restart_the_sweep_plays_the_default_of_a_game_nobody_watches(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, pace="daily", seconds=3600)
    assert call_command_output() == "0 games moved on: none overdue"
    _rewind(game.pk, 3601)
    _restart()

    assert call_command_output() == f"1 games moved on: #{game.pk} (version {game.version + 1})"

    timeout = ActionRecord.objects.get(game=game, source=ActionRecord.Source.TIMEOUT)
    assert (timeout.seat, timeout.action) == (0, TIMED.to_act(game.state)[0].default)
    view = _view(ben, game.pk)
    assert view["prompt"] is not None and view["view"]["taken"] == [1, 0]
    assert view["prompt"]["deadline"] > time.time() + 3500  # Ben's own full hour
    assert call_command_output() == "0 games moved on: none overdue"
    assert services.sweep_deadlines(now=time.time()) == {}  # a second sweep, or worker, applies nothing


def test_a_deadline_saved_before_prompts_were_digested_with_orjson_is_still_kept_and_swept(make_user):
    """A game in play when the server was upgraded holds its prompts' digests in the earlier
    form (the standard library's JSON, sha1): its seats keep their time through the others'
    moves, and a missed deadline still plays the seat's default."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, pace="daily", seconds=3600)
    state = selectors.game_state(game)
    for seat, entry in game.prompts["seats"].items():
        prompt = TIMED.to_act(state)[int(seat)]
        blob = json.dumps([prompt.kind, prompt.text, TIMED.legal_actions(state, int(seat))], sort_keys=True,
                          default=str)
        entry["digest"] = hashlib.sha1(blob.encode()).hexdigest()
    Game.objects.filter(pk=game.pk).update(prompts=game.prompts)
    _restart()
    _rewind(game.pk, 3601)

    assert services.sweep_deadlines(now=time.time()) == {game.pk: game.version + 1}
    assert ActionRecord.objects.get(game=game, source=ActionRecord.Source.TIMEOUT).seat == 0


def call_command_output() -> str:
    out = StringIO()
    call_command("sweep_deadlines", stdout=out)
    return out.getvalue().strip()


def test_a_seat_asked_the_same_question_again_gets_its_own_time_and_its_default_is_played_again(make_user):
    """Against a computer player the pile game asks the same "take one or two" after every round:
    each time it is a new question with a full deadline, and each missed one is played."""
    ana = make_user("Ana")
    game = _table(ana, pace="live", seconds=60, bots=1)
    for missed in (1, 2):
        _rewind(game.pk, 61)
        version = Game.objects.get(pk=game.pk).version
        assert services.sweep_deadlines(now=time.time()) == {game.pk: version + 2}  # Ana's default, the bot's take
        game = Game.objects.get(pk=game.pk)
        assert game.prompts["seats"]["0"]["since"] == game.version
        assert game.prompts["seats"]["0"]["deadline"] > time.time() + 55
        assert ActionRecord.objects.filter(game=game, seat=0, source=ActionRecord.Source.TIMEOUT).count() == missed


def test_a_game_left_with_an_answered_prompt_on_its_books_moves_on_at_the_next_sweep(make_user):
    """A game saved when a re-asked seat kept the clock of the question it had missed (as the
    server once did) gets that default played again, under its own id."""
    ana = make_user("Ana")
    game = _table(ana, pace="live", seconds=60, bots=1)
    first_asked = game.prompts["seats"]["0"]["since"]
    _rewind(game.pk, 61)
    services.sweep_deadlines(now=time.time())
    game = Game.objects.get(pk=game.pk)
    game.prompts["seats"]["0"]["since"] = first_asked
    game.prompts["seats"]["0"]["deadline"] = time.time() - 1
    Game.objects.filter(pk=game.pk).update(prompts=game.prompts, next_deadline=time.time() - 1)
    assert services.sweep_deadlines(now=time.time()) == {game.pk: game.version + 2}
    assert ActionRecord.objects.filter(game=game, seat=0, source=ActionRecord.Source.TIMEOUT).count() == 2


def test_a_seat_that_answers_and_is_asked_the_same_again_gets_a_full_deadline(make_user):
    ana = make_user("Ana")
    game = _table(ana, pace="live", seconds=60, bots=1)
    _rewind(game.pk, 50)
    _take(game.pk, ana)  # the computer player takes one too, and Ana is asked "one or two?" again
    game = Game.objects.get(pk=game.pk)
    assert game.prompts["seats"]["0"]["since"] == game.version
    assert game.prompts["seats"]["0"]["deadline"] > time.time() + 55


def _pick(game_id: int, user, side: str, *, version: int | None = None):
    version = selectors.get_game(game_id).version if version is None else version
    return services.submit_action(game_id=game_id, user=user, action={"type": "pick", "side": side},
                                  action_id=uuid.uuid4().hex, version=version)


def test_after_a_reveal_every_seat_is_asked_anew_even_in_the_same_words(make_user):
    """A new round's sealed question, worded as the last, is a new question for every seat: its
    own full time, and a move sent for the round before is refused as stale, not played in this
    one (the picker's and the other seat's alike)."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type=SEALED.slug, pace="live", seconds=60)
    before_the_reveal = game.version
    _pick(game.pk, ana, "high")
    _rewind(game.pk, 50)
    _pick(game.pk, ben, "low")  # the round reveals
    game = Game.objects.get(pk=game.pk)
    assert game.state["round"] == 2
    for seat in ("0", "1"):
        assert game.prompts["seats"][seat]["since"] == game.version
        assert game.prompts["seats"][seat]["deadline"] > time.time() + 55
    for user in (ana, ben):
        with pytest.raises(StaleVersion):
            _pick(game.pk, user, "high", version=before_the_reveal + 1)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_within_a_round_a_sealed_question_keeps_its_time_however_the_others_move(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type=SEALED.slug, pace="live", seconds=60)
    asked = game.prompts["seats"]["1"]
    _rewind(game.pk, 50)
    _pick(game.pk, ana, "high")
    kept = Game.objects.get(pk=game.pk).prompts["seats"]["1"]
    assert kept["since"] == asked["since"] and kept["deadline"] == pytest.approx(asked["deadline"] - 50)


def test_the_sweep_leaves_games_whose_deadline_is_to_come_and_finished_games(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    waiting = _table(ana, ben, pace="live", seconds=30)
    done = _table(ana, ben, game_type=TABLE.slug)
    assert Game.objects.get(pk=done.pk).next_deadline is None  # the plain pile game has no time limit
    assert services.sweep_deadlines(now=time.time() + 29) == {}
    assert services.sweep_deadlines(now=time.time() + 31) == {waiting.pk: waiting.version + 1}


@pytest.mark.skipif("connection.vendor != 'sqlite'")
def test_the_sweep_finds_overdue_games_most_overdue_first_through_the_deadline_index(make_user):
    from django.test.utils import CaptureQueriesContext

    from games.services.pace import overdue_games

    ana, ben = make_user("Ana"), make_user("Ben")
    games = [_table(ana, ben, game_type=TABLE.slug) for _ in range(4)]
    for game, deadline in zip(games, (30.0, 20.0, None, 10.0)):
        Game.objects.filter(pk=game.pk).update(next_deadline=deadline)
    with CaptureQueriesContext(connection) as queries:
        found = overdue_games(25.0)
    assert found == [games[3].pk, games[1].pk]
    assert overdue_games(25.0, limit=1) == [games[3].pk] and overdue_games(5.0) == []
    (query,) = [q["sql"] for q in queries.captured_queries]
    with connection.cursor() as cursor:
        plan = " ".join(str(row) for row in cursor.execute(f"EXPLAIN QUERY PLAN {query}").fetchall())
    assert "next_deadline" in plan and "INDEX" in plan.upper(), plan
    assert "SCAN" not in plan.upper().replace("USING INDEX", ""), plan


@pytest.mark.django_db(transaction=True)
def test_each_worker_sweeps_in_the_background_with_no_socket_open(make_user, settings):
    from games import deadline_sweep

    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, pace="live", seconds=30)
    _rewind(game.pk, 31)
    settings.SNOWBALL_SWEEP_SECONDS = 0.05

    async def served_for_a_while() -> int:
        deadline_sweep.ensure_running()
        for _ in range(200):
            await asyncio.sleep(0.05)
            version = await asyncio.to_thread(lambda: Game.objects.get(pk=game.pk).version)
            if version > game.version:
                return version
        return game.version

    assert asyncio.run(served_for_a_while()) == game.version + 1
    assert ActionRecord.objects.filter(game=game, source=ActionRecord.Source.TIMEOUT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_workers_sweep_hands_each_overdue_game_to_the_database_on_its_own(make_user, monkeypatch):
    """Between two overdue games the event loop serves its sockets (and the moves it makes
    itself take their turn to write): the sweep of two games is two calls, and both move."""
    from games import deadline_sweep

    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    games = [_table(ana, ben, pace="live", seconds=30), _table(ana, cy, pace="live", seconds=30)]
    for game in games:
        _rewind(game.pk, 31)
    handed: list[str] = []
    real = deadline_sweep.db_call

    def recording(function):
        handed.append(function.__name__)
        return real(function)

    monkeypatch.setattr(deadline_sweep, "db_call", recording)
    moved = asyncio.run(deadline_sweep.sweep_once())
    assert moved == {game.pk: game.version + 1 for game in games}
    assert handed == ["overdue_games", "sweep_game", "sweep_game"]
    assert asyncio.run(deadline_sweep.sweep_once()) == {}


# ------------------------------------------------------------------ ready


def test_ready_resolves_the_turn_as_soon_as_every_seat_is_ready(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fighting", pace="daily", seconds=86400)
    apis = {0: _client(ana), 1: _client(ben)}

    def send(seat: int, action: dict) -> dict:
        version = apis[seat].get(f"/api/games/{game.pk}/").json()["version"]
        answer = _post(apis[seat], f"/api/games/{game.pk}/actions/",
                       {"action": action, "action_id": uuid.uuid4().hex, "version": version})
        assert answer.status_code == 200, answer.content
        return answer.json()["view"]

    def ready(seat: int) -> dict:
        version = apis[seat].get(f"/api/games/{game.pk}/").json()["version"]
        answer = _post(apis[seat], f"/api/games/{game.pk}/ready/", {"version": version})
        assert answer.status_code == 200, answer.content
        return answer.json()["view"]

    assert _view(ana, game.pk)["ready_action"] is None  # nothing written yet
    _error(_post(apis[0], f"/api/games/{game.pk}/ready/", {"version": game.version}), 400, "bad_request")
    for seat, name in ((0, "Ana"), (1, "Ben")):
        written = send(seat, {"type": "setup", "name": f"{name} the Bold", "starts": []})
        assert written["ready_action"] == {"type": "ready"}
    assert ready(0)["waiting_for"] == [1]
    assert ready(1)["view"]["phase"] == "orders"

    for seat in (0, 1):
        orders = next(a for a in _view([ana, ben][seat], game.pk)["legal_actions"] if a["type"] == "orders")
        send(seat, orders["example"])
    ready(0)
    view = ready(1)
    assert view["view"]["turn"] == 2 and view["view"]["report"]["turn"] == 1
    assert not ActionRecord.objects.filter(game=game, source=ActionRecord.Source.TIMEOUT).exists()


def test_a_deadline_is_the_servers_to_play_a_player_is_not_offered_it_and_cannot_send_it(make_user):
    """Snowball Fighting's default, ``{"type": "deadline"}``, is played for a seat when its time
    runs out; it is no player's move: not in ``legal_actions``, refused over HTTP, nothing changed."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fighting", pace="live", seconds=60)
    view = _view(ben, game.pk)
    assert view["prompt"]["default"] == {"type": "deadline"}
    assert "deadline" not in {a["type"] for a in view["legal_actions"]}
    message = _error(_post(_client(ben), f"/api/games/{game.pk}/actions/",
                           {"action": {"type": "deadline"}, "action_id": "give-up", "version": view["version"]}),
                     422, "bad_action")
    assert "'deadline'" in message and "cannot send it" in message
    assert Game.objects.get(pk=game.pk).version == view["version"]
    assert not ActionRecord.objects.filter(game=game, source=ActionRecord.Source.PLAYER).exists()


DRAFTS = {  # a first draft of a sealed choice, not marked final
    "snowball-fighting": lambda legal: {"type": "setup", "name": "Ana the Bold", "starts": []},
    "snowball-fight": lambda legal: next(a for a in legal if a["type"] == "choose"),
}


@pytest.mark.parametrize("game_type", sorted(DRAFTS))
def test_when_time_runs_out_each_seat_plays_its_default_whether_or_not_it_wrote_a_draft(make_user, game_type):
    """A sealed choice is one question until its round reveals, however its legal actions change
    as the seat revises it (a draft adds "ready" or "lock"): its default is played at its deadline."""
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type=game_type, pace="live", seconds=60)
    draft = DRAFTS[game_type](_view(ana, game.pk)["legal_actions"])
    services.submit_action(game_id=game.pk, user=ana, action=draft, action_id=uuid.uuid4().hex, version=game.version)
    _rewind(game.pk, 61)
    services.sweep_deadlines(now=time.time())
    timeouts = ActionRecord.objects.filter(game=game, source=ActionRecord.Source.TIMEOUT)
    assert sorted(t.seat for t in timeouts) == [0, 1]
    game = Game.objects.get(pk=game.pk)
    assert game.next_deadline > time.time() + 55, "a seat is still overdue"


def test_ready_sent_again_with_its_action_id_is_acked_as_a_duplicate(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fighting", pace="daily", seconds=86400)
    api = _client(ana)
    written = _post(api, f"/api/games/{game.pk}/actions/",
                    {"action": {"type": "setup", "name": "Ana the Bold", "starts": []}, "action_id": "setup",
                     "version": game.version}).json()["view"]
    body = {"version": written["version"], "action_id": "ready-1"}
    first = _post(api, f"/api/games/{game.pk}/ready/", body)
    assert first.status_code == 200, first.content
    again = _post(api, f"/api/games/{game.pk}/ready/", body)
    assert again.status_code == 200, again.content
    assert again.json()["ack"] == {**first.json()["ack"], "duplicate": True}
    assert ActionRecord.objects.filter(game=game, seat=0, action={"type": "ready"}).count() == 1


def test_ready_is_refused_as_an_action_would_be_before_there_is_nothing_to_mark(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fighting", pace="daily", seconds=86400)
    apis = {0: _client(ana), 1: _client(ben)}

    def post(seat: int, path: str, body: dict):
        return _post(apis[seat], f"/api/games/{game.pk}/{path}/", body)

    written = {}
    for seat, name in ((0, "Ana"), (1, "Ben")):
        version = _view([ana, ben][seat], game.pk)["version"]
        answer = post(seat, "actions", {"action": {"type": "setup", "name": name, "starts": []},
                                        "action_id": uuid.uuid4().hex, "version": version})
        written[seat] = answer.json()["view"]["version"]
    setup_version = written[0]
    for seat in (0, 1):
        assert post(seat, "ready", {"version": _view([ana, ben][seat], game.pk)["version"]}).status_code == 200
    orders = _view(ana, game.pk)
    assert orders["view"]["phase"] == "orders" and orders["ready_action"] is None  # no orders written yet

    stale = post(0, "ready", {"version": setup_version})  # from before the turn began: stale first
    _error(stale, 409, "stale_version")
    assert stale.json()["error"]["current_version"] == orders["version"]
    assert "ahead of the game" in _error(post(0, "ready", {"version": orders["version"] + 5}), 400, "bad_request")
    assert "no decision to mark ready" in _error(post(0, "ready", {"version": orders["version"]}), 400, "bad_request")
    assert _view(ana, game.pk)["version"] == orders["version"]  # nothing changed

    _post(apis[1], f"/api/games/{game.pk}/resign/")
    _error(post(0, "ready", {"version": orders["version"]}), 409, "conflict")  # the game is over
    _error(post(1, "ready", {"version": orders["version"]}), 403, "forbidden")  # Ben resigned


def test_ready_in_a_game_whose_decisions_are_final_when_sent_says_so(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben)
    message = _error(_post(_client(ana), f"/api/games/{game.pk}/ready/", {"version": game.version}), 400,
                     "bad_request")
    assert "ready once it is sent" in message


# ------------------------------------------------------------------ resign


def test_in_a_two_player_game_the_resigner_loses_and_everyone_is_told(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben)
    summary = _post(_client(ben), f"/api/games/{game.pk}/resign/").json()
    assert summary["status"] == "finished"
    assert summary["outcome"]["winners"] == [0] and summary["outcome"]["code"] == "resigned"
    view = _view(ana, game.pk)
    assert view["outcome"]["reason"] == "Ben resigned"
    assert view["prompt"] is None and view["waiting_for"] == []
    assert "Ben resigns" in [line["text"] for line in view["log"]]  # the game is over: no computer takes the seat
    assert not [line for line in view["log"] if "computer player" in line["text"]]
    _error(_post(_client(ana), f"/api/games/{game.pk}/resign/"), 409, "conflict")


def test_against_a_computer_player_resigning_hands_it_the_win(make_user):
    ana = make_user("Ana")
    game = _table(ana, bots=1)
    assert _post(_client(ana), f"/api/games/{game.pk}/resign/").json()["outcome"]["winners"] == [1]


def test_in_a_three_player_game_a_computer_player_takes_the_resigners_seat(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = _table(ana, ben, cy)
    summary = _post(_client(cy), f"/api/games/{game.pk}/resign/").json()
    assert summary["status"] == "active"
    assert summary["players"][2]["is_bot"] and summary["players"][2]["name"] == "Cy"
    _take(game.pk, ana)
    _take(game.pk, ben)  # then the computer player answers for Cy at once
    view = _view(cy, game.pk)
    assert view["view"]["taken"] == [1, 1, 1] and view["view"]["turn"] == 0
    assert view["prompt"] is None and view["resigned"] == [2]
    _error(_post(_client(cy), f"/api/games/{game.pk}/resign/"), 403, "forbidden")
    _take(game.pk, ana)
    _take(game.pk, ben)
    refused = _post(_client(cy), f"/api/games/{game.pk}/actions/", {
        "action": {"type": "take", "count": 1}, "action_id": "mine", "version": selectors.get_game(game.pk).version})
    _error(refused, 403, "forbidden")


def test_an_engine_with_its_own_resignation_rule_decides_the_outcome(make_user):
    ana, ben, cy = make_user("Ana"), make_user("Ben"), make_user("Cy")
    game = _table(ana, ben, cy, game_type=RESIGNING.slug)
    summary = _post(_client(ana), f"/api/games/{game.pk}/resign/").json()
    assert summary["status"] == "finished" and summary["outcome"]["winners"] == [1]
    texts = [line["text"] for line in _view(cy, game.pk)["log"]]
    assert texts[-2:] == ["Ana hands the pile over", "Ana resigns"]


def test_only_a_seated_player_of_a_game_in_play_may_resign(make_user):
    ana, ben, zoe = make_user("Ana"), make_user("Ben"), make_user("Zoe")
    game = _table(ana, ben)
    _error(_post(_client(zoe), f"/api/games/{game.pk}/resign/"), 403, "not_seated")
    waiting = services.create_game(creator=ana, game_type=TIMED.slug, num_seats=2)
    _error(_post(_client(ana), f"/api/games/{waiting.pk}/resign/"), 409, "conflict")
    assert selectors.get_game(game.pk).status == Game.Status.ACTIVE


# ------------------------------------------------------------------ absence


def test_an_absent_players_seat_plays_its_defaults_once_the_grace_period_ends(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, pace="live", seconds=300)
    _take(game.pk, ana)
    left_at = time.time()
    assert services.note_away(game_id=game.pk, seat=1, now=left_at)
    notice = _view(ana, game.pk)["away"]
    assert notice == [{"seat": 1, "name": "Ben", "since": left_at, "back_by": left_at + 60,
                       "text": "Ben left - 60 s to come back",
                       "text_when_due": "Ben did not come back in time: their default choices are played now",
                       "handover_votes": [], "handover_needs": 1}]
    assert services.sweep_deadlines(now=left_at + 59) == {}
    moved = services.sweep_deadlines(now=left_at + 60)
    assert list(moved) == [game.pk]
    assert _view(ana, game.pk)["view"]["taken"] == [1, 1]
    _take(game.pk, ana)
    assert _view(ben, game.pk)["prompt"]["deadline"] == left_at + 60  # still away: no time at all
    assert services.note_back(game_id=game.pk, seat=1)
    view = _view(ben, game.pk)
    assert view["away"] == [] and view["prompt"]["deadline"] > time.time() + 290


def test_in_a_simultaneous_game_an_away_seat_is_swept_at_its_grace_not_at_the_others_deadline(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, game_type="snowball-fight", pace="live", seconds=300)
    assert sorted(engines.get("snowball-fight").to_act(selectors.game_state(game))) == [0, 1]  # both pick at once
    left_at = time.time()
    assert services.note_away(game_id=game.pk, seat=1, now=left_at)
    game = Game.objects.get(pk=game.pk)
    deadlines = {seat: entry["deadline"] for seat, entry in game.prompts["seats"].items()}
    assert deadlines["1"] == left_at + 60 and deadlines["0"] > left_at + 290  # several deadlines at once
    assert game.next_deadline == left_at + 60 == _view(ana, game.pk)["next_deadline"]
    assert services.sweep_deadlines(now=left_at + 59) == {}
    assert list(services.sweep_deadlines(now=left_at + 60)) == [game.pk]  # Ben's default, after 60 s
    records = ActionRecord.objects.filter(game=game, source=ActionRecord.Source.TIMEOUT)
    assert [r.seat for r in records] == [1]  # Ana still has her own time
    assert _view(ana, game.pk)["prompt"]["deadline"] == deadlines["0"]


def test_by_the_day_nobody_is_counted_away(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    game = _table(ana, ben, pace="daily", seconds=3600)
    assert not services.note_away(game_id=game.pk, seat=1)
    assert _view(ana, game.pk)["away"] == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_closing_the_last_socket_tells_the_others_and_coming_back_ends_it(make_user, site_backend, settings):
    from channels.db import database_sync_to_async

    from tests.platform.test_consumers import api_socket, next_of

    settings.SNOWBALL_ABSENCE_NOTICE_DELAY = 0.2
    ana, ben = await database_sync_to_async(make_user)("Ana"), await database_sync_to_async(make_user)("Ben")
    game = await database_sync_to_async(_table)(ana, ben, pace="live", seconds=300)
    keys = {}
    for user in (ana, ben):
        keys[user.pk] = (await database_sync_to_async(ApiToken.issue)(user=user, name="bot"))[1]
    ana_socket = await api_socket(game.pk, keys[ana.pk])
    await next_of(ana_socket, "view")
    ben_socket = await api_socket(game.pk, keys[ben.pk])
    await next_of(ben_socket, "view")
    await ben_socket.disconnect()
    reloaded = await api_socket(game.pk, keys[ben.pk])  # back within the notice delay: a reload
    await next_of(reloaded, "view")
    await asyncio.sleep(0.5)
    assert not (await database_sync_to_async(Game.objects.get)(pk=game.pk)).prompts.get("away")
    await reloaded.disconnect()
    for _ in range(10):
        view = await next_of(ana_socket, "view")
        if view["away"]:
            break
    assert [a["text"] for a in view["away"]] == ["Ben left - 60 s to come back"]
    page = Client()
    await database_sync_to_async(page.force_login)(ana)
    html = (await database_sync_to_async(page.get)(f"/games/{game.pk}/")).content.decode()
    assert "Ben left - 60 s to come back" in html

    back = await api_socket(game.pk, keys[ben.pk])
    for _ in range(10):
        view = await next_of(ana_socket, "view")
        if not view["away"]:
            break
    assert view["away"] == []
    await back.disconnect()
    await ana_socket.disconnect()


# ------------------------------------------------------------------ my games and e-mail


def test_my_games_lists_the_games_waiting_for_my_decision_first_soonest_deadline_first(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    later = _table(ana, ben, pace="daily", seconds=86400)
    not_mine = _table(ben, ana, pace="daily", seconds=3600)  # Ben's turn
    sooner = _table(ana, ben, pace="daily", seconds=3600)
    waiting = services.create_game(creator=ana, game_type=TIMED.slug, num_seats=2)
    order = [g.pk for g in selectors.my_games(ana)]
    assert order[:2] == [sooner.pk, later.pk]
    assert order[2:] == [waiting.pk, not_mine.pk]  # then the newest first

    listed = _client(ana).get("/api/games/?mine=1").json()["games"]
    assert [g["id"] for g in listed] == order
    assert [g["your_turn"] for g in listed] == [True, True, False, False]
    assert listed[0]["your_deadline"] == Game.objects.get(pk=sooner.pk).next_deadline

    browser = Client()
    browser.force_login(ana)
    page = browser.get("/me/games/").content.decode()
    assert page.count("Your turn") == 2
    assert page.index(f'data-game="{sooner.pk}"') < page.index(f'data-game="{later.pk}"') < page.index(
        f'data-game="{not_mine.pk}"')


def test_a_player_who_opted_in_gets_one_email_per_decision_of_a_game_by_the_day(
        make_user, mailoutbox, django_capture_on_commit_callbacks):
    ana, ben = make_user("Ana"), make_user("Ben")
    services.update_settings(user=ben, email="ben@example.com", email_on_turn=True)
    with django_capture_on_commit_callbacks(execute=True):
        game = _table(ana, ben, pace="daily", seconds=86400)
        live = _table(ana, ben, pace="live", seconds=60)
    assert mailoutbox == []  # Ana's turn; Ana did not ask
    with django_capture_on_commit_callbacks(execute=True):
        _take(game.pk, ana)
        _take(live.pk, ana)  # live games send none
        services.note_away(game_id=game.pk, seat=0)  # a new version, the same decision
    assert [(m.to, m.subject) for m in mailoutbox] == [(["ben@example.com"], f"Your turn in {TIMED.name} #{game.pk}")]
    assert f"/games/{game.pk}/" in mailoutbox[0].body
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sealed = _table(ana, ben, game_type="snowball-fighting", pace="daily", seconds=43200)
        services.submit_action(game_id=sealed.pk, user=ana, action={"type": "setup", "name": "Ana", "starts": []},
                               action_id="a1", version=sealed.version)  # Ben's question stays the same
    assert [m.subject for m in mailoutbox] == [f"Your turn in Snowball Fighting #{sealed.pk}"]
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _take(game.pk, ben)
        services.update_settings(user=ben, email_on_turn=False)
        _take(game.pk, ana)
    assert mailoutbox == []


def test_a_player_who_has_the_game_open_gets_no_turn_email(make_user, mailoutbox, django_capture_on_commit_callbacks):
    from games.coordinator import get_coordinator

    ana, ben = make_user("Ana"), make_user("Ben")
    services.update_settings(user=ben, email="ben@example.com", email_on_turn=True)
    game = _table(ana, ben, pace="daily", seconds=86400)
    get_coordinator().join(game.pk, "ben-tab", seat=1, user_key=str(ben.pk))  # Ben's page is open
    with django_capture_on_commit_callbacks(execute=True):
        _take(game.pk, ana)
    assert mailoutbox == []
    get_coordinator().leave(game.pk, "ben-tab")
    with django_capture_on_commit_callbacks(execute=True):
        _take(game.pk, ben)
        _take(game.pk, ana)  # Ben asked again, his page closed: mailed
    assert [m.to for m in mailoutbox] == [["ben@example.com"]]


def test_a_move_on_a_held_game_mails_once_and_an_ended_game_mails_nobody(
        make_user, mailoutbox, django_capture_on_commit_callbacks):
    """The mail goes with the write that asks, also a move made on the game this process holds
    (its sockets read it); a resignation that ends the game asks nobody anything."""
    ana, ben = make_user("Ana"), make_user("Ben")
    services.update_settings(user=ben, email="ben@example.com", email_on_turn=True)
    services.update_settings(user=ana, email="ana@example.com", email_on_turn=True)
    with django_capture_on_commit_callbacks(execute=True):
        game = _table(ana, ben, pace="daily", seconds=86400)
    mailoutbox.clear()
    selectors.snapshot(game.pk)  # what a socket of this process leaves: the move is made on it
    with django_capture_on_commit_callbacks(execute=True):
        _take(game.pk, ana)
    assert [m.to for m in mailoutbox] == [["ben@example.com"]]
    for game_type in ("timed-table-test", "jingle-bells"):
        with django_capture_on_commit_callbacks(execute=True):
            ended = _table(ana, ben, game_type=game_type, pace="daily", seconds=86400)
        mailoutbox.clear()
        asked = min(engines.get(game_type).to_act(selectors.game_state(ended)))  # the other seat would be asked next
        with django_capture_on_commit_callbacks(execute=True):
            services.resign(game_id=ended.pk, user=(ana, ben)[asked])
        assert Game.objects.get(pk=ended.pk).status == Game.Status.FINISHED
        assert mailoutbox == [], game_type


def test_an_address_another_account_has_is_refused_over_the_api_and_changes_nothing(make_user):
    ana, ben = make_user("Ana"), make_user("Ben")
    ana.email = "ana@example.com"
    ana.save(update_fields=["email"])
    refused = _client(ben).post("/api/me/settings/", {"email": "ANA@example.com", "email_on_turn": True},
                                content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "conflict"
    assert "another account already uses this e-mail address" in refused.json()["error"]["message"]
    assert _client(ben).get("/api/me/settings/").json() == {"email": "", "email_on_turn": False}
    kept = _client(ana).post("/api/me/settings/", {"email": "Ana@example.com"}, content_type="application/json")
    assert kept.status_code == 200


def test_the_settings_page_asks_for_an_address_before_sending_emails(make_user):
    browser = Client()
    ben = make_user("Ben")
    browser.force_login(ben)
    refused = browser.post("/me/settings/", {"email": "", "email_on_turn": "on"})
    assert "give an e-mail address" in refused.content.decode()
    saved = browser.post("/me/settings/", {"email": "ben@example.com", "email_on_turn": "on"})
    assert saved.status_code == 302
    ben.refresh_from_db()
    assert ben.email == "ben@example.com" and ben.profile.email_on_turn
    assert _client(ben).get("/api/me/settings/").json() == {"email": "ben@example.com", "email_on_turn": True}
