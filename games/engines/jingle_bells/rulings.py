"""What players read on the game's rules page (/rules/jingle-bells/): how to play, in a few
lines from the rule book, and the house rulings, each with the anchor id the page gives it.
"""
from __future__ import annotations

from games.engines.jingle_bells.engine import MAX_TURNS

HOW_TO_PLAY = (
    "Two sides, each with a snowman and three characters picked in turn from six character "
    "cards, on a 50 x 30 cm table top with obstructions. Each side sets up its snowman near its "
    "own edge with the characters beside it.",
    "Every turn each side rolls two dice per character on the table, may re-roll any of them "
    "once, and secretly puts two dice on each character. The lower total acts first.",
    "Sides then take turns using one die at a time: a character card says what each number "
    "does (Move, Throw, Dodge, or twice). A throw at an enemy character or snowman in range and "
    "in sight hits, unless it is dodged. Every hit is a cold token; a character with too many "
    "runs away to warm up and comes back later.",
    "The fourth cold token on a snowman knocks its head off: that side loses at once.",
)

SCORING = "The score is the number of cold tokens each side put on the other side's snowman."

RULINGS = (
    {"id": "characters", "title": "The character cards",
     "text": "The dice icons and cold limits printed on the character cards were lost. The site "
             "uses its own reconstruction, shown on the cards in the game: what each number does "
             "for each character, and how many cold tokens make it run away."},
    {"id": "distances", "title": "Table and distances",
     "text": "The table is 50 x 30 cm. A Move is 8.9 cm (a playing card's long edge) and the "
             "Snowball distance 17.8 cm (a 5 x 7 inch card's height), measured centre to centre. "
             "Each table has 6 to 8 obstructions: pick a preset layout or a random one."},
    {"id": "dice", "title": "Placing dice",
     "text": "Both sides place their dice in secret; both placements are shown together once both "
             "have locked. The lower total acts first; a tie is rolled off."},
    {"id": "taking-turns", "title": "Taking turns",
     "text": "Sides use one die at a time, in turn. You may pass, to keep a Dodge die or Robert's "
             "interception for later; two passes in a row, or no dice left, end the phase."},
    {"id": "move-and-throw", "title": "Moving and throwing",
     "text": "A Move places the character anywhere within one Move of where it stands, on the "
             "table and not overlapping anything. A Throw needs a clear line from centre to "
             "centre: any obstruction, character or snowman other than the target blocks it."},
    {"id": "reactions", "title": "Dodging and Robert's interception",
     "text": "When a snowball comes at your character you are asked at once, with 15 seconds to "
             "answer: dodge, let Robert take it, or take the hit. You can choose \"Dodge "
             "automatically when I can\" so that play is not held up."},
    {"id": "doubles", "title": "Double symbols",
     "text": "Move twice and Throw twice are the action done twice: the second follows at once and "
             "is not optional (staying where you are counts as a move). A second throw is skipped "
             "only when no target is in reach. Each hit can be dodged on its own."},
    {"id": "abilities", "title": "Stephen, Paul and Emily",
     "text": "Stephen's one higher or one lower stays within 1 to 6 and works for dodging too. Paul's "
             "double throw needs two dice each showing 4 or 5. Emily's two hits need a clear line "
             "to the enemy snowman."},
    {"id": "running-away", "title": "Running away and coming back",
     "text": "A character with as many cold tokens as its limit runs away. One token comes off at "
             "each end phase; at 0 it comes back, placed touching its own back edge. The snowman's "
             "fourth cold token ends the game."},
    {"id": "time-limits", "title": "Time limits",
     "text": "If you do not answer in time, a default is played for you: the first free card when "
             "picking, a setup near the middle of your edge, your dice as placed (or highest dice "
             "first), a pass on your turn, and taking the hit when a snowball comes."},
    {"id": "turn-limit", "title": "Turn limit",
     "text": f"The rule book has no turn limit, but a game online needs one: sides that never throw (or "
             f"players who are away and pass by default) could play for ever. So if no snowman has lost its "
             f"head when the actions of turn {MAX_TURNS} are over, the game ends there: the side whose "
             f"snowman has fewer cold tokens wins, and with as many on both snowmen it is a draw. Real "
             f"games end long before: the computer players' games last 5 turns at the median, and none of "
             f"10,000 went past turn 21."},
)

OUTCOME_RULINGS = {"turn_limit": "turn-limit"}
