"""Every read: one module each for a game's row and seats (``games``), the lobby's lists and a
player's finished games (``lobby``), what one viewer of one game may see (``snapshots``), the
table talk one viewer may read (``chat``, imported as ``games.selectors.chat``) and a game's
step-by-step review (``review``, imported as ``games.selectors.review``)."""
from games.selectors.games import (
    bot_seats, can_watch, dice, display_name, fill_names, game_state, get_game, seat_held, seat_names, seat_of,
    seat_played_and_held, seats_summary, viewer_version,
)
from games.selectors.lobby import finished_games_of, live_games, my_games, open_games, recently_finished_games
from games.selectors.snapshots import (
    LOG_LENGTH, LOG_PAGE, PAYLOADS, SNAPSHOTS, GameSnapshot, LogRecord, ViewerView, forget_game, game_log,
    held_if_current, log_records, named_outcome, note_commit, payload_for, rematch_summary, snapshot, snapshot_of,
    user_payload, view_digest, view_frame, viewer_payload,
)

__all__ = [
    "LOG_LENGTH", "LOG_PAGE", "PAYLOADS", "SNAPSHOTS", "GameSnapshot", "LogRecord", "ViewerView",
    "bot_seats", "can_watch", "dice", "display_name", "fill_names", "finished_games_of", "forget_game", "game_log",
    "game_state", "get_game", "held_if_current", "live_games", "log_records", "my_games", "named_outcome",
    "note_commit", "open_games", "payload_for",
    "recently_finished_games", "rematch_summary", "seat_held", "seat_names", "seat_of", "seat_played_and_held",
    "seats_summary", "snapshot", "snapshot_of", "user_payload", "view_digest",
    "view_frame", "viewer_payload", "viewer_version",
]
