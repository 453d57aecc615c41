"""Every write to a game goes through here: lock, load, engine, commit, then broadcast.

Views and consumers only parse and authenticate; they call these functions, which take
keyword-only arguments and raise :mod:`games.errors` (or an engine's GameError) with a
message for the player. Nothing is broadcast before the move is committed.

One module each: ``accounts`` (guests and players), ``waiting_room`` (tables before the
start), ``play`` (moves, computer players, timeouts), ``pace`` (the deadlines' sweep, ready, players
who went away), ``resign`` (giving up a seat in play), ``handover`` (the table handing an away
player's seat to a computer player), ``turn_mail`` (e-mails when a game by
the day waits for a decision), ``reveal`` (sealed rounds and the
reveal barrier), ``locking`` (the game lock and transaction), ``broadcast`` (announcing a
committed version), ``chat`` (table talk: posting, publishing a pair's conversation), ``rematch`` (the same
table again after the end).
"""
from games.services.accounts import clean_display_name, create_guest, email_in_use, ensure_profile, register_user, update_settings
from games.services.broadcast import LOBBY_GROUP, broadcast_version, game_group
from games.services.chat import consent_to_publish, post_message
from games.services.handover import vote_handover
from games.services.pace import mark_ready, note_away, note_back, sweep_deadlines
from games.services.play import (ActionResult, apply_timeouts, next_deadline, replay, submit_action,
                                 submit_held_action, submit_held_action_awaited)
from games.services.rematch import accept_rematch, decline_rematch, offer_rematch
from games.services.resign import resign
from games.services.waiting_room import (
    add_bot, choose_leader, choose_team, create_game, join_seat, leave_seat, move_seat, remove_bot, start_game,
)

__all__ = [
    "LOBBY_GROUP", "ActionResult", "accept_rematch", "add_bot", "apply_timeouts", "broadcast_version", "choose_leader",
    "choose_team", "clean_display_name", "consent_to_publish", "create_game",
    "create_guest", "decline_rematch", "email_in_use", "ensure_profile", "game_group", "join_seat", "leave_seat", "move_seat", "next_deadline",
    "mark_ready", "offer_rematch", "note_away", "note_back", "post_message", "register_user", "remove_bot", "replay", "resign",
    "SEAT_CALLS", "start_game", "submit_action", "submit_held_action", "submit_held_action_awaited", "sweep_deadlines", "update_settings", "vote_handover",
]


SEAT_CALLS = {
    "join": lambda g, u, seat, team: join_seat(game_id=g, user=u, number=seat, team=team),
    "move": lambda g, u, seat, team: move_seat(game_id=g, user=u, number=seat),
    "leave": lambda g, u, seat, team: leave_seat(game_id=g, user=u),
    "team": lambda g, u, seat, team: choose_team(game_id=g, user=u, team=team, number=seat),
    "leader": lambda g, u, seat, team: choose_leader(game_id=g, user=u, number=seat),
    "add-bot": lambda g, u, seat, team: add_bot(game_id=g, user=u, number=seat, team=team),
    "remove-bot": lambda g, u, seat, team: remove_bot(game_id=g, user=u, number=seat),
    "start": lambda g, u, seat, team: start_game(game_id=g, user=u),
    "resign": lambda g, u, seat, team: resign(game_id=g, user=u),
    "handover": lambda g, u, seat, team: vote_handover(game_id=g, user=u, seat=seat),
    "rematch": lambda g, u, seat, team: offer_rematch(game_id=g, user=u),
    "rematch-accept": lambda g, u, seat, team: accept_rematch(game_id=g, user=u),
    "rematch-decline": lambda g, u, seat, team: decline_rematch(game_id=g, user=u),
}
"""The table's seat operations by name, each called with the game's id, the user, and the
seat number and team its form or body gave: the page's buttons (games/views.py) and the
API's waiting room (games/api.py) both call these."""
