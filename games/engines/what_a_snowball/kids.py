"""Kids, Traits, special player types and ability cards, as the rule book gives them."""
from __future__ import annotations

import functools
import marshal
from typing import Any

TRAITS: tuple[str, ...] = ("fast", "strong", "skilful", "resourceful")
TRAIT_LABELS: dict[str, str] = {"fast": "Fast", "strong": "Strong", "skilful": "Skilful", "resourceful": "Resourceful"}

ACTIONS: tuple[str, ...] = ("move", "gather", "aim", "throw")
ACTION_LABELS: dict[str, str] = {"move": "MOVE", "gather": "GATHER SNOW", "aim": "AIM", "throw": "THROW",
                                 "wild": "WILD DICE"}
FACES: dict[int, str] = {1: "move", 2: "gather", 3: "aim", 4: "throw", 6: "wild"}
TRAIT_ACTION: dict[str, str] = {"fast": "move", "strong": "throw", "skilful": "aim", "resourceful": "gather"}

TYPES: dict[str, dict[str, Any]] = {
    # label; Kid-equivalents (the book's "approx. N Kids each"); Traits chosen (or fixed); snowball made / added
    "kid": {"label": "Kid", "worth": 1.0, "traits": 1, "fixed_traits": None, "gather": 1},
    "big_kid": {"label": "Big Kid", "worth": 2.0, "traits": 2, "fixed_traits": None, "gather": 2},
    "elf": {"label": "Christmas Elf", "worth": 4.0, "traits": 0, "fixed_traits": (), "gather": 2},
    "snowman": {"label": "Living Snowman", "worth": 2.0, "traits": 1, "fixed_traits": None, "gather": 1},
    "yeti": {"label": "Yeti", "worth": 3.0, "traits": 2, "fixed_traits": ("fast", "strong"), "gather": 3},
    "penguin": {"label": "Penguin", "worth": 1.5, "traits": 1, "fixed_traits": None, "gather": 1},
}

BENEFITS: dict[str, tuple[str, ...]] = {
    "kid": (),
    "big_kid": ("Two Traits", "Big Hands", "Expert Dodger", "Playing Rough"),
    "elf": ("Snowball Warrior", "Skirmisher", "Master of the Craft", "Warm Heart", "Santa's Watching"),
    "snowman": ("Throw Yourself", "Made of Snow", "Blend In", "Jerk"),
    "yeti": ("Fast and Strong", "Huge Hands", "Thick Fur", "Oops"),
    "penguin": ("Slide", "DO NOT HIT ANIMALS"),
}

MAX_COMMAND_DICE = 6
MAX_SIZE = 5
BASE_RADIUS = 0.5

DEFAULT_NAMES: tuple[str, ...] = (
    "Holly", "Noel", "Ivy", "Rudy", "Carol", "Nick", "Robin", "Eve", "Gabriel", "Joy", "Frost", "Star",
)

CARDS: dict[str, dict[str, str]] = {
    "saving": {"title": "I've been saving these!", "when": "during your activation",
               "text": "Discard at any point during your activation. You instantly gain three Size 1 Snowballs, "
                       "two Size 3 Snowballs, or one Size 5 Snowball."},
    "not_done": {"title": "I'm not done yet!", "when": "at the start of your activation",
                 "text": "Discard at the very beginning of your activation and before rolling Command Dice. For "
                         "that activation, roll 6 Command Dice, regardless of how many you actually have left."},
    "ice": {"title": "Ice to see you!", "when": "while making a THROW",
            "text": "Discard while making a THROW action and before Rolling to Hit. The Snowball gains +3 Size "
                    "when rolling for effect, even if it goes above the usual maximum."},
    "grandma": {"title": "Thanks, Grandma!", "when": "when hit, before the Roll for Effect",
                "text": "Discard after being Hit by a Snowball but before rolling for its effect. You lose no "
                        "Command Dice from this attack."},
    "pitch": {"title": "I've been practicing my pitch!", "when": "while making a THROW",
              "text": "Discard while making a THROW action and before Rolling to Hit. Instead of Rolling to Hit "
                      "normally, roll 3D6 and discard the lowest result."},
    "dork": {"title": "Missed me, dork!", "when": "when a THROW is declared at you",
             "text": "Discard when someone declares a THROW action at you, and before they Roll to Hit. Instead "
                     "of Rolling to Hit normally, they roll 3D6 and discard the highest result."},
    "miracle": {"title": "A Christmas Miracle!", "when": "when about to be removed for Cheating",
                "text": "Discard when you're about to be removed for Cheating: nothing happens. If you can't cheat "
                        "(an Elf or a Yeti), discard during its activation and draw two Cards."},
    "dash": {"title": "Dashing through the snow!", "when": "any time in your activation, or when a THROW is "
                                                          "declared at you",
             "text": "Immediately move 2D6 inches in any direction, following standard movement rules. Any THROW "
                     "actions targeting you are still resolved."},
}
CARD_NAMES: tuple[str, ...] = tuple(CARDS)
REACTION_CARDS: tuple[str, ...] = ("dork", "dash", "grandma", "miracle")
ASKED_CARDS: tuple[str, ...] = ("not_done", *REACTION_CARDS)
"""The cards a seat is asked about when their moment comes (the start of an activation, or a reaction),
each of which it may set to "never ask"."""
SAVING_CHOICES: dict[str, list[int]] = {"three_1": [1, 1, 1], "two_3": [3, 3], "one_5": [5]}


def traits_of(kid: dict[str, Any]) -> tuple[str, ...]:
    return tuple(kid["traits"])


def five_actions(kid: dict[str, Any]) -> tuple[str, ...]:
    """What a 5 can be spent as: the Traits' actions, or "wild" for a Christmas Elf."""
    if kid["type"] == "elf":
        return ("wild",)
    return tuple(dict.fromkeys(TRAIT_ACTION[t] for t in kid["traits"]))


def face_meanings(kid: dict[str, Any]) -> dict[int, tuple[str, ...]]:
    """For each face 1-6, the results it can be spent as (a Wild die stands for any result)."""
    meanings = {value: (action,) for value, action in FACES.items()}
    meanings[5] = five_actions(kid)
    return meanings


def sheet_row(kid: dict[str, Any]) -> dict[str, Any]:
    """The character sheet's fixed part: Traits, type and what each face does (a fresh copy)."""
    return marshal.loads(_sheet_blob(kid["type"], tuple(kid["traits"])))


@functools.lru_cache(maxsize=256)
def _sheet_blob(kind: str, traits: tuple[str, ...]) -> bytes:
    return marshal.dumps(_sheet_row({"type": kind, "traits": traits}))


def _sheet_row(kid: dict[str, Any]) -> dict[str, Any]:
    meanings = face_meanings(kid)
    return {
        "type": kid["type"],
        "type_label": TYPES[kid["type"]]["label"],
        "traits": [TRAIT_LABELS[t] for t in kid["traits"]],
        "worth": TYPES[kid["type"]]["worth"],
        "benefits": list(BENEFITS[kid["type"]]),
        "faces": {str(v): " or ".join(ACTION_LABELS[m] for m in meanings[v]) for v in range(1, 7)},
    }
