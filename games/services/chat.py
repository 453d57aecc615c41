"""Table talk: posting a message and agreeing to publish a pair's conversation.

Both work under the game's lock, so a game's message numbers commit in increasing order (a
socket that has sent up to number N never misses a later-committed message with a smaller
one),
and the rate limit, counted in the database, holds across workers. After the commit the
game's sockets get a notice naming the message's number and channel, never its text: each
socket reads what its own viewer may read (``selectors.chat``).
"""
from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import inputs
from games.errors import BadRequest, ChannelClosed, Forbidden, NotSeated, TooManyMessages, Unauthenticated
from games.models import ChatMessage, Game, PairPublication
from games.selectors import chat as talk
from games.selectors.games import display_name, seats_summary
from games.services.broadcast import announce_chat
from games.services.locking import locked_game

RATE_MESSAGES = 5
RATE_SECONDS = 10


def post_message(*, game_id: int, user, channel: str, text: str, to: int | None = None) -> dict[str, Any]:
    """Store ``user``'s message in ``channel`` (``table``, ``team``, or ``pair`` with the seat
    ``to``) and announce it once committed; the message as clients get it."""
    if user is None or not user.is_authenticated:
        raise Unauthenticated("pick a guest name or sign in to talk")
    text = inputs.CHAT_TEXT.clean(text, "text")
    with locked_game(game_id) as game:
        players = seats_summary(game)
        viewer = talk.talk_of(game, user, players)
        key = _channel_key(game, players, viewer, channel, to)
        target = viewer.channel(key)
        if target is None:
            raise Forbidden("you may not write in this channel")
        if not target.writable:
            raise (ChannelClosed if key != "table" else Forbidden)(target.closed_because)
        _check_rate(game, user)
        seat = None if viewer.left else viewer.seat
        name = next((p["name"] for p in players if p["seat"] == seat), None) if seat is not None else None
        message = ChatMessage.objects.create(game=game, key=key, sender=user, sender_seat=seat, number=_next_number(game),
                                             sender_name=(name or display_name(user))[:60], text=text)
        notice = {"type": "chat.posted", "id": message.number, "key": key}
        transaction.on_commit(lambda: announce_chat(game_id, notice), robust=True)
    return talk.message_dict({"number": message.number, "key": key, "sender_seat": message.sender_seat,
                              "sender_name": message.sender_name, "text": text, "created_at": message.created_at})


def consent_to_publish(*, game_id: int, user, with_seat: int) -> dict[str, Any]:
    """Record that ``user``'s seat agrees to publish its pair channel with ``with_seat``, once
    the game is over; the pair's channel as the consenting player now sees it."""
    if user is None or not user.is_authenticated:
        raise Unauthenticated("sign in as the seat's player to publish its conversation")
    with locked_game(game_id) as game:
        players = seats_summary(game)
        seat = next((p["seat"] for p in players if p["user_id"] == user.pk), None)
        if seat is None:
            raise NotSeated("only the two players of a pair channel can publish it")
        key = _pair_channel_key(players, seat, with_seat)
        if game.status != Game.Status.FINISHED:
            raise ChannelClosed("a pair's conversation can be published only after the game ends")
        _, created = PairPublication.objects.get_or_create(game=game, seat=seat, with_seat=with_seat)
        if created:
            transaction.on_commit(lambda: announce_chat(game_id, {"type": "chat.changed", "key": key}), robust=True)
        channel = talk.talk_of(game, user, players).channel(key)
    return channel.as_dict()


def _channel_key(game: Game, players: list[dict[str, Any]], viewer: talk.Talk, channel: str, to: int | None) -> str:
    """The key of the viewer's ``channel``, or the error that says why there is none."""
    if channel == "table":
        return "table"
    seat = viewer.seat
    if seat is None:
        raise NotSeated(f"spectators have no {channel} channel; talk at the table")
    if channel == "team":
        if not game.num_teams:
            raise BadRequest("this game is played without teams: there is no team channel")
        if game.status == Game.Status.OPEN:
            raise ChannelClosed("the team channel opens when the game starts (teams may change until then)")
        if viewer.left:
            raise Forbidden("a computer player has your seat: you no longer read or write your team's channel")
        return f"team:{players[seat]['team']}"
    if to is None:
        raise BadRequest('a pair message needs "to": the seat of the player to talk to')
    key = _pair_channel_key(players, seat, to)
    if game.status == Game.Status.OPEN:
        raise ChannelClosed("private channels open when the game starts (seats may change until then)")
    return key


def _pair_channel_key(players: list[dict[str, Any]], seat: int, other: int) -> str:
    if not 0 <= other < len(players):
        raise BadRequest(f"seat must be 0 to {len(players) - 1}, got {other}")
    if other == seat:
        raise BadRequest("that is your own seat")
    if players[other]["empty"]:
        raise BadRequest(f"Seat {other + 1} is empty", seat=other)
    if not talk.has_talked(players[other]):
        raise Forbidden(f"Seat {other + 1} is a computer player: it cannot chat", seat=other)
    return talk.pair_key((seat, other))


def _check_rate(game: Game, user) -> None:
    since = timezone.now() - timedelta(seconds=RATE_SECONDS)
    recent = ChatMessage.objects.filter(game=game, sender=user, created_at__gt=since).count()
    if recent >= RATE_MESSAGES:
        raise TooManyMessages(f"at most {RATE_MESSAGES} messages in {RATE_SECONDS} seconds at one game; "
                              "wait a moment (this one was not sent)")


def _next_number(game: Game) -> int:
    """The number of the game's next message (``ChatMessage``): the microseconds now, or one more
    than the game's last. Call under the game's lock."""
    last = ChatMessage.objects.filter(game=game).aggregate(last=Max("number"))["last"] or 0
    return max(last + 1, microseconds_now())


def microseconds_now() -> int:
    return time.time_ns() // 1000
