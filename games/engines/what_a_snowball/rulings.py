"""What players read on the game's rules page (/rules/what-a-snowball/): how to play, in a few
lines from the rule book, and the house rulings, each with the anchor id the page gives it.
"""
from __future__ import annotations

HOW_TO_PLAY = (
    "Two to four teams of Kids fight a snowball battle in a 24 x 24 inch Christmas village. "
    "Teams roll off, pick corners and set up their Kids within 6 inches of a corner.",
    "Every turn each Kid activates in order of a die roll. An activating Kid rolls its Command "
    "Dice and spends them: move, gather snow, aim, throw, or a Wild 6 for something special.",
    "A throw needs a snowball and a clear line to an enemy Kid; roll two dice against the range "
    "(7 up to 6 inches, 8 up to 12, 9 beyond), with modifiers. A hit rolls for effect and can "
    "cost the target Command Dice; a Kid with none left goes home. Cheating up close hits "
    "at once, if the parents do not catch you.",
    "After six turns the team whose remaining Kids have the most points wins.",
)

SCORING = "Only the points of Kids still in the village count, plus the bonuses for Kids left."

RULINGS = (
    {"id": "village", "title": "The village",
     "text": "The village is 24 x 24 inches. Terrain blocks movement, blocks sight, can be vaulted "
             "(shorter than a Kid) or is snowless ground (gritted roads). Pick one of two preset "
             "villages or a random one."},
    {"id": "wild-dice", "title": "Wild dice",
     "text": "A 5 is Wild only for Christmas Elves. A knocked-down Kid can spend only Wild dice "
             "until it gets up. \"Wild dice spent preparing\" means the +1 to activation order use "
             "of a Wild die."},
    {"id": "range", "title": "Range",
     "text": "Up to 6 inches needs 7, over 6 up to 12 inches needs 8, over 12 inches needs 9."},
    {"id": "modifiers", "title": "Throw modifiers",
     "text": "Modifiers add to the two-dice roll: +1 per AIM; +1 for a Size 2-3 snowball, +2 for "
             "Size 4-5; -1 for each object within 1 inch of the line of fire; -1 against a Big Kid "
             "or Snowman (unless an Elf throws); -1 against an Elf; +1 when an Elf throws. A "
             "natural 2 always misses and a natural 12 always hits."},
    {"id": "move", "title": "Moving",
     "text": "MOVE rolls a die for inches. The Kid may turn as often as it likes, so it can reach any "
             "point whose shortest way round obstacles and Kids is no longer than the roll."},
    {"id": "aim", "title": "Aiming",
     "text": "AIM stacks and lasts until the Kid's next THROW, or until the Kid is hit."},
    {"id": "command-dice", "title": "Command Dice",
     "text": "A Kid's Command Dice are a pool of at most 6 that carries over between turns; at 0 "
             "the Kid goes home."},
    {"id": "scoring", "title": "Scoring and corners",
     "text": "Only the points of Kids still in the village count at the end. With two teams, a team "
             "sets up within 6 inches of either of its two corners."},
    {"id": "rolls", "title": "Rolls",
     "text": "Every roll, the target's Roll for Effect included, is rolled by the site and shown "
             "with every modifier that went into it."},
    {"id": "reactions", "title": "Cards played out of turn",
     "text": "\"Missed me, dork!\", \"Thanks, Grandma!\" and \"Dashing through the snow!\" are "
             "reactions: you are asked when the moment comes (unless you told the site never to ask)."},
    {"id": "surrender", "title": "Surrender",
     "text": "A team surrenders when all its players agree; its Kids go home and it cannot win."},
)

OUTCOME_RULINGS: dict[str, str] = {}
