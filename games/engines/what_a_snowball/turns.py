"""What a Snowball!'s turns and its end: initiative, the next activation, surrenders, the score and
the outcome.
"""
from __future__ import annotations

from typing import Any

from ..base import Event, State
from .common import (
    MOMENT_CARDS,
    TEAM_NAMES,
    TURNS,
    WIN_BONUS,
    WIPED_OUT,
    _asks,
    _dice_words,
    _event,
    _in_play,
    _label,
    _several_teams_left,
    _teams_left,
)


class Turns:
    """Turns, activations in order, and the end of the game. A part of ``engine.WhatASnowball``."""

    def _start_turn(self, s: State, events: list[Event]) -> None:
        s["phase"] = "play"
        s["turn"] += 1
        ids = _in_play(s)
        bonus = {k: s["kids"][k]["prepare"] for k in ids}
        order, rolls = self._ordered(s, ids, bonus)
        for k in ids:
            s["kids"][k]["prepare"] = 0
        s["order"] = order
        s["order_rolls"] = rolls
        s["next_index"] = 0
        first = rolls[0]
        words = ", ".join(f"{s['kids'][k]['name']} {first['rolls'][k]}"
                          + (f"+{first['bonus'][k]}" if first["bonus"].get(k) else "") for k in first["group"])
        ties = "".join("; tie re-rolled: " + ", ".join(f"{s['kids'][k]['name']} {r['rolls'][k]}" for k in r["group"])
                       for r in rolls[1:])
        _event(events, "turn", f"Turn {s['turn']} of {TURNS}. Activation rolls: {words}{ties}. Order: "
               f"{', '.join(s['kids'][k]['name'] for k in order)}.", turn=s["turn"], rolls=rolls, order=order)

    def _next_activation(self, s: State, events: list[Event]) -> None:
        while s["next_index"] < len(s["order"]):
            kid_id = s["order"][s["next_index"]]
            s["next_index"] += 1
            kid = s["kids"][kid_id]
            if kid["home"] is not None:
                continue
            s["activation"] = {"kid": kid_id, "stage": "start", "tray": []}
            _event(events, "activation", f"{_label(s, kid_id)} activates.", kid=kid_id, seat=kid["seat"])
            if not _asks(s, kid["seat"], MOMENT_CARDS["start"]):
                self._roll_command_dice(s, events, kid["command_dice"])
            return
        _event(events, "end_turn", f"End of turn {s['turn']}.", turn=s["turn"])
        if s["turn"] >= TURNS:
            self._end_game(s, events, "six turns are over")
        else:
            self._start_turn(s, events)

    def _advance(self, s: State, events: list[Event]) -> None:
        """Run every step that needs nobody's decision: surrenders, automatic ends, next activations and turns."""
        while s["phase"] != "over":
            if s["pending"] is None and s["throw"] is None:
                self._apply_surrenders(s, events)
            if s["phase"] in ("corners", "deploy"):
                return
            if s["pending"] is not None:
                return
            if not _several_teams_left(s):
                self._end_game(s, events, "one team is left" if _teams_left(s) else "no Kids are left")
                return
            activation = s["activation"]
            if activation is None:
                self._next_activation(s, events)
                continue
            if activation["stage"] == "start":
                return
            if not activation["tray"]:
                _event(events, "end_activation", f"{s['kids'][activation['kid']]['name']} has spent every Command "
                       "Die.", kid=activation["kid"], unspent=[], automatic=True)
                self._end_activation(s, events)
                continue
            if not self._can_spend(s):
                _event(events, "end_activation", f"{s['kids'][activation['kid']]['name']} can do nothing with "
                       f"{_dice_words(activation['tray'])} and ends its activation.", kid=activation["kid"],
                       unspent=list(activation["tray"]), automatic=True)
                self._end_activation(s, events)
                continue
            return

    def _apply_surrenders(self, s: State, events: list[Event]) -> None:
        """Send home the Kids of every team whose seats all voted to surrender (from the first turn on)."""
        if s["phase"] != "play" or not any(s["surrender_votes"]):
            return
        for team in range(s["team_count"]):
            if team in s["surrendered"]:
                continue
            if all(s["surrender_votes"][seat] for seat in self._team_seats(s, team)):
                s["surrendered"].append(team)
                _event(events, "surrender", f"Team {TEAM_NAMES[team]} surrenders.", team=team)
                for kid_id in s["kid_order"]:
                    kid = s["kids"][kid_id]
                    if kid["team"] == team and kid["home"] is None:
                        self._send_home(s, events, kid_id, "surrender")
                if s["activation"] is not None and s["kids"][s["activation"]["kid"]]["home"] is not None:
                    self._end_activation(s, events)

    # the end

    def _team_scores(self, s: State) -> list[dict[str, Any]]:
        counts = {t: 0 for t in range(s["team_count"])}
        sizes = {t: 0 for t in range(s["team_count"])}
        points = {t: 0 for t in range(s["team_count"])}
        for kid in s["kids"].values():
            sizes[kid["team"]] += 1
            if kid["home"] is None:
                counts[kid["team"]] += 1
                points[kid["team"]] += kid["points"]
        most = max(counts.values())
        rows = []
        for t in range(s["team_count"]):
            breakdown = [{"label": "points of remaining Kids", "points": points[t]}]
            if counts[t] == sizes[t]:
                breakdown.append({"label": "all its Kids still in the fight", "points": WIN_BONUS})
            if counts[t] == most and most > 0:
                breakdown.append({"label": "most Kids remaining", "points": WIN_BONUS})
            if counts[t] == 0:
                breakdown.append({"label": "lost all its Kids", "points": WIPED_OUT})
            rows.append({"team": t, "kids_left": counts[t], "score": sum(b["points"] for b in breakdown),
                         "breakdown": breakdown})
        return rows

    def _end_game(self, s: State, events: list[Event], why: str) -> None:
        rows = self._team_scores(s)
        left = _teams_left(s)
        if len(left) == 1 and s["turn"] > 0 and why != "six turns are over":
            winners = left
        else:
            best = max(r["score"] for r in rows)
            winners = [r["team"] for r in rows if r["score"] == best and r["team"] not in s["surrendered"]]
        s["phase"] = "over"
        s["activation"] = s["pending"] = s["throw"] = None
        s["result"] = {"why": why, "teams": rows, "winning_teams": winners}
        scores = ", ".join(f"{TEAM_NAMES[r['team']]} {r['score']}" for r in rows)
        _event(events, "game_over", f"The game ends: {why}. Scores: {scores}. "
               f"{' and '.join(TEAM_NAMES[t] for t in winners)} win{'s' if len(winners) == 1 else ''}!",
               why=why, teams=rows, winners=winners)

    def outcome(self, state: State) -> dict[str, Any] | None:
        result = state["result"]
        if result is None:
            return None
        rows = {r["team"]: r for r in result["teams"]}
        seats = range(state["players"])
        return {
            "reason": f"The game ended: {result['why']}.",
            "scores": [rows[state["seat_team"][seat]]["score"] for seat in seats],
            "winners": [seat for seat in seats if state["seat_team"][seat] in result["winning_teams"]],
            "losers": [seat for seat in seats if state["seat_team"][seat] not in result["winning_teams"]],
            "breakdown": [[dict(b) for b in rows[state["seat_team"][seat]]["breakdown"]] for seat in seats],
            "teams": [dict(r, breakdown=[dict(b) for b in r["breakdown"]]) for r in result["teams"]],
            "winning_teams": list(result["winning_teams"]),
        }

    def resigned_outcome(self, state: State, winners: list[int]) -> dict[str, Any]:
        """The outcome when the teams of ``winners`` are left after the others resigned: every
        team's score as it stands (as the end of the game would count it)."""
        rows = self._team_scores(state)
        winning = sorted({state["seat_team"][seat] for seat in winners})
        by_team = {r["team"]: r for r in rows}
        seats = range(state["players"])
        return {
            "scores": [by_team[state["seat_team"][seat]]["score"] for seat in seats],
            "winners": list(winners),
            "losers": [seat for seat in seats if seat not in winners],
            "breakdown": [[dict(b) for b in by_team[state["seat_team"][seat]]["breakdown"]] for seat in seats],
            "teams": rows,
            "winning_teams": winning,
        }
