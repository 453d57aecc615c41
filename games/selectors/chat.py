"""Table talk as one viewer may see it: its channels, their recent history, what is new.

Channels are named by a key: ``table`` (everyone who may watch the game reads it),
``team:<team>`` (the seats of one team, once a team game has started) and
``pair:<seat>-<seat>`` (two seated players, lower seat first, once the game has started;
everyone's to read after the end only when both consented). A viewer reads the channels of
its seat; a computer player's seat has none. A player whose seat passed to a computer
player (resigned, or handed over) talks as a spectator from then on: no team channel, the
table on a spectator's terms; their pair conversations stay readable by both players for
good, closed for writing, and may still be published after the end. Every read here names
the viewer's channels in the query itself, so no other channel's text is ever loaded for
that viewer.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games import tables
from games.models import ChatMessage, Game, PairPublication

HISTORY_PER_CHANNEL = 50
NEW_MESSAGES_AT_MOST = 200
MESSAGE_FIELDS = ("number", "key", "sender_seat", "sender_name", "text", "created_at")

Pair = tuple[int, int]


def pair_key(pair: Iterable[int]) -> str:
    low, high = sorted(pair)
    return f"pair:{low}-{high}"


def kind_of(key: str) -> str:
    return key.split(":", 1)[0]


def dom_id_of(key: str) -> str:
    """The id of a channel's panel on the game page: ``chat-pair-0-2``."""
    return "chat-" + key.replace(":", "-")


@dataclass(frozen=True)
class Channel:
    """One channel as one viewer sees it: what it is called, whether the viewer may write in
    it (and if not, why), and for a pair who agreed to publish it."""

    key: str
    label: str
    writable: bool
    closed_because: str = ""
    team: int | None = None
    seats: Pair | None = None
    with_seat: int | None = None  # the viewer's partner, in the viewer's own pair channels
    published: bool = False
    consents: tuple[int, ...] = ()
    can_publish: bool = False  # the viewer may still agree to publish it (the game is over)

    @property
    def kind(self) -> str:
        return kind_of(self.key)

    @property
    def dom_id(self) -> str:
        return dom_id_of(self.key)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "channel": self.kind, "label": self.label, "writable": self.writable}
        if not self.writable:
            data["closed_because"] = self.closed_because
        if self.team is not None:
            data["team"] = self.team
        if self.seats is not None:
            data.update(seats=list(self.seats), published=self.published, consents=list(self.consents))
        if self.with_seat is not None:
            data["with"] = self.with_seat
        return data


@dataclass(frozen=True)
class Talk:
    """The channels one viewer of one game may read, in the order a page shows them."""

    seat: int | None  # the viewer's seat, also once a computer player has it
    channels: tuple[Channel, ...]
    left: bool = False  # a computer player has the viewer's seat: it talks as a spectator
    readable: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "readable", frozenset(c.key for c in self.channels))

    def channel(self, key: str) -> Channel | None:
        return next((c for c in self.channels if c.key == key), None)


def talk_for(*, status: str, num_teams: int, spectators_read_only: bool, players: list[dict[str, Any]],
             seat: int | None, signed_in: bool, consents: dict[Pair, frozenset[int]] | None = None,
             spectators_see_hidden: bool = False) -> Talk:
    """The channels of the viewer whose seat is ``seat`` (None: a spectator; a seat a computer
    player took from the viewer still counts), from the table's players (``seats_summary``)
    and, after the end, each pair's consents to publish. ``spectators_see_hidden``: the
    spectators see what the players do not, so while the game is in play they, and the players
    who left their seats and watch with them, only read the table (``spectators_only_read``)."""
    consents = consents if status == Game.Status.FINISHED else {}
    left = seat is not None and players[seat]["is_bot"]
    muted = spectators_see_hidden and status == Game.Status.ACTIVE
    channels = [_table(seat=None if left else seat, signed_in=signed_in, spectators_read_only=spectators_read_only,
                       spectators_see_hidden=muted)]
    started, over = status != Game.Status.OPEN, status == Game.Status.FINISHED
    if seat is not None and started:
        team = players[seat]["team"]
        if num_teams and team is not None and not left:
            channels.append(Channel(key=f"team:{team}", label=f"{tables.team_name(team)} team", writable=not over,
                                    closed_because="the game is over: talk at the table" if over else "", team=team))
        for other in players:
            if other["seat"] == seat or not has_talked(other):
                continue
            pair = _pair(seat, other["seat"])
            agreed = tuple(sorted(consents.get(pair, ())))
            closed = _pair_closed_because(over=over, left=left, other=other)
            channels.append(Channel(key=pair_key(pair), label=other["name"], writable=not closed, closed_because=closed,
                                    seats=pair, with_seat=other["seat"], published=len(agreed) == 2,
                                    consents=agreed, can_publish=over and len(agreed) < 2))
    for pair, agreed in sorted(consents.items()):
        if len(agreed) == 2 and seat not in pair:
            label = f"{players[pair[0]]['name']} & {players[pair[1]]['name']}"
            channels.append(Channel(key=pair_key(pair), label=label, writable=False,
                                    closed_because="a published conversation between two players", seats=pair,
                                    published=True, consents=tuple(sorted(agreed))))
    return Talk(seat=seat, channels=tuple(channels), left=left)


def has_talked(player: dict[str, Any]) -> bool:
    """Whether a seat has, or had, a player to talk with: not empty, not a computer player
    from the start (a seat that passed to one keeps its player's conversations)."""
    return not player["empty"] and not (player["is_bot"] and player["user_id"] is None)


def _pair_closed_because(*, over: bool, left: bool, other: dict[str, Any]) -> str:
    if over:
        return "the game is over: talk at the table"
    if left:
        return "a computer player has your seat: you talk at the table now"
    if other["is_bot"]:
        return f"a computer player has {other['name']}'s seat: they talk at the table now"
    return ""


def _table(*, seat: int | None, signed_in: bool, spectators_read_only: bool, spectators_see_hidden: bool) -> Channel:
    if not signed_in and not (spectators_read_only or spectators_see_hidden):  # a name would not let them talk
        return Channel(key="table", label="Table", writable=False,
                       closed_because="pick a guest name or sign in to talk")
    if seat is None and spectators_see_hidden:
        return Channel(key="table", label="Table", writable=False,
                       closed_because="spectators see what the players do not in this game: they may only read "
                                      "the table talk until it ends")
    if seat is None and spectators_read_only:
        return Channel(key="table", label="Table", writable=False,
                       closed_because="spectators of this game may only read the table talk")
    return Channel(key="table", label="Table", writable=True)


def _pair(one: int, other: int) -> Pair:
    return (one, other) if one < other else (other, one)


def pair_consents(game_id: int) -> dict[Pair, frozenset[int]]:
    """Per pair of seats, the seats that agreed to publish its channel."""
    agreed: dict[Pair, set[int]] = {}
    for seat, with_seat in PairPublication.objects.filter(game_id=game_id).values_list("seat", "with_seat"):
        agreed.setdefault(_pair(seat, with_seat), set()).add(seat)
    return {pair: frozenset(seats) for pair, seats in agreed.items()}


def talk_of(game: Game, user, players: list[dict[str, Any]] | None = None) -> Talk:
    """The talk of ``user`` at ``game``, read from the database (HTTP, services)."""
    from games.selectors.games import seats_summary

    players = players if players is not None else seats_summary(game)
    signed_in = user is not None and user.is_authenticated
    seat = next((p["seat"] for p in players if signed_in and p["user_id"] == user.pk), None)
    consents = pair_consents(game.pk) if game.status == Game.Status.FINISHED else {}
    return talk_for(status=game.status, num_teams=game.num_teams, spectators_read_only=game.spectators_read_only,
                    players=players, seat=seat, signed_in=signed_in, consents=consents,
                    spectators_see_hidden=spectators_see_hidden(game))


def spectators_see_hidden(game: Game) -> bool:
    """Whether the game's spectators see what its players do not (Fogbound's "spectators see
    the whole garden")."""
    return bool((game.options or {}).get("spectators_see_all"))


def spectators_only_read(game: Game) -> bool:
    """Whether a spectator of ``game`` may only read the table talk now: its creator said so, or
    its spectators see what the players do not while it is in play."""
    return game.spectators_read_only or (spectators_see_hidden(game) and game.status == Game.Status.ACTIVE)


def message_dict(row: dict[str, Any]) -> dict[str, Any]:
    """A stored message as clients get it (docs/api.md, "Table talk")."""
    return {"id": row["number"], "key": row["key"], "channel": kind_of(row["key"]), "seat": row["sender_seat"],
            "name": row["sender_name"], "text": row["text"], "at": row["created_at"].isoformat()}


def history(game_id: int, talk: Talk, per_channel: int = HISTORY_PER_CHANNEL) -> dict[str, list[dict[str, Any]]]:
    """The newest ``per_channel`` messages of each channel the viewer reads, oldest first.

    One query reads the newest ``per_channel`` times the channels' count across them all:
    each channel's newest come first in it, so a channel with ``per_channel`` of them there
    is whole, and so is every channel when the query found fewer rows than it asked for.
    Only a quiet channel beside busy ones, when the query was cut short, is read again alone.
    """
    keys = sorted(talk.readable)
    found: dict[str, list[dict[str, Any]]] = {key: [] for key in keys}
    if not keys:
        return found
    limit = per_channel * len(keys)
    rows = list(ChatMessage.objects.filter(game_id=game_id, key__in=keys).order_by("-number")
                .values(*MESSAGE_FIELDS)[:limit])
    for row in rows:
        if len(found[row["key"]]) < per_channel:
            found[row["key"]].append(row)
    if len(rows) == limit:
        for key in [key for key, newest in found.items() if len(newest) < per_channel]:
            found[key] = list(ChatMessage.objects.filter(game_id=game_id, key=key).order_by("-number")
                              .values(*MESSAGE_FIELDS)[:per_channel])
    return {key: [message_dict(row) for row in reversed(newest)] for key, newest in found.items()}


def messages_after(game_id: int, readable: Iterable[str], after: int,
                   limit: int = NEW_MESSAGES_AT_MOST) -> list[dict[str, Any]]:
    """The messages after number ``after`` in the channels ``readable``, oldest first."""
    rows = ChatMessage.objects.filter(game_id=game_id, key__in=list(readable), number__gt=after).order_by("number")
    return [message_dict(row) for row in rows.values(*MESSAGE_FIELDS)[:limit]]


def page(game_id: int, talk: Talk, *, channel: str | None = None, after: int | None = None,
         before: int | None = None, limit: int = 50) -> tuple[list[dict[str, Any]], bool]:
    """One page of the messages the viewer may read (of one channel, or all), oldest first,
    and whether more lie beyond it: after ``after`` the oldest such, otherwise the newest
    (before ``before``, if given)."""
    keys = [channel] if channel is not None else sorted(talk.readable)
    rows = ChatMessage.objects.filter(game_id=game_id, key__in=[k for k in keys if k in talk.readable])
    if before is not None:
        rows = rows.filter(number__lt=before)
    if after is not None:
        found = list(rows.filter(number__gt=after).order_by("number").values(*MESSAGE_FIELDS)[:limit + 1])
        return [message_dict(r) for r in found[:limit]], len(found) > limit
    found = list(rows.order_by("-number").values(*MESSAGE_FIELDS)[:limit + 1])
    return [message_dict(r) for r in reversed(found[:limit])], len(found) > limit
