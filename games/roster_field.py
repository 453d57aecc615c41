"""The roster editor for an engine option of kind "roster" (What a Snowball!'s Kids).

The field's value is a JSON list of Kids, ``{"name", "seat", "traits", "type"}``, or empty for
the engine's default roster. The widget renders that JSON in a textarea that
static/js/roster-editor.js turns into a table of Kids (name, seat, type, Traits); without
script the textarea itself can be edited. The field checks the shape; the engine checks the
rules (team sizes, Kids per seat, Traits per type) when the game is created.
"""
from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

KID_KEYS = frozenset({"name", "seat", "traits", "type"})
TYPE_CHOICES = (("kid", "Kid"), ("big_kid", "Big Kid (two Traits)"), ("elf", "Christmas Elf"),
                ("snowman", "Living Snowman"), ("yeti", "Yeti (Fast and Strong)"), ("penguin", "Penguin"))
TRAIT_CHOICES = (("fast", "Fast"), ("strong", "Strong"), ("skilful", "Skilful"), ("resourceful", "Resourceful"))


class RosterWidget(forms.Textarea):
    """The textarea of JSON inside the editor's markup (templates/games/widgets/roster.html)."""

    template_name = "games/widgets/roster.html"

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["choices_json"] = json.dumps({"types": TYPE_CHOICES, "traits": TRAIT_CHOICES})
        context["widget"]["flat_attrs"] = flatatt(context["widget"]["attrs"])
        return context

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> str:
        return mark_safe(render_to_string(self.template_name, self.get_context(name, value, attrs)))

    def format_value(self, value: Any) -> str:
        if value in (None, ""):
            return ""
        if isinstance(value, str):
            return value
        return json.dumps(value)


class RosterField(forms.Field):
    """A list of Kids as JSON; empty means "let the game choose" (None)."""

    widget = RosterWidget

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[dict[str, Any]] | None:
        if value in (None, "", []):
            return None
        if isinstance(value, list):
            roster = value
        else:
            try:
                roster = json.loads(value)
            except (TypeError, ValueError) as exc:
                raise ValidationError(f"The Kids must be a JSON list; it does not read as JSON ({exc}).") from exc
        if roster is None or roster == []:
            return None
        if not isinstance(roster, list):
            raise ValidationError("The Kids must be a list, one entry per Kid.")
        for index, kid in enumerate(roster, start=1):
            where = f"Kid {index}"
            if not isinstance(kid, dict):
                raise ValidationError(f"{where} must be an object with name, seat, traits and type.")
            unknown = sorted(set(kid) - KID_KEYS)
            if unknown:
                raise ValidationError(f"{where} has unknown field(s) {', '.join(unknown)}; "
                                      f"a Kid has {', '.join(sorted(KID_KEYS))}.")
            if not isinstance(kid.get("name", ""), str):
                raise ValidationError(f"{where}: the name must be text.")
            seat = kid.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise ValidationError(f"{where}: the seat must be a seat number, not {seat!r}.")
            if "traits" in kid and (not isinstance(kid["traits"], list)
                                    or not all(isinstance(t, str) for t in kid["traits"])):
                raise ValidationError(f"{where}: the Traits must be a list of Trait names.")
            if not isinstance(kid.get("type", "kid"), str):
                raise ValidationError(f"{where}: the type must be a type name.")
        return roster

    def prepare_value(self, value: Any) -> Any:
        return value
