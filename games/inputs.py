"""The shape of every input, declared once and checked in one place for both sockets and HTTP.

A client's text becomes data only through ``parse_json`` (orjson, then a walk that refuses
deep nesting, NUL and numbers a JavaScript client could not hold; orjson itself refuses lone
surrogates, infinities and nesting past 1,024 levels). Data becomes arguments only through a
``Shape``, whose fields say what each value must be. Both raise ``InputError``, whose code is
in docs/api.md and whose message names the field and what was wrong, never repeating the
value itself, so nothing a client sent reaches the database or an error reply unchecked.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import orjson

from games.engines.base import BIDI_CONTROLS, not_plain
from games.errors import BadRequest

MAX_DEPTH = 16
MAX_SAFE_INTEGER = 2**53 - 1
MAX_ID = 2**63 - 1
# orjson reads an integer that does not fit in 64 bits as a float: one this large is looked at again
ORJSON_INTEGER_LIMIT = 2**63


class InputError(BadRequest):
    """Input that is not of its declared shape; ``code`` is ``malformed`` or ``bad_request``."""

    def __init__(self, message: str, *, code: str = "bad_request", field: str | None = None):
        super().__init__(message)
        self.code = code
        self.field = field
        self.action_id: str | None = None
        self.about: str | None = None  # a refused frame's talk type (``chat``, ``chat_publish``)


# ---------------------------------------------------------------- text to data

def parse_json(text: str | bytes, *, what: str) -> Any:
    """The JSON value in ``text`` (a frame, a body, a form value), checked by ``check_value``."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise InputError(f"{what} is not valid JSON ({exc.msg} at position {exc.pos})", code="malformed") from None
    if not _passes(value):
        if _has_float_beyond(value, ORJSON_INTEGER_LIMIT):
            value = json.loads(text)  # the standard library keeps such an integer an integer
        _refuse(value, what=what)
    return value


def _has_float_beyond(value: Any, limit: int) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float) and abs(item) >= limit:
            return True
    return False


def check_value(value: Any, *, what: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH``, NUL or lone surrogates in any string or key,
    and integers beyond +-(2**53 - 1); walks without recursion, so any depth is safe. A value
    that passes is walked once, without the paths an error message names."""
    if not _passes(value):
        _refuse(value, what=what)


def _passes(value: Any) -> bool:
    """Whether ``check_value`` takes ``value`` (``_refuse`` says why not)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth >= MAX_DEPTH:
                return False
            for key, child in item.items():
                if not _plain_text(key):
                    return False
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            if depth >= MAX_DEPTH:
                return False
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            if not _plain_text(item):
                return False
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_SAFE_INTEGER:
            return False
        elif isinstance(item, float) and abs(item) >= ORJSON_INTEGER_LIMIT:
            return False  # perhaps an integer past 64 bits (``parse_json``); ``_refuse`` passes a true float
    return True


def _plain_text(text: Any) -> bool:
    if not isinstance(text, str) or "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse(value: Any, *, what: str) -> None:
    """The ``InputError`` for the first fault of ``value`` that ``_passes`` refused, with its path."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, dict):
            if depth >= MAX_DEPTH:
                raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels (at {path or 'the top'})", code="malformed")
            for key, child in item.items():
                where = f"{path}.{_safe(key)}" if path else _safe(key)
                _check_text(key, what=what, path=f"the key {where}")
                stack.append((child, where, depth + 1))
        elif isinstance(item, list):
            if depth >= MAX_DEPTH:
                raise InputError(f"{what} nests deeper than {MAX_DEPTH} levels (at {path or 'the top'})", code="malformed")
            stack.extend((child, f"{path}[{index}]", depth + 1) for index, child in enumerate(item))
        elif isinstance(item, str):
            _check_text(item, what=what, path=path or "the top")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_SAFE_INTEGER:
            raise InputError(f"{what} holds an integer beyond +-{MAX_SAFE_INTEGER} (at {path or 'the top'})",
                             code="malformed")


def _check_text(text: str, *, what: str, path: str) -> None:
    if "\x00" in text:
        raise InputError(f"{what} holds a NUL character (at {path})", code="malformed")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} holds a lone surrogate, which is not a character (at {path})", code="malformed") from None


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _safe(key: Any) -> str:
    """A key as it may appear in a message: plain names as they are, others only by length."""
    if isinstance(key, str) and _PLAIN_NAME.fullmatch(key):
        return key
    return f"<a key of {len(key)} characters>" if isinstance(key, str) else "<a key>"


def _kind(value: Any) -> str:
    """What a value is, in the words of an error message (the value itself is never echoed)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction or an exponent (1.5, 1e3)"
    if isinstance(value, str):
        return f"text of {len(value)} character{'' if len(value) == 1 else 's'}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# ---------------------------------------------------------------- declared fields

@dataclass(frozen=True)
class Text:
    """A string of ``min_length`` to ``max_length`` characters, matching ``pattern`` if given;
    with ``shown``, text others will read (a name), which must show something and as written:
    one line, no control character, no invisible formatting character (``engines.base.not_plain``)."""

    min_length: int = 0
    max_length: int = 200
    pattern: str | None = None
    describe: str = ""
    shown: bool = False

    def clean(self, value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise InputError(f'"{name}" must be text, got {_kind(value)}', field=name)
        _check_text(value, what=f'"{name}"', path=name)
        if not self.min_length <= len(value) <= self.max_length:
            raise InputError(f'"{name}" must be {self.min_length} to {self.max_length} characters, got {len(value)}',
                             field=name)
        if self.shown and (why := not_plain(value, brackets=False)) is not None:
            raise InputError(f'"{name}" may not contain {why}', field=name)
        if self.shown and value and shows_nothing(value):
            raise InputError(f'"{name}" must have at least one visible character', field=name)
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            raise InputError(f'"{name}" must be {self.describe or "of the documented form"}', field=name)
        return value


@dataclass(frozen=True)
class Integer:
    """An integer (never a boolean) from ``minimum`` to ``maximum``; with ``from_text``, also
    ASCII digits in a string, as form values arrive."""

    minimum: int = 0
    maximum: int = MAX_SAFE_INTEGER
    from_text: bool = False

    def clean(self, value: Any, name: str) -> int:
        if self.from_text and isinstance(value, str):
            if not (value.isascii() and value.isdigit() and len(value) <= 19):
                raise InputError(f'"{name}" must be written with the digits 0-9 only', field=name)
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f'"{name}" must be an integer, got {_kind(value)}', field=name)
        if not self.minimum <= value <= self.maximum:
            raise InputError(f'"{name}" must be from {self.minimum} to {self.maximum}', field=name)
        return value


@dataclass(frozen=True)
class Boolean:
    def clean(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise InputError(f'"{name}" must be true or false, got {_kind(value)}', field=name)
        return value


@dataclass(frozen=True)
class Object:
    """A JSON object (already checked by ``check_value``); with ``from_text``, also JSON text
    holding one, as the page's form sends an action. ``needs`` names keys it must have, as text
    when ``texts_at_most`` is set, which also caps every text anywhere inside it."""

    needs: tuple[str, ...] = ()
    from_text: bool = False
    texts_at_most: int | None = None

    def clean(self, value: Any, name: str) -> dict:
        if self.from_text and isinstance(value, str):
            value = parse_json(value, what=f'"{name}"')
        if not isinstance(value, dict):
            raise InputError(f'"{name}" must be an object, got {_kind(value)}', field=name)
        for key in self.needs:
            if key not in value:
                raise InputError(f'"{name}" must have a "{key}"', field=name)
            if self.texts_at_most is not None and not isinstance(value[key], str):
                raise InputError(f'"{name}.{key}" must be text, got {_kind(value[key])}', field=name)
        if self.texts_at_most is not None:
            _check_texts_at_most(value, self.texts_at_most, path=name)
        return value


def _check_texts_at_most(value: Any, limit: int, *, path: str) -> None:
    """Every text in ``value`` (keys too) at most ``limit`` characters; the error names where."""
    if isinstance(value, str):
        if len(value) > limit:
            raise InputError(f'"{path}" must be at most {limit} characters, got {len(value)}', field=path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_texts_at_most(key, limit, path=f"{path} key")
            _check_texts_at_most(item, limit, path=f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_texts_at_most(item, limit, path=f"{path}[{index}]")


@dataclass(frozen=True)
class Choice:
    values: tuple[str, ...]

    def clean(self, value: Any, name: str) -> str:
        if not isinstance(value, str) or value not in self.values:
            wanted = ", ".join(f'"{v}"' for v in self.values)
            raise InputError(f'"{name}" must be one of {wanted}', field=name)
        return value


@dataclass(frozen=True)
class MessageText:
    """A table-talk message: stripped of surrounding whitespace, then 1 to ``max_length``
    characters, with no control character but newline and tab and no bidirectional override
    (which could make a message look as if another player wrote it); a CRLF counts as a newline."""

    max_length: int = 500

    def clean(self, value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise InputError(f'"{name}" must be text, got {_kind(value)}', field=name)
        _check_text(value, what=f'"{name}"', path=name)
        text = value.replace("\r\n", "\n").strip()
        if shows_nothing(text):
            raise InputError(f'"{name}" is empty: write something', field=name)
        if len(text) > self.max_length:
            raise InputError(f'"{name}" may be at most {self.max_length} characters (leading and trailing spaces '
                             f'aside), got {len(text)}', field=name)
        found = _FORBIDDEN_IN_MESSAGES.search(text)
        if found and BIDI_CONTROLS.fullmatch(found.group()):
            raise InputError(f'"{name}" holds a bidirectional override (U+{ord(found.group()):04X}), which could '
                             f'make a message look as if another player wrote it', field=name)
        if found:
            raise InputError(f'"{name}" holds a control character; only newlines and tabs are allowed', field=name)
        return text


_FORBIDDEN_IN_MESSAGES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

_BLANK_LETTERS = "\u115f\u1160\u2800\u3164\uffa0"  # fillers and the blank Braille cell: letters that show nothing


def shows_nothing(text: str) -> bool:
    """Whether ``text`` has no character that shows: only spaces, combining marks, invisible
    formatting characters (a zero-width space) and blank fillers."""
    return all(unicodedata.category(ch)[0] in "MZ" or unicodedata.category(ch) in ("Cc", "Cf")
               or ch in _BLANK_LETTERS or ch.isspace() for ch in text)


_REQUIRED = object()


@dataclass(frozen=True)
class Shape:
    """A JSON object's declared fields; ``defaults`` makes a field optional. Keys not declared
    are ignored (clients may send more than a version of the server reads)."""

    name: str
    fields: dict[str, Any]
    defaults: dict[str, Any] = field(default_factory=dict)

    def clean(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise InputError(f"{self.name} must be a JSON object, got {_kind(data)}", code="malformed")
        cleaned = {}
        for name, spec in self.fields.items():
            value = data.get(name, _REQUIRED)
            if value is _REQUIRED or (value is None and name in self.defaults):
                if name not in self.defaults:
                    raise InputError(f'{self.name} needs "{name}"', field=name)
                cleaned[name] = self.defaults[name]
            else:
                cleaned[name] = spec.clean(value, name)
        return cleaned


# ---------------------------------------------------------------- the inputs

ACTION_ID = Text(1, 64)
VERSION = Integer(0, MAX_SAFE_INTEGER)
ACTION_TEXT_MAX = 200  # no text any game's action holds is longer (a Fogbound shout: 200; a nom de guerre: 24)
GAME_ACTION = Object(needs=("type",), texts_at_most=ACTION_TEXT_MAX)

FRAME_TYPE = Shape("a frame", {"type": Choice(("action", "refresh", "ping", "chat", "chat_publish"))})
ACTION_FRAME = Shape("an action frame", {"action": GAME_ACTION, "action_id": ACTION_ID, "version": VERSION})
PAGE_ACTION_FRAME = Shape("an action frame", {
    "action": Object(needs=("type",), from_text=True, texts_at_most=ACTION_TEXT_MAX), "action_id": ACTION_ID,
    "version": Integer(0, MAX_SAFE_INTEGER, from_text=True)})

CHAT_MAX_CHARACTERS = 500
CHAT_CHANNEL = Choice(("table", "team", "pair"))
CHAT_TEXT = MessageText(CHAT_MAX_CHARACTERS)
SEAT_NUMBER = Integer(0, 63)
CHAT_FRAME = Shape("a chat frame", {"channel": CHAT_CHANNEL, "to": SEAT_NUMBER, "text": CHAT_TEXT},
                   defaults={"to": None})
PUBLISH_FRAME = Shape("a chat_publish frame", {"with": SEAT_NUMBER})
PAGE_CHAT_FRAME = Shape("a chat frame", {"channel": CHAT_CHANNEL, "to": Integer(0, 63, from_text=True),
                                         "text": CHAT_TEXT}, defaults={"to": None})
PAGE_PUBLISH_FRAME = Shape("a chat_publish frame", {"with": Integer(0, 63, from_text=True)})
CHAT_BODY = Shape("the body", CHAT_FRAME.fields, defaults=CHAT_FRAME.defaults)
PUBLISH_BODY = Shape("the body", PUBLISH_FRAME.fields)
CHAT_KEY = Text(1, 16, pattern=r"table|team:\d{1,2}|pair:\d{1,2}-\d{1,2}",
                describe='a channel key: "table", "team:<team>" or "pair:<seat>-<seat>"')
CHAT_QUERY = Shape("the query", {
    "channel": CHAT_KEY, "after": Integer(0, MAX_ID, from_text=True), "before": Integer(1, MAX_ID, from_text=True),
    "limit": Integer(1, 100, from_text=True)},
    defaults={"channel": None, "after": None, "before": None, "limit": 50})
GAMES_QUERY = Shape("the query", {"mine": Choice(("0", "1"))}, defaults={"mine": "0"})
REVIEW_QUERY = Shape("the query", {"step": Integer(0, MAX_ID, from_text=True), "seat": Integer(0, 63, from_text=True)},
                     defaults={"step": None, "seat": None})

NEW_GAME_BODY = Shape("the body", {
    "game_type": Text(1, 40, pattern=r"[a-z0-9-]+", describe='a game\'s slug, e.g. "snowball-fight"'),
    "options": Object(), "is_public": Boolean(), "seats": Integer(1, 64), "teams": Integer(0, 64),
    "take_seat": Boolean(), "spectators_read_only": Boolean(), "pace": Choice(("live", "daily")),
    "decision_seconds": Integer(1, 7 * 86400), "rated": Boolean()},
    defaults={"options": {}, "is_public": True, "seats": None, "teams": None, "take_seat": True,
              "spectators_read_only": False, "pace": None, "decision_seconds": None, "rated": False})
EMPTY_BODY = Shape("the body", {})
LEARN_BODY = Shape("the body", {
    "game_type": Text(1, 40, pattern=r"[a-z0-9-]+", describe='a game\'s slug, e.g. "snowball-fight"')})
SEAT_BODY = Shape("the body", {"seat": Integer(0, 63), "team": Integer(0, 63)}, defaults={"seat": None, "team": None})
ACTION_BODY = Shape("the body", {"action": GAME_ACTION, "action_id": ACTION_ID, "version": VERSION})
HANDOVER_BODY = Shape("the body", {"seat": SEAT_NUMBER})
READY_BODY = Shape("the body", {"version": VERSION, "action_id": ACTION_ID}, defaults={"action_id": None})
SETTINGS_BODY = Shape("the body", {"email": Text(0, 254), "email_on_turn": Boolean()},
                      defaults={"email": None, "email_on_turn": None})
TOKEN_BODY = Shape("the body", {"name": Text(1, 60, shown=True)}, defaults={"name": "api"})

INVITE_CODE = Text(1, 32, pattern=r"[A-Za-z0-9_-]+", describe="an invite code from an invite link")
TOKEN_KEY = Text(4, 100, pattern=r"sb_[A-Za-z0-9_-]+", describe="an API token (sb_...)")
GAME_ID = Integer(1, MAX_ID)


def frame(text: str, *, page: bool = False) -> dict[str, Any]:
    """A socket frame as ``{"type": ...}`` plus, for actions, ``action``, ``action_id`` and
    ``version``; for chat, ``channel``, ``to`` and ``text``; for chat_publish, ``with``. The page's htmx form sends no type (it is an action), the action as JSON text,
    the version as digits, and its own ``HEADERS``."""
    try:
        data = parse_json(text, what="the frame")
    except InputError as exc:
        exc.about = talk_frame_type(text)
        raise
    if not isinstance(data, dict):
        raise InputError(f"the frame must be a JSON object, got {_kind(data)}", code="malformed")
    if page and "type" not in data:
        data = {**data, "type": "action"}
    try:
        kind = FRAME_TYPE.clean(data)["type"]
        if kind == "chat":
            return {"type": kind, **(PAGE_CHAT_FRAME if page else CHAT_FRAME).clean(data)}
        if kind == "chat_publish":
            return {"type": kind, **(PAGE_PUBLISH_FRAME if page else PUBLISH_FRAME).clean(data)}
        if kind != "action":
            return {"type": kind}
        return {"type": kind, **(PAGE_ACTION_FRAME if page else ACTION_FRAME).clean(data)}
    except InputError as exc:
        exc.action_id = action_id_of(data)
        exc.about = data["type"] if data.get("type") in TALK_FRAME_TYPES else None
        raise


TALK_FRAME_TYPES = ("chat", "chat_publish")
_TALK_TYPE = re.compile(r'"type"\s*:\s*"(chat|chat_publish)"')


def talk_frame_type(text: str | bytes) -> str | None:
    """The talk type (``chat``, ``chat_publish``) a frame too large or too broken to be read
    names, so that its refusal can say what it is about; None for any other frame."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    found = _TALK_TYPE.search(text)
    return found.group(1) if found else None


def body(raw: bytes, shape: Shape) -> dict[str, Any]:
    """An HTTP request's JSON body, cleaned by ``shape``; no body is an empty object."""
    return shape.clean(parse_json(raw, what="the body") if raw.strip() else {})


def optional(spec: Any, value: Any, name: str) -> Any:
    """``value`` cleaned by ``spec``, or None when it is absent or empty."""
    if value is None or value == "":
        return None
    return spec.clean(value, name)


def is_valid(spec: Any, value: Any) -> bool:
    try:
        spec.clean(value, "value")
    except InputError:
        return False
    return True


def action_id_of(data: Any) -> str | None:
    """The frame's action_id when it is a valid one, to tag an error reply; otherwise None."""
    value = data.get("action_id") if isinstance(data, dict) else None
    return value if is_valid(ACTION_ID, value) else None
