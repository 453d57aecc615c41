"""Snowball Fight at tables of three to six: the 3+ player variant ("ring") and Team Play.

``engine.py`` holds the rules every table shares (the draft, the stages of a battle,
the effect prompts); this module holds what changes with more seats: the decks, the
draft's passing, the Arsenal piles, each turn's draws and No Effect cards, the split of
a reveal into battles resolved one at a time, the team leader's deal, and the end of
the game with its tie-break. README.md beside this file lists the rulings.

State keys added to the two-player layout:

    mode            "ring" (3-6 players, each plays one card to each neighbour) or "teams"
    no_effect       per seat: its No Effect card (never in a pile)
    set_aside       cards out of the game (odd tables' spare Basics, No Effect cards of
                    unused seats, Arsenal cards beyond the book's pile sizes)
    active          seats playing this turn (a tie-break's final round: the tied seats)
    tiebreak        None, or {tied, scores} once a tie sent the tied seats to a final round
  teams only:
    teams, leaders  each seat's team (0/1); each team's leader seat
    opponents       each seat's opponent across the table
    dpile           each seat's discard pile index: its team (discard/face_down are per team)
    common          per team: whether its common draw deck has been formed
    team_draw       per team: the common draw deck
    pool            per team: None, or {cards, to}: the leader's draw not yet handed out
    set_down        per team: cards the team put face-down this turn (Barrage may use them)
"""
from __future__ import annotations

from itertools import permutations
from typing import Any

from games.engines.base import Action, BadAction, Event, IllegalAction, NotYourTurn, State, rng_for, shown
from games.engines.snowball_fight import asking
from games.engines.snowball_fight import cards as C
from games.engines.snowball_fight import engine as E
from games.engines.snowball_fight.cards import card_name

TEAM_LISTS = ("team_draw", "pool", "set_down", "common")
TEAM_NAMES = ("Red", "Blue")
SIDES = E.SIDE_NAMES
DEAL_TEXT = ("Team leader: hand one of the drawn cards to each team-mate listed; the two "
             "left over go face-down to the team discard pile.")


def decks_for(players: int) -> int:
    """Decks used: one for two players, plus one for every one or two more."""
    return 1 + (players - 1) // 2


def central_size(players: int, teams: bool) -> int:
    """Cards in the central Arsenal pile (rule book: none with 3 players, one with 5)."""
    if teams or players % 2 == 0 or players == 3:
        return 0
    return 1 if players == 5 else 6


# --------------------------------------------------------------------------- setup


def team_layout(players: int, teams: Any) -> tuple[list[int], list[int]]:
    """Checked teams and each seat's opponent (the k-th member of one team faces the k-th of the other)."""
    if not isinstance(teams, (list, tuple)) or len(teams) != players:
        raise BadAction(f"teams must list the team (0 or 1) of each of the {players} seats, got {shown(teams)}")
    for seat, team in enumerate(teams):
        if team not in (0, 1) or isinstance(team, bool):
            raise BadAction(f"teams[{seat}] must be 0 or 1, got {shown(team)}")
    sizes = [list(teams).count(0), list(teams).count(1)]
    if sizes[0] != sizes[1] or sizes[0] < 2:
        raise BadAction(f"team play needs two teams of the same size, two players or more each (4 or 6 seats); "
                        f"these teams would have {sizes[0]} and {sizes[1]} players")
    members = [[x for x in range(players) if teams[x] == t] for t in (0, 1)]
    opponents = [0] * players
    for a, b in zip(*members):
        opponents[a], opponents[b] = b, a
    return list(teams), opponents


def _leaders(options: dict[str, Any], teams: list[int]) -> list[int]:
    leaders = options.get("team_leaders")
    if leaders is None:
        return [teams.index(0), teams.index(1)]
    if not isinstance(leaders, (list, tuple)) or len(leaders) != 2:
        raise BadAction(f"option team_leaders must list two seats, one per team, got {shown(leaders)}")
    for team, seat in enumerate(leaders):
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(teams) \
                or teams[seat] != team:
            raise BadAction(f"team_leaders[{team}] must be a seat of team {team}, got {shown(seat)}")
    return list(leaders)


def new_table_game(*, players: int, options: dict[str, Any] | None, seed: int,
                   teams: Any) -> State:
    """A 3+ player or team game at the start of the draft."""
    options = dict(options or {})
    leaders_option = options.pop("team_leaders", None)
    if teams is None and leaders_option is not None:
        raise BadAction("option team_leaders is only for team play")
    if teams is None and not 3 <= players <= E.MAX_SEATS:
        raise BadAction(f"Snowball Fight takes 2 to {E.MAX_SEATS} players, got {players}")
    opts = E.normalize_options(options)
    n = players
    decks = decks_for(n)
    s: State = {
        "seed": seed, "rng_counter": 0, "players": n, "options": opts,
        "phase": "draft", "step": "pick", "turn": 0, "final_round": False,
        "hands": [[] for _ in range(n)], "draw": [[] for _ in range(n)],
        "discard": [[] for _ in range(n)], "face_down": [[] for _ in range(n)],
        "cache": [[] for _ in range(n)], "arsenal": [], "abandoned": [],
        "draws_next": [E.HAND_SIZE] * n, "whitewash": [[] for _ in range(n)],
        "shown": [[] for _ in range(n)], "sealed": [None] * n, "locked": [False] * n,
        "draft": None, "battle": None, "last_reveal": None, "result": None,
        "mode": "ring", "active": list(range(n)), "tiebreak": None,
    }
    basic_sets = [[C.in_deck(c, k // 2) for c in C.STARTING_BASICS[k % 2]] for k in range(2 * decks)]
    no_effects = [C.in_deck(C.NO_EFFECT[k % 2], k // 2) for k in range(2 * decks)]
    s["draw"] = basic_sets[:n]
    s["no_effect"] = no_effects[:n]
    s["set_aside"] = [c for spare in basic_sets[n:] for c in spare] + no_effects[n:]
    if teams is not None:
        team_of, opponents = team_layout(n, teams)
        leaders = _leaders({"team_leaders": leaders_option}, team_of)
        opts["team_leaders"] = leaders
        s.update(mode="teams", teams=team_of, leaders=leaders, opponents=opponents, dpile=team_of,
                 discard=[[], []], face_down=[[], []], common=[False, False], team_draw=[[], []],
                 pool=[None, None], set_down=[[], []])
        del s["active"]
    advanced = [C.in_deck(c, k) for k in range(decks) for c in C.ADVANCED]
    rng_for(s).shuffle(advanced)
    if opts["draft"] == "quick":
        deal = 3
        s["step"] = "keep"
    else:
        deal = 4
    packs = [advanced[i * deal:(i + 1) * deal] for i in range(n)]
    extremes = [C.in_deck(c, k) for k in range(decks) for c in E.extremes_in_play(opts)]
    s["draft"] = {"round": 1, "packs": packs, "kept": [[] for _ in range(n)],
                  "returned": advanced[n * deal:], "extremes": extremes}
    if teams is not None:
        s["draft"]["pass_to"] = _team_pass_order(s)
    return s


def _team_pass_order(s: State) -> list[int]:
    """Each seat passes to an opponent and receives from another one (a0 -> b0 -> a1 -> b1 ...)."""
    members = [[x for x in range(s["players"]) if s["teams"][x] == t] for t in (0, 1)]
    cycle = [seat for pair in zip(*members) for seat in pair]
    pass_to = [0] * s["players"]
    for i, seat in enumerate(cycle):
        pass_to[seat] = cycle[(i + 1) % len(cycle)]
    return pass_to


def deal_arsenal(s: State, cards: list[str]) -> None:
    """Four cards in front of each player, the book's central pile, the rest set aside."""
    n = s["players"]
    piles = [cards[i * E.PILE_SIZE:(i + 1) * E.PILE_SIZE] for i in range(n)]
    rest = cards[n * E.PILE_SIZE:]
    middle = central_size(n, s["mode"] == "teams")
    if middle:
        piles.append(rest[:middle])
    s["arsenal"] = piles
    s["set_aside"] = s["set_aside"] + rest[middle:]


# --------------------------------------------------------------------------- the sealed choice (ring)


def choose_text(state: State) -> str:
    if state["mode"] == "ring":
        return ("Play both cards: one to the player on your left, one to the player on your right "
                "(choose a side for each).")
    return asking._CHOOSE_TEXT


def ring_choices(state: State, seat: int) -> list[dict[str, Any]]:
    """Every (left, right) choice: two different cards of hand and Weapons Cache, a side each."""
    cards = state["hands"][seat] + state["cache"][seat]
    return [{"left": {"card": a, "side": sa}, "right": {"card": b, "side": sb}}
            for a, b in permutations(cards, 2) for sa in SIDES for sb in SIDES]


def parse_ring_choice(state: State, seat: int, action: Action) -> dict[str, Any]:
    """The two plays an action names, checked against the seat's hand and Weapons Cache."""
    choice = {}
    for where in ("left", "right"):
        play = action.get(where)
        if not isinstance(play, dict) or not isinstance(play.get("card"), str):
            raise BadAction(f"{action['type']} needs '{where}': {{'card': id, 'side': 'top'|'bottom'}} "
                            f"(one card to each neighbour); got {shown(play)}")
        if play.get("side") not in SIDES:
            raise BadAction(f"{where} side must be 'top' or 'bottom', got {shown(play.get('side'))}")
        cid = play["card"]
        if cid not in state["hands"][seat] and cid not in state["cache"][seat]:
            raise IllegalAction(f"card {cid} ({where}) is not in your hand")
        choice[where] = {"card": cid, "side": play["side"]}
    if choice["left"]["card"] == choice["right"]["card"]:
        raise IllegalAction(f"play two different cards, not {choice['left']['card']} to both sides")
    return choice


def ring_default(state: State, seat: int) -> Action:
    """Safe sides for the first two cards (No Effect and a cached card only when needed)."""
    cards = (state["hands"][seat] + state["cache"][seat])[:2]
    return {"type": "play", "left": {"card": cards[0], "side": E.safe_side(cards[0])},
            "right": {"card": cards[1], "side": E.safe_side(cards[1])}}


def second_card_text(state: State) -> str:
    if state["mode"] == "ring":
        return ("Barrage hit! Use one side of the card you played to your other neighbour here too, "
                "before your opponent's attack, or pass.")
    return "Barrage hit! Play one side of a card your team discarded this turn, or pass."


# --------------------------------------------------------------------------- turns (ring)


def start_turn(s: State, events: list[Event]) -> None:
    """End checks, then every playing seat draws (No Effect card after a draw-one hit)."""
    if s["mode"] == "teams":
        _start_team_turn(s, events)
        return
    n = s["players"]
    if E.close_arsenal_at_turn_limit(s, events):
        _finish(s, events, code="turn_limit", reason=E.ARSENAL_CLOSED_REASON)
        return
    if s["tiebreak"] is None and not any(s["arsenal"]):
        _finish(s, events, code="arsenal_empty", reason="All Arsenal piles are empty")
        return
    s["turn"] += 1
    if s["turn"] > E.LAST_TURN:
        _finish(s, events, code="turn_limit", reason=E.LAST_TURN_REASON)
        return
    active = s["active"]
    out = [seat for seat in active if E._drawable(s, seat) == 0]
    if out:
        who = " and ".join(E.P(seat) for seat in out)
        if s.get("turn_limit"):
            _finish(s, events, code="turn_limit", reason=E.ended_because(
                s["turn"], f"{who} could not draw a card in the tie-break's final round after the Arsenal piles "
                f"counted as depleted after turn {E.MAX_TURNS} (house ruling \"Turn limit\")"))
        else:
            _finish(s, events, code="eliminated", reason=E.ended_because(s["turn"], f"{who} could not draw a card"))
        return
    for seat in active:
        count = min(s["draws_next"][seat], E._drawable(s, seat))
        E._draw(s, seat, count, events)
        if count < E.HAND_SIZE:
            _take_no_effect(s, seat, events)
    _show_whitewashed(s, active, events)
    s["draws_next"] = [E.HAND_SIZE] * n
    s["step"] = "choose"
    E._clear_sealed(s)


def _take_no_effect(s: State, seat: int, events: list[Event], *, team_text: str | None = None) -> None:
    """A seat that draws one card takes its No Effect card too (with a team's common deck:
    instead of a card from its leader, ``team_text`` saying so)."""
    s["hands"][seat] = s["hands"][seat] + [s["no_effect"][seat]]
    events.append({"type": "no_effect_card", "seat": seat,
                   "text": team_text or f"{E.P(seat)} draws one card and takes their No Effect card"})


# A team member hit into drawing one, once the team draws from its common deck (rule book: "a
# No Effect card is used instead of drawing from the team draw deck"), by whether its own pile
# still gave it a card.
_TEAM_NO_EFFECT_TEXT = {
    False: ("{p} was hit into drawing one card: their No Effect card replaces the card the team "
            "leader would hand them, and their own pile is empty, so they draw nothing"),
    True: ("{p} was hit into drawing one card: their No Effect card replaces the card the team "
           "leader would hand them (their own pile still gives them one card)"),
}


def _show_whitewashed(s: State, seats: list[int], events: list[Event]) -> None:
    shown, whitewash = s["shown"], s["whitewash"]
    for seat in seats:
        shown[seat], whitewash[seat] = whitewash[seat], []
        for watcher in shown[seat]:
            E._event(events, s, "whitewash_show",
                     f"Whitewash: {E.P(seat)} shows {E.P(watcher)} the drawn cards: "
                     f"{E._names(s['hands'][seat])}", visible_to=[seat, watcher])


def seat_cards(s: State, seat: int) -> list[str]:
    """The cards that score for a seat (ring): its draw and discard piles, as with two players."""
    return E.scoring_cards(s, seat)


def _finish(s: State, events: list[Event], *, code: str, reason: str) -> None:
    """End the game, or send the seats tied for the lead into a final round (once)."""
    n = s["players"]
    breakdown = [E.breakdown_rows(seat_cards(s, x), s["cache"][x]) for x in range(n)]
    scores = [sum(item["points"] for item in rows) for rows in breakdown]
    tb = s["tiebreak"]
    contenders = tb["tied"] if tb else list(range(n))
    best = max(scores[x] for x in contenders)
    winners = [x for x in contenders if scores[x] == best]
    if tb is None and len(winners) > 1:
        _start_tiebreak(s, events, winners, scores, reason)
        return
    s["result"] = {"code": code, "reason": reason, "scores": scores, "winners": winners,
                   "breakdown": breakdown,
                   "tiebreak": None if tb is None else {"tied": list(tb["tied"]), "scores": list(tb["scores"])}}
    s["phase"] = s["step"] = "over"
    E._clear_sealed(s)
    s["locked"] = [False] * n
    score_text = ", ".join(f"{E.P(x)} {scores[x]}" for x in range(n))
    if len(winners) > 1:
        verdict = "a tie: " + " and ".join(E.P(w) for w in winners) + " share the victory"
    else:
        verdict = f"{E.P(winners[0])} wins"
    if tb is not None:
        verdict += " (the final round was among " + " and ".join(E.P(x) for x in tb["tied"]) + ")"
    E._event(events, s, "game_over",
             f"{reason}. {E.SCORING_TEXT}: {score_text} — {verdict}",
             scores=scores, winners=winners)


def _start_tiebreak(s: State, events: list[Event], tied: list[int], scores: list[int], reason: str) -> None:
    """The tied seats shuffle draw and discard piles together and play on until one cannot draw."""
    s["tiebreak"] = {"tied": tied, "scores": scores}
    s["active"] = list(tied)
    s["final_round"] = True
    rng = rng_for(s)
    for seat in tied:
        pile = s["draw"][seat] + s["discard"][seat]
        rng.shuffle(pile)
        s["draw"][seat], s["discard"][seat], s["face_down"][seat] = pile, [], []
    n = s["players"]
    s["draws_next"] = [E.HAND_SIZE] * n
    s["whitewash"] = [[] for _ in range(n)]
    names = " and ".join(E.P(x) for x in tied)
    E._event(events, s, "final_round",
             f"{reason}. {names} are tied on {scores[tied[0]]} points: they play a final round among "
             "themselves, each with their draw and discard piles shuffled into a new draw pile; discards "
             "are no longer reshuffled, and the round ends when one of them cannot draw a card",
             tied=list(tied))
    start_turn(s, events)


# --------------------------------------------------------------------------- turns (teams)


def team_members(s: State, team: int) -> list[int]:
    return [x for x in range(s["players"]) if s["teams"][x] == team]


def team_name(s: State, team: int) -> str:
    return f"{TEAM_NAMES[team]} team (" + ", ".join(E.P(x) for x in team_members(s, team)) + ")"


def _start_team_turn(s: State, events: list[Event]) -> None:
    """End checks, the switch to a team's common deck, then draws and the leaders' deals."""
    n = s["players"]
    if E.close_arsenal_at_turn_limit(s, events):
        _finish_teams(s, events, code="turn_limit", reason=E.ARSENAL_CLOSED_REASON)
        return
    if not any(s["arsenal"]):
        _finish_teams(s, events, code="arsenal_empty", reason="All Arsenal piles are empty")
        return
    s["turn"] += 1
    draws_next = s["draws_next"]
    short = []
    for team in (0, 1):
        members = team_members(s, team)
        if not s["common"][team] and any(len(s["draw"][m]) < draws_next[m] for m in members):
            pile = s["discard"][team][:]
            rng_for(s).shuffle(pile)
            s["team_draw"][team] = s["team_draw"][team] + pile
            s["discard"][team], s["face_down"][team] = [], []
            s["common"][team] = True
            E._event(events, s, "team_deck",
                     f"{team_name(s, team)}: a personal draw pile is used up, so the team discard pile "
                     f"({E._count(len(pile), 'card')}) is shuffled into the team's common draw deck",
                     team=team, count=len(pile))
        if s["common"][team]:
            need = sum(1 for m in members if draws_next[m] == E.HAND_SIZE) + 2
            if len(s["team_draw"][team]) + len(s["discard"][team]) < need:
                short.append(team)
    if short:
        who = " and ".join(team_name(s, t) for t in short)
        _finish_teams(s, events, code="cannot_draw",
                      reason=E.ended_because(s["turn"], f"the {who} could not draw enough cards", winner="the team"))
        return
    for team in (0, 1):
        members = team_members(s, team)
        s["set_down"][team] = []
        if not s["common"][team]:
            for m in members:
                _draw_personal(s, m, draws_next[m], events)
            continue
        receivers = []
        for m in members:
            own = bool(s["draw"][m])
            if own:
                _draw_personal(s, m, 1, events)
            else:
                s["hands"][m] = []
            if draws_next[m] == E.HAND_SIZE:
                receivers.append(m)
            else:
                _take_no_effect(s, m, events, team_text=_TEAM_NO_EFFECT_TEXT[own].format(p=E.P(m)))
        drawn = _draw_team(s, team, len(receivers) + 2, events)
        s["pool"][team] = {"cards": drawn, "to": receivers}
        leader = s["leaders"][team]
        events.append({"type": "team_draw", "team": team, "count": len(drawn),
                       "text": f"{team_name(s, team)}: the leader {E.P(leader)} draws "
                               f"{E._count(len(drawn), 'card')} from the team draw deck"})
        events.append({"type": "team_draw_private", "team": team, "cards": drawn,
                       "visible_to": members,
                       "text": f"{E.P(leader)} draws {E._names(drawn)} for the team"})
    _show_whitewashed(s, list(range(n)), events)
    s["draws_next"] = [E.HAND_SIZE] * n
    s["step"] = "deal" if any(s["pool"]) else "choose"
    E._clear_sealed(s)


def _draw_personal(s: State, seat: int, count: int, events: list[Event]) -> None:
    pile = s["draw"][seat]
    drawn = pile[:-count - 1:-1]
    s["draw"][seat] = pile[:-count]
    s["hands"][seat] = drawn
    events.append({"type": "draw", "text": f"{E.P(seat)} draws {E._count(count, 'card')} from their own pile",
                   "seat": seat, "count": count})
    events.append({"type": "draw_private", "text": f"{E.P(seat)} draws {E._names(drawn)}",
                   "cards": drawn, "visible_to": [seat]})


def _draw_team(s: State, team: int, count: int, events: list[Event]) -> list[str]:
    """The leader draws ``count`` from the team deck, reshuffling the team discard when it runs out."""
    pile = s["team_draw"][team]
    drawn = pile[:-count - 1:-1]
    pile = pile[:-count] if len(drawn) == count else []
    if len(drawn) < count:
        more = s["discard"][team][:]
        rng_for(s).shuffle(more)
        s["discard"][team], s["face_down"][team] = [], []
        E._event(events, s, "reshuffle",
                 f"{team_name(s, team)} shuffles its team discard pile ({E._count(len(more), 'card')}) "
                 "into a new team draw deck", team=team, count=len(more))
        need = count - len(drawn)
        drawn += more[:-need - 1:-1]
        pile = more[:-need]
    s["team_draw"][team] = pile
    return drawn


def dealers(state: State) -> list[int]:
    """Team leaders who still have cards to hand out."""
    return [state["leaders"][t] for t in (0, 1) if state["pool"][t] is not None]


def deal_actions(state: State, seat: int) -> list[Action]:
    if seat not in dealers(state):
        return []
    pool = state["pool"][state["teams"][seat]]
    return [{"type": "deal", "give": {str(m): c for m, c in zip(pool["to"], cards)}}
            for cards in permutations(pool["cards"], len(pool["to"]))]


def deal_default(state: State, seat: int) -> Action:
    """RULINGS 15: cards go out in seat order, the last two to the team discard."""
    pool = state["pool"][state["teams"][seat]]
    return {"type": "deal", "give": {str(m): c for m, c in zip(pool["to"], pool["cards"])}}


def deal_action(state: State, seat: int, action: Action, events: list[Event]) -> State:
    """The leader's hand-out: one card to each listed team-mate, the rest face-down to the discard."""
    if action["type"] != "deal":
        if seat in range(state["players"]) and seat not in dealers(state):
            raise NotYourTurn("the team leaders are handing out cards; wait for them")
        raise IllegalAction(f"you are asked to hand out your team's cards; send type 'deal', "
                            f"not {shown(action['type'])}")
    if seat not in dealers(state):
        raise NotYourTurn("you have no cards to hand out now")
    team = state["teams"][seat]
    pool = state["pool"][team]
    give = action.get("give")
    if not isinstance(give, dict):
        raise BadAction("deal needs 'give', an object from seat number to card id, e.g. "
                        "{'type': 'deal', 'give': {'0': 'c07', '2': 'c12b'}}")
    wanted = {str(m) for m in pool["to"]}
    if set(give) != wanted:
        raise IllegalAction(f"give exactly one card to each of seats {', '.join(sorted(wanted))}; "
                            f"got seats {', '.join(sorted(map(str, give))) or 'none'}")
    chosen = list(give.values())
    for cid in chosen:
        if cid not in pool["cards"]:
            raise IllegalAction(f"card {shown(cid)} is not among the cards your team drew")
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("give each team-mate a different card")
    s = E._copy(state)
    for m in pool["to"]:
        s["hands"][m] = s["hands"][m] + [give[str(m)]]
    away = [c for c in pool["cards"] if c not in chosen]
    s["discard"][team] = s["discard"][team] + away
    s["face_down"][team] = s["face_down"][team] + away
    s["set_down"][team] = s["set_down"][team] + away
    s["pool"][team] = None
    members = team_members(s, team)
    events.append({"type": "deal", "team": team, "seat": seat,
                   "text": f"{E.P(seat)} hands out {team_name(s, team)}'s cards; "
                           f"{E._count(len(away), 'card')} go face-down to the team discard pile"})
    handed = "; ".join(f"{card_name(give[str(m)])} to {E.P(m)}" for m in pool["to"])
    events.append({"type": "deal_private", "team": team, "visible_to": members,
                   "text": f"{E.P(seat)} hands out {handed}; {E._names(away)} to the team discard pile"})
    if not dealers(s):
        s["step"] = "choose"
    return s


def restock_pile(s: State, seat: int) -> tuple[str, int]:
    """Where Restock shuffles cards in team play: the team deck once formed, else the own pile."""
    team = s["teams"][seat]
    return ("team_draw", team) if s["common"][team] else ("draw", seat)


def team_cards(s: State, team: int) -> list[str]:
    """Every card that scores for a team: its members' own draw piles, its common draw deck and
    its discard pile (rule book: draw decks and discard piles; Weapons Cache cards do not score).

    A team game ends at the start of a turn, before anyone draws: hands and the leader's
    deal are empty then.
    """
    cards = s["discard"][team] + s["team_draw"][team]
    for m in team_members(s, team):
        cards = cards + s["draw"][m]
    return [c for c in cards if not C.is_no_effect(c)]


def team_cached(s: State, team: int) -> list[str]:
    return [c for m in team_members(s, team) for c in s["cache"][m]]


def team_standing(s: State) -> dict[str, Any]:
    """``engine.standing`` in team play: each team's scoring cards, with its members' hands and
    the leader's draw not yet handed out; every seat's ``scores`` entry is its team's total."""
    n = s["players"]
    rows = []
    for team in (0, 1):
        held = [c for m in team_members(s, team) for c in s["hands"][m]] + list((s["pool"][team] or {}).get("cards", ()))
        rows.append(E.breakdown_rows(team_cards(s, team) + [c for c in held if not C.is_no_effect(c)],
                                     team_cached(s, team)))
    team_scores = [sum(item["points"] for item in r) for r in rows]
    return {"scores": [team_scores[s["teams"][x]] for x in range(n)],
            "breakdown": [rows[s["teams"][x]] for x in range(n)], "team_scores": team_scores}


def _finish_teams(s: State, events: list[Event], *, code: str, reason: str) -> None:
    n = s["players"]
    rows = [E.breakdown_rows(team_cards(s, t), team_cached(s, t)) for t in (0, 1)]
    team_scores = [sum(item["points"] for item in r) for r in rows]
    best = max(team_scores)
    winning = [t for t in (0, 1) if team_scores[t] == best]
    winners = [x for x in range(n) if s["teams"][x] in winning]
    scores = [team_scores[s["teams"][x]] for x in range(n)]
    s["result"] = {"code": code, "reason": reason, "scores": scores, "winners": winners,
                   "breakdown": [rows[s["teams"][x]] for x in range(n)], "team_scores": team_scores}
    s["phase"] = s["step"] = "over"
    E._clear_sealed(s)
    if len(winning) > 1:
        verdict = "a tie: both teams share the victory"
    else:
        verdict = f"{team_name(s, winning[0])} wins"
    E._event(events, s, "game_over",
             f"{reason}. {E.SCORING_TEXT}. Team scores: {team_name(s, 0)} {team_scores[0]}, {team_name(s, 1)} "
             f"{team_scores[1]} — {verdict}", scores=scores, winners=winners, team_scores=team_scores)


# --------------------------------------------------------------------------- the reveal and its battles


def battles_of(s: State) -> list[list[int]]:
    """This turn's battles as [seat, seat] pairs.

    Ring: the card a seat plays to its left (the next seat) meets the card that neighbour
    plays to its right. Teams: each seat against its opponent across the table.
    """
    if s["mode"] == "teams":
        return [[a, s["opponents"][a]] for a in team_members(s, 0)]
    active = s["active"]
    m = len(active)
    return [[active[j], active[(j + 1) % m]] for j in range(m)]


def reveal(s: State, events: list[Event]) -> None:
    """Everyone locked: show every played card, then resolve the battles one at a time."""
    n = s["players"]
    ring = s["mode"] == "ring"
    seats = s["active"] if ring else list(range(n))
    played: list[dict[str, dict[str, Any]]] = [{} for _ in range(n)]
    face_down_team = [list(s["set_down"][t]) for t in (0, 1)] if not ring else None
    parts = []
    shown = []
    for seat in seats:
        choice = s["sealed"][seat]
        picks = [("left", choice["left"]), ("right", choice["right"])] if ring else [("at", choice)]
        rest = [c for c in s["hands"][seat] if not C.is_no_effect(c)]
        out = []
        for where, pick in picks:
            cid = pick["card"]
            if cid in s["cache"][seat]:
                s["cache"][seat] = E._without(s["cache"][seat], cid)
                via = "cache"
            else:
                via = "hand"
                if cid in rest:
                    rest.remove(cid)
            if not C.is_no_effect(cid):
                out.append(cid)
            at = {"left": _left_of, "right": _right_of}[where](s, seat) if ring else s["opponents"][seat]
            played[seat][where] = {"card": cid, "side": pick["side"], "via": via, "at": at}
        s["hands"][seat] = []
        pile = E._dk(s, seat)
        s["discard"][pile] = s["discard"][pile] + rest + out
        s["face_down"][pile] = s["face_down"][pile] + rest
        if not ring:
            face_down_team[pile] += rest
        if ring:
            left, right = played[seat]["left"], played[seat]["right"]
            parts.append(f"{E.P(seat)} plays {_play_words(left)} at {E.P(_left_of(s, seat))} and "
                         f"{_play_words(right)} at {E.P(_right_of(s, seat))}")
            shown.append({"seat": seat, "left": dict(left), "right": dict(right)})
        else:
            at = played[seat]["at"]
            parts.append(f"{E.P(seat)} plays {_play_words(at)} at {E.P(s['opponents'][seat])}")
            shown.append({"seat": seat, **at})
    E._clear_sealed(s)
    s["shown"] = [[] for _ in range(n)]
    s["step"] = "resolve"
    text = "Reveal: " + "; ".join(parts)
    pairs = battles_of(s)
    m = len(pairs)
    start = (s["turn"] - 1) % m
    order = [(start + k) % m for k in range(m)]
    s["battle"] = {
        "turn": s["turn"], "played": played, "battles": pairs, "queue": order, "order": order,
        "done": [], "pair": pairs[order[0]], "plays": [[] for _ in range(n)],
        "face_down": face_down_team if not ring else [[] for _ in range(n)],
        "hit": [False] * n, "draw_one": [False] * n,
        "abandons": [], "steals": [], "abandon_after": [], "closed": [], "whitewash": [],
        "lines": [text], "todo": [], "start_line": 1,
    }
    events.append({"type": "reveal", "text": text, "plays": shown,
                   "order": [pairs[j] for j in order]})
    order_text = "; ".join(f"{E.P(a)} against {E.P(b)}" for a, b in (pairs[j] for j in order))
    E._event(events, s, "battle_order", f"The battles resolve one at a time, in this order: {order_text}")
    _begin_battle(s, events)


def _left_of(s: State, seat: int) -> int:
    active = s["active"]
    return active[(active.index(seat) + 1) % len(active)]


def _right_of(s: State, seat: int) -> int:
    active = s["active"]
    return active[(active.index(seat) - 1) % len(active)]


def _play_words(play: dict[str, Any]) -> str:
    cid = play["card"]
    if C.is_no_effect(cid):
        return "their No Effect card"
    return E._titled(cid, play["side"]) + E._VIA_TEXT[play["via"]]


def _owned_play_words(play: dict[str, Any]) -> str:
    """A play after a possessive ("{p1}'s No Effect card", not "{p1}'s their No Effect card")."""
    return "No Effect card" if C.is_no_effect(play["card"]) else _play_words(play)


def _begin_battle(s: State, events: list[Event]) -> None:
    """Set up the next battle in the queue and resolve it with the two-player stages."""
    b = s["battle"]
    j = b["queue"][0]
    b["queue"] = b["queue"][1:]
    a, c = b["battles"][j]
    n = s["players"]
    ring = s["mode"] == "ring"
    plays: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    mine = b["played"][a]["left" if ring else "at"]
    theirs = b["played"][c]["right" if ring else "at"]
    plays[a] = [E._play(mine["card"], mine["side"], mine["via"])]
    plays[c] = [E._play(theirs["card"], theirs["side"], theirs["via"])]
    b["pair"] = [a, c]
    b["current"] = j
    b["plays"] = plays
    b["hit"] = [False] * n
    b["hit_by"] = []
    b["abandons"], b["steals"], b["todo"] = [], [], []
    if ring:
        other = [[] for _ in range(n)]
        for seat, where in ((a, "right"), (c, "left")):
            cid = b["played"][seat][where]["card"]
            if not C.is_no_effect(cid):
                other[seat] = [cid]
        b["face_down"] = other
    b["start_line"] = len(b["lines"])
    number = len(b["order"]) - len(b["queue"])
    E._event(events, s, "battle",
             f"Battle {number} of {len(b['order'])}: {E.P(a)}'s {_owned_play_words(mine)} against "
             f"{E.P(c)}'s {_owned_play_words(theirs)}", seats=[a, c])
    E._run_stages(s, events)


def end_battle(s: State, events: list[Event]) -> None:
    """Record the battle just resolved; start the next one, or end the turn."""
    b = s["battle"]
    if len(b["lines"]) == b["start_line"] + 1:
        E._event(events, s, "no_effect", "Neither card has any effect")
    a, c = b["pair"]
    b["done"] = b["done"] + [{
        "battle": b["current"], "seats": [a, c],
        "plays": [[{"card": p["card"], "side": p["side"], "via": p["via"], "cancelled": p["off"]}
                   for p in b["plays"][x]] for x in (a, c)],
    }]
    if b["queue"]:
        _begin_battle(s, events)
        return
    for cid in b["abandon_after"]:
        owner = E._discard_holding(s, cid)
        if owner is not None:
            E._remove_from_discard(s, owner, cid)
            s["abandoned"].append(cid)
            E._event(events, s, "abandon", f"{card_name(cid)} is Abandoned from {E._discard_name(s, owner)}",
                     card=cid, seat=owner)
    E._flip_piles(s, events)
    for target, watcher in b["whitewash"]:
        if watcher not in s["whitewash"][target]:
            s["whitewash"][target] = s["whitewash"][target] + [watcher]
    s["draws_next"] = [1 if draw_one else E.HAND_SIZE for draw_one in b["draw_one"]]
    s["last_reveal"] = {"turn": b["turn"], "played": b["played"], "battles": b["done"], "lines": b["lines"]}
    s["battle"] = None
    start_turn(s, events)
