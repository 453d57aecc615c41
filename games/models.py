"""What the database keeps: players' profiles, games, seats, the action log, table talk, API tokens.

A game's truth is its seed, its options and its action log; ``Game.state`` is a
snapshot of the state after the last logged action, kept so that a game loads
without replaying, and checked against a replay in the tests.
"""
from __future__ import annotations

import hashlib
import secrets
from functools import lru_cache

from django.conf import settings
from django.db import models
from django.utils import timezone


class OrderedJSONField(models.JSONField):
    """JSON kept as written, objects' keys in their order, on PostgreSQL too.

    PostgreSQL's ``jsonb`` (Django's JSONField) sorts an object's keys, so a state read back
    from the database would iterate in another order than the same state held by a process
    and draw, say, a board's pieces in another order after a reconnect. ``json`` keeps the
    text; nothing queries inside this column.
    """

    def db_type(self, connection):
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        from psycopg.types.json import Json

        return Json(self.get_prep_value(value) if not prepared else value)

    def from_db_value(self, value, expression, connection):
        if value is None or not isinstance(value, str):  # psycopg parses ``json`` itself
            return value
        return super().from_db_value(value, expression, connection)


class Profile(models.Model):
    """A player's public name and preferences; guests are users with ``is_guest``."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40)
    is_guest = models.BooleanField(default=False)
    email_on_turn = models.BooleanField(
        default=False, help_text="e-mail me when a by-the-day game waits for my decision")

    def __str__(self) -> str:
        return self.display_name


def new_seed_salt() -> str:
    return secrets.token_hex(16)


@lru_cache(maxsize=4096)  # a live game's every view shows it
def seed_commitment(seed: int, salt: str) -> str:
    """SHA-256 (hex) of the ASCII text ``"<seed>:<salt>"``: shown from the start, checkable
    once seed and salt are published at the end (docs/verifiable-dice.md)."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


class Game(models.Model):
    """One table of one game, from its waiting room to its result."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    class Pace(models.TextChoices):
        LIVE = "live", "Live"
        DAILY = "daily", "By the day"

    game_type = models.SlugField(max_length=40)
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    seed_salt = models.CharField(max_length=64, default=new_seed_salt,
                                 help_text="published with the seed once the game is over")
    num_seats = models.PositiveSmallIntegerField()
    num_teams = models.PositiveSmallIntegerField(default=0, help_text="teams at this table; 0: a game without teams")
    is_public = models.BooleanField(default=True)
    spectators_read_only = models.BooleanField(default=False, help_text="spectators may read the table talk, not write in it")
    invite_code = models.CharField(max_length=32, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    log_length = models.PositiveIntegerField(default=0, help_text="actions in the log; the next one's seq is this plus one")
    state = OrderedJSONField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    # {"seats": {seat: {"since": version its prompt began, "digest", "due": epoch s by the pace,
    #                   "sealed": a sealed choice (one question until its round reveals),
    #                   "deadline": epoch s, earlier than "due" while its player is away}},
    #  "sealed_round": version of the first lock of the current sealed round, or None,
    #  "sealed_seats": the seats that round waits for,
    #  "away": {seat: epoch s its player's last connection closed}, "resigned": [seats],
    #  "handover": {seat: [seats that agreed to hand it to a computer player]}, "handed": [seats],
    #  "seats_changed": version at which a seat last changed hands after the start}
    prompts = models.JSONField(default=dict)
    is_learn = models.BooleanField(default=False, help_text="a Learn to play game: against computer players, with hints")
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.LIVE)
    decision_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="seconds per decision (live) or per turn (by the day); "
        "None: each prompt's own time (live only)")
    next_deadline = models.FloatField(
        null=True, blank=True, db_index=True, help_text="epoch seconds of the earliest prompt deadline; "
        "None when nothing is timed or the game is not in play")
    # {"by": seat that offered, "accepted": [seats], "declined": seat or None,
    #  "game": the new game's id once it started} (games/services/rematch.py)
    rematch = models.JSONField(null=True, blank=True, help_text="the rematch offered once the game is over")
    rated = models.BooleanField(
        null=True, blank=True, help_text="True: rated even with guests or computer players (the creator's choice); "
        "None: rated if every seat is a signed-in player, decided when the game ends (then True or False)")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game_type} #{self.pk}"

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.seed, self.seed_salt)

    @staticmethod
    def new_invite_code() -> str:
        return secrets.token_urlsafe(12)


class Seat(models.Model):
    """A chair at a game: empty, a user, or a computer player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    is_bot = models.BooleanField(default=False)
    team = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0-based; None at a table without teams or an empty seat")
    is_team_leader = models.BooleanField(default=False, help_text="chosen as its team's leader in the waiting room "
                                         "(a team without one is led by its lowest seat)")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_seat_number_per_game"),
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user_per_game"),
        ]

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot


class ActionRecord(models.Model):
    """One applied action, in order: the game's log."""

    class Source(models.TextChoices):
        """Who made the action: a player's ``action_id`` is theirs; the server's own ids
        (computer players, timeouts) live under their own source, out of the players' reach."""

        PLAYER = "player"
        BOT = "bot"
        TIMEOUT = "timeout"
        RESIGN = "resign"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    action_id = models.CharField(max_length=64)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.PLAYER)
    events = models.JSONField(default=list)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    @classmethod
    def logged(cls, *, game: Game, seq: int, seat: int, action: dict, action_id: str, source: str,
               events: list, version: int) -> ActionRecord:
        """A new entry of ``game``'s log, as ``ActionRecord(game=game, ...)`` makes it but for the
        game object it would keep: built from its values in the fields' order, Django's quick
        path, at half the cost of keyword arguments (a move makes one or more)."""
        return cls(None, game.pk, seq, seat, action, action_id, source, events, version, None)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
            models.UniqueConstraint(fields=["game", "seat", "source", "action_id"],
                                    name="action_id_once_per_seat_and_source"),
        ]


class ChatMessage(models.Model):
    """One message of a game's table talk, in one channel: ``table``, ``team:<team>`` or
    ``pair:<seat>-<seat>`` (the lower seat first).

    Clients know a message by its ``number``, not its row id: the microseconds of its writing,
    one more than the game's last when two come in the same microsecond, so numbers increase in
    the order messages commit within a game (they are written under the game's lock), and a gap
    between two numbers counts no messages of channels the reader does not read (row ids, one
    sequence for every channel and game, did)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    number = models.PositiveBigIntegerField()
    key = models.CharField(max_length=16)
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    sender_seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="None: a spectator")
    sender_name = models.CharField(max_length=60)  # a name told apart by its seat: "Ana (seat 12)"
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["number"]
        indexes = [
            models.Index(fields=["game", "key", "number"], name="chat_channel_by_number"),
            models.Index(fields=["game", "sender", "created_at"], name="chat_sender_recent"),
        ]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_chat_message_per_number")]


class PairPublication(models.Model):
    """A seated player's consent to publish its pair channel with ``with_seat`` once the game is
    over; the channel is published when both of its seats consented."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pair_publications")
    seat = models.PositiveSmallIntegerField()
    with_seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat", "with_seat"], name="one_consent_per_pair_and_seat")]


class Rating(models.Model):
    """A player's openskill (Plackett-Luce) rating at one game; ``user`` None is the computer
    players' one shared rating at that game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="ratings")
    game_type = models.SlugField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game_type"], name="one_rating_per_user_and_game"),
            models.UniqueConstraint(fields=["game_type"], condition=models.Q(user__isnull=True),
                                    name="one_computer_rating_per_game"),
        ]
        indexes = [models.Index(fields=["game_type", "-mu"], name="rating_board")]

    @property
    def ordinal(self) -> float:
        """The rating shown to players: openskill's ordinal, mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """What one finished rated game did to one seat's rating; one row per seat that has a
    rating (signed-in players and computer players), written once."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game_type = models.SlugField(max_length=40)
    rank = models.PositiveSmallIntegerField(help_text="1: first; resigned players rank last")
    won = models.BooleanField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_rating_change_per_seat")]
        indexes = [models.Index(fields=["user", "-created_at"], name="rating_changes_of_user")]


class ApiToken(models.Model):
    """A bearer token for bots and scripts; only its SHA-256 digest is stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user, name: str) -> tuple["ApiToken", str]:
        """Create a token and return it with its key, which is shown once and never stored."""
        key = "sb_" + secrets.token_urlsafe(30)
        token = cls.objects.create(user=user, name=name, digest=cls.digest_of(key), prefix=key[:8])
        return token, key
