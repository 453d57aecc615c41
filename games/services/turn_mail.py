"""E-mails to players who asked for one when a game by the day waits for their decision.

One e-mail per prompt: a prompt is new when its seat's entry in ``Game.prompts`` is new
(``play._prepare_write``), and the mail goes out after that write commits, unless the player
has the game open then (its page or a socket: the coordinator's presence), and sees it.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from games import engines, pacing
from games.coordinator import get_coordinator
from games.models import Game, Seat

log = logging.getLogger(__name__)


def after_commit(*, game_id: int, pace: str, deadlines: dict[int, float | None]) -> None:
    """Once the write that asks the seats of ``deadlines`` (each with its prompt's deadline, or
    None) commits, mail those of their players who opted in."""
    if pace != pacing.DAILY or not deadlines:
        return
    transaction.on_commit(lambda: _send(game_id, dict(deadlines)), robust=True)


def _watching_seats(game_id: int) -> list[int]:
    """The seats whose player has the game open now; none when presence cannot be read."""
    try:
        return sorted(get_coordinator().presence(game_id).seats_connected)
    except Exception as exc:
        log.warning("game %s: who has it open could not be read (%s); turn e-mails go to every asked seat",
                    game_id, exc)
        return []


def _send(game_id: int, deadlines: dict[int, float | None]) -> None:
    game = Game.objects.only("game_type", "pace", "decision_seconds").get(pk=game_id)
    name = engines.get(game.game_type).name
    url = settings.SNOWBALL_SITE_URL + reverse("game", args=[game_id])
    seats = (Seat.objects.filter(game_id=game_id, number__in=list(deadlines), is_bot=False,
                                 user__profile__email_on_turn=True)
             .exclude(user__email="").exclude(number__in=_watching_seats(game_id)).select_related("user"))
    for seat in seats:
        deadline = deadlines.get(seat.number)
        when = f" within {pacing.duration_text(game.decision_seconds)}" if deadline else ""
        send_mail(
            subject=f"Your turn in {name} #{game_id}",
            message=(f"{name} #{game_id} is waiting for your decision. Decide{when} at {url} "
                     "or your seat's default is played for you.\n\n"
                     "You get this e-mail because you asked for one (on your settings page or in a game); "
                     "untick \"E-mail me when it is my turn\" there to stop them."),
            from_email=None, recipient_list=[seat.user.email])
