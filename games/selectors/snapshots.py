"""What one viewer of one game may see.

``payload_for`` is the single source of every per-viewer view: the HTML socket renders
it, the JSON socket and the HTTP API send it as it is. A live game is read once per
version into a ``GameSnapshot`` that every socket in the process shares.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter
from typing import Any

import orjson
from django.db import connections

from games import engines, jsontext, pacing, tables
from games.caches import LRU
from games.models import ActionRecord, Game
from games.selectors.games import (
    dice, fill_names, game_state, get_game, rated_status, seat_names, seat_played_and_held, seats_summary,
    viewer_version,
)
from games.selectors.pace import away_notices, ready_action
from games.selectors.results import ended_before_turn
from games.state_cache import STATE_CACHE

LOG_LENGTH = 60
# A snapshot keeps the log's newest records down to the one that holds the LOG_LENGTH-th line
# every viewer may read (``log_window``): each viewer's sixty newest lines lie within them.
# Never more than LOG_RECORDS_AT_MOST: records no one else reads (a sealed choice revised) do
# not push the others' lines out of their logs. The log is read LOG_PAGE records at a time.
LOG_PAGE = 40
LOG_RECORDS_AT_MOST = 400


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One logged action as the game log shows it: its lines as JSON text (``{"type",
    "text"}``: no entry number, which would count the private actions of other seats that a
    viewer does not see) and, line by line, who may read them.

    Each line is encoded once, when its action is logged, not again in every view of every
    later version (a view carries the last sixty lines). Tuples and strings, not lists and
    dicts: the cyclic collector does not walk strings and stops tracking such tuples after
    one look, and a live server holds the log of every game it serves.
    """

    seq: int
    lines: tuple[str, ...]
    readers: tuple[tuple[int, ...] | None, ...] | None  # per line, the seats that may read it (None: all); None: all read all
    lines_read_by_all: int  # how many of its lines every viewer may read: what moves the log's window

    @property
    def public(self) -> bool:
        """Whether every viewer may read all of its lines."""
        return self.readers is None

    def lines_for(self, seat: int | None) -> tuple[str, ...] | list[str]:
        """Its lines ``seat`` may read (None: a spectator), in order."""
        if self.readers is None:
            return self.lines
        return [line for who, line in zip(self.readers, self.lines) if who is None or seat in who]


def log_record(seq: int, lines: list[tuple[tuple[int, ...] | None, str]]) -> LogRecord:
    """A record of ``(readers, line)`` pairs, the readers kept only when some line is not everyone's."""
    read_by_all = sum(who is None for who, _ in lines)
    return LogRecord(seq=seq, lines=tuple(line for _, line in lines), lines_read_by_all=read_by_all,
                     readers=None if read_by_all == len(lines) else tuple(who for who, _ in lines))


def log_window(records: list[LogRecord]) -> list[LogRecord]:
    """The newest of ``records`` (newest first) that a snapshot keeps: down to the one holding
    the ``LOG_LENGTH``-th line every viewer reads, at most ``LOG_RECORDS_AT_MOST``."""
    read_by_all = 0
    for kept, record in enumerate(records[:LOG_RECORDS_AT_MOST], start=1):
        read_by_all += record.lines_read_by_all
        if read_by_all >= LOG_LENGTH:
            return records[:kept]
    return records[:LOG_RECORDS_AT_MOST]


def read_log(game_id: int, names: list[str]) -> list[LogRecord]:
    """The game's log records a snapshot keeps (``log_window``), newest first, read in pages."""
    records: list[LogRecord] = []
    rows = ActionRecord.objects.filter(game_id=game_id).order_by("-seq").values("seq", "events")
    while True:
        page = log_records(list(rows[len(records):len(records) + LOG_PAGE]), names)
        records += page
        window = log_window(records)
        if len(page) < LOG_PAGE or len(window) < len(records) or len(records) >= LOG_RECORDS_AT_MOST:
            return window


def log_records(records: list[dict[str, Any]], names: list[str]) -> list[LogRecord]:
    """``{"seq", "events"}`` rows as log records, with the players' names filled in once."""
    return [log_record(r["seq"], [
        (_readers(event), jsontext.dumps({"type": event.get("type", ""),
                                          "text": fill_names(ended_before_turn(event.get("text", "")), names)}))
        for event in r["events"]]) for r in records]


def _readers(event: dict[str, Any]) -> tuple[int, ...] | None:
    visible_to = event.get("visible_to")
    return None if visible_to is None else tuple(visible_to)


@dataclass(frozen=True)
class GameSnapshot:
    """One version of one game, read from the database once per process and shared by
    every socket watching it; per-viewer payloads are derived from it without queries."""

    game: Game
    players: list[dict[str, Any]]
    names: list[str]
    records: list[LogRecord]  # newest first
    state: dict[str, Any] | None
    rated: bool | None = None  # games.selectors.games.rated_status when read
    # per seat (None: a spectator), the log lines it may read: worked out for the first viewer
    # of the seat, and carried to the next version by ``note_commit``
    seat_logs: dict[int | None, SeatLog] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def shared(self) -> SharedPart:
        """What every viewer of this version sees alike, worked out for its first viewer."""
        return _shared_part(self)

    @property
    def version(self) -> int:
        return self.game.version

    @cached_property
    def log_is_public(self) -> bool:
        """Whether every viewer may read every line of the log's newest records."""
        return all(record.public for record in self.records)

    def log_json(self, seat: int | None) -> str:
        """The log lines ``seat`` may read, as JSON text (``game_log_json``): the spectators'
        lines for every viewer when they all read the same. Joined for each view built, not
        kept: a view's frame holds it already (a second copy was some 5 KB of a game part-way
        through, held by every live game)."""
        return "[" + ",".join(self.seat_log(None if self.log_is_public else seat).lines) + "]"

    def seat_log(self, seat: int | None) -> SeatLog:
        """The newest lines ``seat`` may read, oldest first, with their records' numbers."""
        log = self.seat_logs.get(seat)
        if log is None:
            log = self.seat_logs[seat] = _seat_log(self.records, seat)
        return log

    def seat_of(self, user) -> int | None:
        """The seat ``user`` plays (``selectors.seat_of``): None once a computer player has it."""
        player = self._player_of(user)
        return None if player is None or player["is_bot"] else player["seat"]

    def seat_held_by(self, user) -> int | None:
        """The seat that is ``user``'s, or was until it passed to a computer player."""
        player = self._player_of(user)
        return None if player is None else player["seat"]

    def watchable_by(self, user, invite_code: str | None = None) -> bool:
        """``selectors.can_watch`` answered from this snapshot's row and seats."""
        game = self.game
        if game.is_public or (invite_code and invite_code == game.invite_code):
            return True
        if user is None or not user.is_authenticated:
            return False
        return game.created_by_id == user.pk or self._player_of(user) is not None

    def _player_of(self, user) -> dict[str, Any] | None:
        if user is None or not user.is_authenticated:
            return None
        return self._players_by_user.get(user.pk)

    @cached_property
    def _players_by_user(self) -> dict[int, dict[str, Any]]:
        """Each seated user's player, found for every socket of every version: its first seat."""
        by_user: dict[int, dict[str, Any]] = {}
        for player in self.players:
            by_user.setdefault(player["user_id"], player)
        return by_user


@dataclass(frozen=True)
class SeatLog:
    """The log lines one seat may read (``game_log``), oldest first, and the number of the
    record each line belongs to, so the next version's lines are these plus its own."""

    seqs: tuple[int, ...]
    lines: tuple[str, ...]

    def followed_by(self, newer: SeatLog, *, oldest_seq: int) -> SeatLog:
        """These lines, then ``newer``'s, without those of records before ``oldest_seq`` and
        at most ``LOG_LENGTH``: what ``_seat_log`` gives for the records of the next version."""
        seqs, lines = self.seqs + newer.seqs, self.lines + newer.lines
        start = max(bisect_left(seqs, oldest_seq), len(lines) - LOG_LENGTH)
        return SeatLog(seqs=seqs[start:], lines=lines[start:])


@dataclass(frozen=True)
class SharedPart:
    """What every viewer of one version sees alike: the payload's keys, their JSON text (without
    the version, and without the object's braces, so that a frame is put together from it as
    it is) and the seats the rules ask now."""

    payload: dict[str, Any]
    members_json: str
    to_act: dict[int, Any]


@dataclass
class ViewerView:
    """One viewer's view at one version: its payload, its JSON view frame, or both, and the
    digest that says whether it changed.

    A frame built for a JSON socket keeps only its text: the payload behind it is some
    sixty containers that the cyclic collector would otherwise walk until the next version.
    A payload asked for (the page, the HTTP API) is kept for the next viewer of that seat.
    The view's text without its version is digested and let go: the frame holds the same
    text, and a second copy of every live view was a sixth of an idle socket's memory. The
    digest is the length and ``hash()`` (SipHash, keyed afresh in every process) of its two
    parts, the one every viewer shares (hashed once a version: a string keeps its hash) and
    the viewer's own: compared only with digests of the same process, the same viewer's
    earlier views, it tells two views apart but for a chance in 2**64, at a fifth of
    blake2b's cost.
    """

    version: int
    payload: dict[str, Any] | None = None
    frame: str | None = None
    digest: tuple[int, int, int, int] | None = None


SNAPSHOTS: LRU[int, GameSnapshot] = LRU(4000)
# (game id, seat) -> that viewer's newest view only. Payloads are big nested dicts; keeping
# old versions filled the heap that every full collection walks.
PAYLOADS: LRU[tuple[int, int | None], ViewerView] = LRU(12000, group_of=itemgetter(0))


def forget_game(game_id: int) -> None:
    """Drop what this process caches for one game: its snapshot, its viewers' views, its state
    and its views' HTML. For when no socket of this process watches the game any more;
    the next reader of the game reads it from the database again."""
    from games.rendering import VIEW_HTML

    SNAPSHOTS.pop(game_id)
    PAYLOADS.discard_group(game_id)
    STATE_CACHE.forget(game_id)
    VIEW_HTML.discard_group(game_id)


def snapshot(game_id: int, *, version: int | None = None) -> GameSnapshot:
    """The game's newest snapshot. With ``version`` (a broadcast said it exists), a cached
    snapshot that recent is used without asking the database at all."""
    cached = SNAPSHOTS.get(game_id)
    if cached is not None:
        if version is not None and cached.version >= version:
            return cached
        if version is None and held_if_current(game_id) is cached:
            return cached
    return snapshot_of(get_game(game_id, with_state=False))  # a live game's state is usually in STATE_CACHE


def held_if_current(game_id: int) -> GameSnapshot | None:
    """The snapshot this process holds of the game if the row is still at its version (a read
    of the version alone), else None: nothing held, the game moved on, or no such game."""
    cached = SNAPSHOTS.get(game_id)
    if cached is None:
        return None
    with connections["default"].cursor() as cursor:
        cursor.execute(_VERSION_SQL, [game_id])
        row = cursor.fetchone()
    return cached if row is not None and row[0] == cached.version else None


_VERSION_SQL = f"SELECT version FROM {Game._meta.db_table} WHERE id = %s"


def snapshot_of(game: Game) -> GameSnapshot:
    """The snapshot of ``game``, a row just read: the one this process holds when it is of the
    row's version, else one built from the row (and kept, unless a newer one is held)."""
    cached = SNAPSHOTS.get(game.pk)
    if cached is not None and cached.version == game.version:
        return cached
    seats = list(game.seats.select_related("user__profile"))
    names = seat_names(game, seats)
    fresh = GameSnapshot(game=game, players=seats_summary(game, seats), names=names,
                         records=read_log(game.pk, names), state=game_state(game), rated=rated_status(game, seats))
    if cached is None or cached.version <= fresh.version:
        SNAPSHOTS.put(game.pk, fresh)
    return fresh


def note_commit(game: Game, state: dict[str, Any], new_records: list[ActionRecord]) -> None:
    """After a play committed in this process: its sockets get the next snapshot with no read.

    Only when the cached snapshot is exactly the version before these records, and the game
    had started (seats and names cannot change); otherwise the next socket reads it.
    """
    cached = SNAPSHOTS.get(game.pk)
    if (cached is None or not new_records or cached.game.status == Game.Status.OPEN
            or cached.game.started_at != game.started_at
            or cached.game.prompts.get("seats_changed") != game.prompts.get("seats_changed")
            or cached.version != new_records[0].version - 1 or game.version != new_records[-1].version):
        return
    fresh = log_records([{"seq": r.seq, "events": r.events} for r in reversed(new_records)], cached.names)
    records = log_window(fresh + cached.records)
    seat_logs = {seat: log.followed_by(_seat_log(fresh, seat), oldest_seq=records[-1].seq)
                 for seat, log in list(cached.seat_logs.items())}
    SNAPSHOTS.put(game.pk, GameSnapshot(game=game, players=cached.players, names=cached.names,
                                        records=records, state=state, rated=cached.rated, seat_logs=seat_logs))


def game_log(records: list[LogRecord], seat: int | None, limit: int = LOG_LENGTH) -> list[dict[str, Any]]:
    """The newest lines this viewer may read, oldest first: ``{"type", "text"}`` each."""
    return orjson.loads(game_log_json(records, seat, limit))


def game_log_json(records: list[LogRecord], seat: int | None, limit: int = LOG_LENGTH) -> str:
    """``game_log`` as JSON text, put together from each line's own text."""
    return "[" + ",".join(_seat_log(records, seat, limit).lines) + "]"


def _seat_log(records: list[LogRecord], seat: int | None, limit: int | None = None) -> SeatLog:
    """The newest ``limit`` (``LOG_LENGTH``) lines of ``records`` (newest first) that ``seat`` may read."""
    limit = LOG_LENGTH if limit is None else limit
    seqs: list[int] = []
    lines: list[str] = []
    for record in records:
        for line in reversed(record.lines_for(seat)):
            seqs.append(record.seq)
            lines.append(line)
            if len(lines) >= limit:
                break
        if len(lines) >= limit:
            break
    seqs.reverse()
    lines.reverse()
    return SeatLog(seqs=tuple(seqs), lines=tuple(lines))


def viewer_payload(game: Game, seat: int | None, *, counted_as: int | None = None) -> dict[str, Any]:
    """Everything one viewer may see of a game at its current version, JSON-safe."""
    return payload_for(snapshot(game.pk, version=game.version), seat, counted_as=counted_as)


def payload_for(snap: GameSnapshot, seat: int | None, *, counted_as: int | None = None) -> dict[str, Any]:
    """One viewer's payload of a snapshot, built once per version and seat (do not mutate).
    ``counted_as``: the seat a player who gave it up still counts versions as (``seat_held``)."""
    entry = _viewer_view(snap, seat)
    if entry.payload is None:
        entry.payload = _build_payload(snap, seat)
    if counted_as is not None and counted_as != seat:
        return {**entry.payload, "version": viewer_version(snap.game, counted_as)}
    return entry.payload


def user_payload(game: Game, user) -> dict[str, Any]:
    """``user``'s payload of the game now: their seat's, or a spectator's, counted as the seat
    they hold or held (``seat_held``)."""
    played, held = seat_played_and_held(game, user)
    return viewer_payload(game, played, counted_as=held)


VIEW_FRAME_HEAD = '{"type":"view","version":'


def view_frame(snap: GameSnapshot, seat: int | None, *, counted_as: int | None = None) -> str:
    """The JSON socket's ``view`` frame for one viewer, serialised once per version and seat
    (``counted_as`` as in ``payload_for``)."""
    entry = _viewer_view(snap, seat)
    if entry.frame is None:
        _digest(entry, snap, seat, keep_frame=True)
    if counted_as is not None and counted_as != seat:
        rest = entry.frame[entry.frame.index(",", len(VIEW_FRAME_HEAD)):]
        return f"{VIEW_FRAME_HEAD}{viewer_version(snap.game, counted_as)}{rest}"
    return entry.frame


def view_digest(snap: GameSnapshot, seat: int | None, *, keep_frame: bool = False) -> tuple[int, int, int, int]:
    """A digest of what one viewer sees of a snapshot, its version aside: equal digests at two
    versions mean the viewer's view did not change between them. Worked out once per version
    and seat; with ``keep_frame`` (a JSON socket, which sends it next) the frame is kept too."""
    entry = _viewer_view(snap, seat)
    if entry.digest is None or (keep_frame and entry.frame is None):
        _digest(entry, snap, seat, keep_frame=keep_frame)
    return entry.digest


# a viewer's own part of its payload (``_own_part``), in the order it is built
OWN_KEYS = ("seat", "view", "legal_actions", "prompt", "log", "ready_action")


def _digest(entry: ViewerView, snap: GameSnapshot, seat: int | None, *, keep_frame: bool) -> None:
    """The viewer's view as JSON text without the version (the part every viewer shares, then
    its own, with the log put together from its lines' own text), digested, and kept as the
    JSON socket's frame when asked."""
    shared = snap.shared
    own = ({key: entry.payload[key] for key in OWN_KEYS if key != "log"} if entry.payload is not None
           else _own_part(snap, seat, shared, with_log=False))
    ready = own.pop("ready_action")
    own_text = "".join((jsontext.dumps(own)[1:-1], ',"log":', _log_json(snap, seat), ',"ready_action":',
                        jsontext.dumps(ready), "}"))
    entry.digest = (len(shared.members_json), hash(shared.members_json), len(own_text), hash(own_text))
    if keep_frame:
        entry.frame = "".join((VIEW_FRAME_HEAD, str(viewer_version(snap.game, seat)), ",",
                               shared.members_json, ",", own_text))


def _viewer_view(snap: GameSnapshot, seat: int | None) -> ViewerView:
    key = (snap.game.pk, seat)
    cached = PAYLOADS.get(key)
    if cached is not None and cached.version == snap.version:
        return cached
    entry = ViewerView(version=snap.version)
    PAYLOADS.put(key, entry)
    return entry


def _build_payload(snap: GameSnapshot, seat: int | None) -> dict[str, Any]:
    shared = snap.shared
    return {**shared.payload, "version": viewer_version(snap.game, seat), **_own_part(snap, seat, shared)}


def _shared_part(snap: GameSnapshot) -> SharedPart:
    """What every viewer of this version sees alike (``GameSnapshot.shared``)."""
    game = snap.game
    ruleset = engines.get(game.game_type)
    outcome = named_outcome(game.outcome, snap.names)
    public: dict[str, Any] = {
        "game_id": game.pk,
        "game_type": game.game_type,
        "game_name": ruleset.name,
        "status": game.status,
        "is_public": game.is_public,
        "spectators_read_only": game.spectators_read_only,
        "options": game.options,
        "players": snap.players,
        "teams": tables.teams_of_table(game.num_teams),
        "waiting_for": [],
        "outcome": outcome,
        **pacing.as_dict(game.pace, game.decision_seconds, learn=game.is_learn),
        "next_deadline": game.next_deadline if game.status == Game.Status.ACTIVE else None,
        "away": away_notices(game, snap.names, snap.players),
        "resigned": list(game.prompts.get("resigned") or ()),
        "handed": list(game.prompts.get("handed") or ()),
        "dice": dice(game),
        "rematch": rematch_summary(game),
        "rated": bool(game.rated) if game.rated is not None else snap.rated,
        "learn": bool(getattr(game, "is_learn", False)),
    }
    to_act: dict = {}
    if snap.state is not None and game.status == Game.Status.ACTIVE and ruleset.outcome(snap.state) is None:
        to_act = ruleset.to_act(snap.state)
        public["waiting_for"] = sorted(to_act)
    return SharedPart(payload=public, members_json=jsontext.dumps(public)[1:-1], to_act=to_act)


def _own_part(snap: GameSnapshot, seat: int | None, shared: SharedPart, *, with_log: bool = True) -> dict[str, Any]:
    """What this viewer sees of this version that others may not: its seat's view of the
    rules, what it is asked and may do, and (``with_log``) the log lines it may read."""
    game = snap.game
    own: dict[str, Any] = {"seat": seat, "view": None, "legal_actions": [], "prompt": None, "log": [],
                           "ready_action": None}
    if not with_log:
        del own["log"]
    state = snap.state
    if state is None:
        return own
    ruleset = engines.get(game.game_type)
    view = ruleset.view(state, seat)
    public = shared.payload
    own["view"] = settled_view(view, outcome=public["outcome"]) if game.status == Game.Status.FINISHED else view
    to_act = shared.to_act
    if seat is not None and seat in to_act and seat not in public["resigned"] + public["handed"]:
        prompt = to_act[seat].as_dict()
        prompt["timeout"] = pacing.prompt_seconds(game.pace, game.decision_seconds, to_act[seat], learn=game.is_learn)
        prompt["deadline"] = (game.prompts.get("seats", {}).get(str(seat)) or {}).get("deadline")
        own["prompt"] = prompt
        own["legal_actions"] = ruleset.legal_actions(state, seat)
        own["ready_action"] = ready_action(ruleset, state, seat)
    if with_log:
        own["log"] = orjson.loads(snap.log_json(seat))
    return own


def _log_json(snap: GameSnapshot, seat: int | None) -> str:
    """The viewer's log lines as ``_own_part`` gives them, as JSON text: none before the game has a state."""
    return "[]" if snap.state is None else snap.log_json(seat)


# Where an engine's view asks its viewer to act, at the top and in its ``you`` block, each
# with the value that asks nothing.
ASKING_KEYS = {"prompt": None, "legal_actions": [], "waiting_for": []}
YOU_ASKING_KEYS = {"asked": False, "prompt": None, "lock": None, "playable": [], "draft": None, "deal": None,
                   "orders_help": None}


def settled_view(view: dict[str, Any] | None, *, outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """An engine's view of a finished game: over, with the game's outcome (its players named, as
    every answer but the dice check names them), asking nobody anything.

    A game can end while its engine is mid-turn (the last opponent resigns, a table hands
    over): the engine's view still holds the question it was asking and the phase it was in,
    which no board, bot or client may be offered once the game is over. A reveal it was still
    resolving (Snowball Fight's ``last_reveal``) is resolving no more: its ``ended`` says what
    ended the game instead (the outcome's reason).
    """
    if not isinstance(view, dict):
        return view
    settled = {**view, **{key: value for key, value in ASKING_KEYS.items() if key in view}}
    settled.update({key: "over" for key in ("phase", "step") if key in view})
    if "outcome" in view:
        settled["outcome"] = outcome
    reveal = view.get("last_reveal")
    if isinstance(reveal, dict) and reveal.get("resolving"):
        settled["last_reveal"] = {**reveal, "resolving": False, "ended": (outcome or {}).get("reason") or "Game over"}
    you = view.get("you")
    if isinstance(you, dict):
        settled["you"] = {**you, **{key: value for key, value in YOU_ASKING_KEYS.items() if key in you}}
    return settled


def rematch_summary(game: Game) -> dict[str, Any] | None:
    """The rematch offered at a finished game (docs/api.md), or None."""
    offer = game.rematch
    if not offer:
        return None
    status = "started" if offer.get("game") else "declined" if offer.get("declined") is not None else "offered"
    return {"status": status, "offered_by": offer["by"], "accepted": offer["accepted"],
            "waiting_for": [n for n in range(game.num_seats) if n not in offer["accepted"]] if status == "offered" else [],
            "declined_by": offer.get("declined"), "game_id": offer.get("game")}


def named_outcome(outcome: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """``outcome`` with its reason naming the seats as the table does (``names``).

    An outcome that also names each seat's character in the game (``names``: Snowball
    Fighting's noms de guerre) may open its reason with its winners' characters, "Winter Wolf
    reached 15 VPs"; the reason names them as the result beside it does, "Computer 3 reached
    15 VPs", so that one player is not called by two names in one line. The recorded outcome
    keeps the engine's words (a replay of the game is checked against them); a game that
    ended as a turn was to begin says so by the last turn played (``ended_before_turn``)."""
    if not outcome:
        return outcome
    reason = ended_before_turn(outcome.get("reason", ""))
    characters, winners = outcome.get("names"), outcome.get("winners")
    if isinstance(characters, list) and winners and all(
            isinstance(w, int) and 0 <= w < min(len(characters), len(names)) and characters[w] for w in winners):
        opening = " and ".join(characters[w] for w in winners) + " "
        if reason.startswith(opening):
            named = " and ".join(names[w] for w in winners)
            return {**outcome, "reason": f"{named} {fill_names(reason[len(opening):], names)}"}
    return {**outcome, "reason": fill_names(reason, names)}
