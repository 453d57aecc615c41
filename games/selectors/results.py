"""How a finished game's result reads, on its page and in "My games": at a team table, by team.

A team's score is the one its seats share (each seat's ``scores`` entry is its team's
total); its players are named once, a player who resigned marked so and never named a
winner."""
from __future__ import annotations

import re
from typing import Any

from games import tables


def team_results(*, outcome: dict[str, Any], players: list[dict[str, Any]],
                 resigned: list[int]) -> list[dict[str, Any]]:
    """Each team of a team table, in team order: ``team``, ``name``, ``colour``, ``score``
    (None if the outcome has none), ``won``, ``players`` (``{"seat", "name", "resigned"}``),
    ``winners`` (the names of its players who did not resign) and ``breakdown`` (the team's
    scoring rows, once). Empty at a table without teams."""
    teams = sorted({p["team"] for p in players if p.get("team") is not None})
    scores, breakdowns = outcome.get("scores") or [], outcome.get("breakdown") or []
    winners = set(outcome.get("winners") or ())
    rows = []
    for team in teams:
        members = [p for p in players if p.get("team") == team]
        first = members[0]["seat"]
        named = [{"seat": p["seat"], "name": p["name"], "resigned": p["seat"] in resigned} for p in members]
        rows.append({
            "team": team, "name": tables.team_name(team), "colour": tables.team_colour(team),
            "score": scores[first] if first < len(scores) else None,
            "won": any(p["seat"] in winners for p in members),
            "players": named,
            "winners": [p["name"] for p in named if not p["resigned"]],
            "breakdown": breakdowns[first] if first < len(breakdowns) else None,
        })
    return rows


def result_words(*, outcome: dict[str, Any], players: list[dict[str, Any]], resigned: list[int],
                 seat: int | None, handed: list[int] = ()) -> dict[str, str]:
    """A finished game's line in "My games": ``verdict`` for ``seat`` ("Won", "Lost", "Drew"
    when nobody won, "Resigned", "Left" when the table handed the seat to a computer player:
    whatever it did after, as ``ratings.seat_result`` counts it; "" for a spectator) and
    ``scores`` ("Red 33 – Blue 3" at a team table, each team's score once; else each seat's
    player and score, "Ana 12 – Ben 8")."""
    if seat is None:
        verdict = ""
    elif seat in resigned:
        verdict = "Resigned"
    elif seat in handed:
        verdict = "Left"
    elif outcome.get("winners") == []:
        verdict = "Drew"
    else:
        verdict = "Won" if seat in (outcome.get("winners") or ()) else "Lost"
    teams = team_results(outcome=outcome, players=players, resigned=resigned)
    if teams:
        scores = " – ".join(f"{t['name']} {t['score']}" for t in teams if t["score"] is not None)
    else:
        names = [p["name"] for p in players]
        scores = " – ".join(f"{names[n]} {score}" if n < len(names) else str(score)
                            for n, score in enumerate(outcome.get("scores") or ()))
    return {"verdict": verdict, "scores": scores}


def team_verdict(teams: list[dict[str, Any]], *, unit: str, unit_one: str) -> str:
    """The result line at a team table: "Red wins with 33 points: Ana and Computer 4!", the
    winning team's score once and the players who won with it (not one who resigned)."""
    won = [t for t in teams if t["won"]]
    if not won:
        return "No winner."

    def points(score: int | None, each: str = "") -> str:
        return "" if score is None else f" with {score} {unit_one if score == 1 else unit}{each}"

    if len(won) == 1:
        team = won[0]
        names = " and ".join(team["winners"])
        return f"{team['name']} wins{points(team['score'])}{': ' + names if names else ''}!"
    shares = " and ".join(f"{t['name']} ({', '.join(t['winners'])})" if t["winners"] else t["name"] for t in won)
    scores = {t["score"] for t in won}
    return f"{shares} share the victory{points(scores.pop(), ' each') if len(scores) == 1 else ''}!"


_ENDED_AT_START = re.compile(r"\bThe game ended at the start of turn (\d+) because ")


def ended_before_turn(text: str) -> str:
    """``text`` saying of a game that ended as a turn was to begin (a player could not draw for
    it) that it ended after the last turn played: "The game ended at the start of turn 28
    because Ana could not draw enough cards" reads "The game ended after turn 27, as turn 28
    could not begin: Ana could not draw enough cards", so that no turn that was never played is
    named as the last (the board says "Game over after turn 27" beside it). The engine's words
    stay as they are in the game's record (a replay of the game is checked against them)."""
    def words(match: re.Match[str]) -> str:
        turn = int(match[1])
        if turn <= 1:
            return f"The game ended before turn {turn} could begin: "
        return f"The game ended after turn {turn - 1}, as turn {turn} could not begin: "
    if "at the start of turn" not in text:  # every logged line passes here: most are not it
        return text
    return _ENDED_AT_START.sub(words, text)
