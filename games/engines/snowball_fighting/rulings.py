"""What players read on the game's rules page (/rules/snowball-fighting/): how to play, in a
few lines from the rule book, and the house rulings, each with the anchor id the page gives it.

``OUTCOME_RULINGS`` names the ruling behind an outcome code, so that a result can link to it.
"""
from __future__ import annotations

from games.engines.snowball_fighting.engine import MAX_TURNS

HOW_TO_PLAY = (
    "Two to six snow warriors fight in a garden of hexes with a shed, conifers, snowmen and a "
    "kitchen door. Each picks a nom de guerre and a start hex.",
    "Every turn has three segments. Everyone writes secret orders for all three (move, collect "
    "snowballs, throw, or a mix), then the site reveals them and plays them out as a game "
    "master would, segment by segment: all moves, then all collecting, then all throws.",
    "Each throw has a chance to hit, from the table of throws and the range; hits cost HP and "
    "earn the thrower victory points. At 0 HP you run to the kitchen to dry your socks and "
    "come back out later.",
    "The first to reach 15 victory points wins (everyone who reaches it in the same segment "
    "shares the win).",
)

SCORING = "Scores are victory points: each hit scores its damage for the thrower."

RULINGS = (
    {"id": "garden", "title": "The garden",
     "text": "The garden map was lost; the site uses its own reconstruction: 13 columns of hexes, "
             "rows A to W from north to south, the house south of row W and the kitchen door below "
             "W11. Every hex the rule book names is where the book puts it."},
    {"id": "movement", "title": "Moving",
     "text": "You have 4 movement points a segment. Entering a hex costs 1, a step from path to path "
             "0.5, and entering the kitchen from W11 costs 1."},
    {"id": "range", "title": "Range and the shed",
     "text": "Range is the shortest way round in hexes that does not pass through a conifer. A throw "
             "is over the shed only if every shortest way crosses the shed; then its chance is "
             "halved. Targets closer than a throw's range add 5% a hex, farther ones take 5% a hex."},
    {"id": "avalanche-lines", "title": "Hit by an Avalanche or Dirigible last segment",
     "text": "+10% to hit such a target, -10% for such a thrower."},
    {"id": "baker-bounce", "title": "Baker Bounce",
     "text": "\"With added Bounce -25%\" is the bounce on the spot; the one-hex bounce is a free move "
             "after the throws."},
    {"id": "storm-and-avalanche", "title": "Conifer Storm and Shed Avalanche",
     "text": "Conifer Storm: 90% to hit the tree, then 70% that the snow falls. Shed Avalanche: 80% to "
             "hit the shed, 80% for an avalanche, 80% that it falls on the side named. A conifer or a "
             "side of the shed is used up only when snow falls."},
    {"id": "segment-order", "title": "Order of a segment",
     "text": "All moves, then all collecting, then all throws, each all at once. When two players "
             "want the same hex, the one who spent fewer movement points gets it, a collector loses a "
             "tie, then chance decides; the loser stops one hex short."},
    {"id": "kitchen", "title": "The kitchen",
     "text": "At 0 HP you run to the kitchen at 4 movement points a segment and cannot be hit. After "
             "three segments drying your socks you come back out at W11 with 10 HP and two snowballs."},
    {"id": "no-orders", "title": "Missing orders",
     "text": "If you send no orders before the turn's deadline you stand still all turn (+10% to be "
             "hit). Twice in a row, and you go to the kitchen for good."},
    {"id": "press", "title": "Press",
     "text": "Press is the table talk: public, or private between two players."},
    {"id": "optional-rules", "title": "Optional rules",
     "text": "Optional rules 12 to 14 are chosen when the game is created."},
    {"id": "reports", "title": "Turn reports",
     "text": "Every player gets a written report of its turn, as a game master would write it."},
    {"id": "turn-limit", "title": "Turn limit",
     "text": f"The rule book has no turn limit, but a game online needs one: after turn {MAX_TURNS} "
             f"the players with the most victory points win. When fewer than two players are still "
             f"fighting, the game ends after that turn and the most victory points among them win."},
)

OUTCOME_RULINGS = {"turn_limit": "turn-limit"}
