"""What players read on the game's rules page (/rules/snowball-fight/): how to play, in a few
lines from the rule book, and the house rulings, each with the anchor id the page gives it.

``OUTCOME_RULINGS`` names the ruling behind an outcome code, so that a result can link to it.
"""
from __future__ import annotations

from games.engines.snowball_fight.engine import LAST_TURN, MAX_TURNS

HOW_TO_PLAY = (
    "Each player starts with three Basic cards and drafts two Advanced cards (keep one, pass "
    "the rest, twice, then keep two of the four). With the quick setup you are dealt three "
    "Advanced cards and keep two. The other cards, with the Extreme cards, make the Arsenal "
    "piles: four cards each, top card face up.",
    "Every turn each player draws two cards, secretly chooses one and the side to play (top or "
    "bottom), and puts the other face-down on their discard pile. When everybody has chosen, "
    "the cards are revealed together and resolved.",
    "Attacks (snowballs, slushballs, sneak attacks, iceballs, rocks) make the opponent draw one "
    "card, give up a card or lose one for good; dodges avoid attacks; upgrades take a card "
    "from an Arsenal pile into your discard pile, if you were not hit. When your draw pile "
    "runs out, your discard pile is shuffled into a new one.",
    "With two players, when both Arsenal piles are empty the final round starts: each player "
    "shuffles draw and discard piles together and plays on without reshuffling until someone "
    "cannot draw. A player who cannot draw enough cards to start a turn ends the game.",
    "Score the points on the cards in your draw pile and discard pile (Basic 1, Advanced 2, "
    "Extreme 3). Most points wins.",
    "With three to six players you play both cards, one to each neighbour, and the game ends "
    "when every Arsenal pile is empty or a player cannot draw; tied leaders play a final "
    "round. In teams, you play at the player across the table, the team shares a discard "
    "pile and, later, a draw deck its leader hands out; team scores are totalled.",
)

SCORING = ("The cards in each player's draw pile and discard pile score (Basic 1, Advanced 2, "
           "Extreme 3); cards in a Weapons Cache do not.")

RULINGS = (
    {"id": "scoring", "title": "What scores",
     "text": "As the rule book says, only the cards in your draw pile and discard pile score (in "
             "teams: the members' draw piles and the team's draw deck and discard pile). Cards "
             "left in a Weapons Cache do not score; the result lists them at 0 points. Hands are "
             "always empty when the game ends, because it ends at the start of a turn, before "
             "anyone draws. No Effect cards are worth nothing."},
    {"id": "turn-limit", "title": "Turn limit",
     "text": f"The rule book has no turn limit, but a game where nobody upgrades (or where players "
             f"are away and their time runs out) could go on for ever. So once turn {MAX_TURNS} is "
             f"over, the Arsenal piles count as depleted: their cards are set aside, out of the game, "
             f"and the game ends the book's way. With two players the final round starts; with three "
             f"or more the game ends, and tied leaders play the book's final round; a team game ends. "
             f"Scores are counted as usual. A final round still going after turn {LAST_TURN} (only "
             f"possible if players keep restocking instead of playing on) ends there. Real games "
             f"are far shorter: half the games of the site's computer players are over by turn 24 "
             f"to 27 with two players, by turn 13 to 20 with more."},
    {"id": "weapons-cache", "title": "Weapons Cache",
     "text": "Cached cards lie face up for everyone to see. They are never shuffled back, not even "
             "for the final round; you may play one on any later turn instead of a card from your "
             "hand, and then it goes to your discard pile, where it scores again."},
    {"id": "upgrades", "title": "Upgrades and the Arsenal",
     "text": "Cards you upgrade, steal or raid go to your discard pile. Arsenal piles flip their next "
             "card only after every upgrade of the turn. If the pile you must take from is empty, "
             "take from the other one. Ultra Upgrade may take the top card of any Arsenal pile or "
             "any Abandoned card, and goes before other upgrades; then higher-level cards go first."},
    {"id": "hit", "title": "What a hit is",
     "text": "You are hit when the opponent played an attack you did not dodge and that was not "
             "cancelled. Every \"if you were not hit\" effect (upgrades, Restock, Weapons Cache, "
             "Raid) uses that meaning. Sneak Attack, Whitewash and Throwing Rocks are attacks; "
             "Whitewash cannot be dodged."},
    {"id": "dodges", "title": "Dodges",
     "text": "Any side that dodges counts as \"a Dodge\" against Sneak Attack: Dodge, Offensive Dodge, "
             "Snatch and Run, Upgrade Dodge. A Dodge that avoided an attack may use the other side of "
             "its card: an attack there is thrown at once and cannot be dodged; a Restock there is "
             "offered, and you may pass."},
    {"id": "throwing-rocks", "title": "Throwing Rocks",
     "text": "The thrower draws only one card next turn whenever the rocks hit, and also when they "
             "land on a No Effect card."},
    {"id": "barrage", "title": "Barrage, Snow Fort, Dud, Backfire",
     "text": "Barrage's second card (either side) resolves before the opponent's attack; you may "
             "decline it. Snow Fort against Snow Fort: nothing happens. Dud cancels the attack and "
             "that card is Abandoned. Backfire turns the attack round: the attacker counts as hit "
             "by its own attack."},
    {"id": "cannot-draw", "title": "Running out of cards",
     "text": "You cannot draw enough cards when your draw pile plus your discard pile (which you "
             "would reshuffle) hold fewer cards than you must draw. In the final round nothing is "
             "reshuffled, except by Restock, which still works."},
    {"id": "hidden-cards", "title": "What stays hidden",
     "text": "The card you put face-down stays hidden from the others; played cards are public. "
             "Nobody sees the order of a draw pile, its owner included; every pile's size is public."},
    {"id": "choices", "title": "Choices during a reveal",
     "text": "When an effect makes you choose (a card to Abandon, an upgrade, Snatch and Run, a card "
             "to cache or restock), you are asked at once, with a time limit; when it runs out a "
             "sensible choice is made for you (Abandon your cheapest card, take the best one)."},
    {"id": "ties", "title": "Ties",
     "text": "A two-player tie is a shared victory. With three or more, tied leaders play one final "
             "round; a tie after it is shared. Equal team totals share the victory."},
    {"id": "battles", "title": "Battles at larger tables",
     "text": "With three or more players each pair of neighbours fights one battle a turn: the card "
             "you play to your left meets the card your left neighbour plays to its right. Battles "
             "are resolved one at a time, starting one battle further round the table each turn; "
             "the log says the order. A card stolen or Abandoned in an earlier battle still has its "
             "effect in its own battle. An upgrade in an earlier battle may take the face-up card "
             "of any Arsenal pile, the one in front of you included; that pile's next card is turned "
             "up only after every upgrade of the turn, so an upgrade of yours in a later battle "
             "cannot take it (the log says who took the card)."},
    {"id": "extra-decks", "title": "Several decks",
     "text": "Copies of a card from different decks are different cards with the same name."},
    {"id": "eliminated", "title": "Eliminated",
     "text": "With three or more players you are eliminated, and the game ends, when you cannot "
             "draw a single card at the start of a turn."},
    {"id": "team-leader", "title": "Team play",
     "text": "Teams must be the same size. The team leader hands out the cards drawn from the team "
             "deck; team-mates can suggest in the team chat. If time runs out, the cards go out in "
             "seat order and the last two go to the team discard pile."},
)

OUTCOME_RULINGS = {"turn_limit": "turn-limit"}
