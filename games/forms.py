"""Forms for accounts and for creating a game (its options come from the engine)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.validators import ASCIIUsernameValidator

from games import inputs, pacing, services
from games.engines.base import Option, Ruleset, team_counts_of
from games.errors import BadRequest
from games.roster_field import RosterField

User = get_user_model()


def _display_name(value: str) -> str:
    """``value`` as ``services.clean_display_name`` keeps it; its refusal as the field's error."""
    try:
        return services.clean_display_name(value)
    except BadRequest as exc:
        raise forms.ValidationError(exc.message) from None


class GuestForm(forms.Form):
    display_name = forms.CharField(
        max_length=40, label="Your name", widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
        error_messages={"required": "a display name is required",
                        "max_length": "a display name has at most %(limit_value)d characters, got %(show_value)d"})

    def clean_display_name(self) -> str:
        return _display_name(self.cleaned_data["display_name"])


def _unused_email(value: str, user=None) -> str:
    """``value`` normalised, refused if another account has it (in any case)."""
    email = User.objects.normalize_email(value.strip())
    if email and services.email_in_use(email, except_user=user):
        raise forms.ValidationError("Another account already uses this e-mail address.")
    return email


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label="E-mail address", required=False, widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="Optional, but recommended: it is the only way to reset a forgotten password.")
    display_name = forms.CharField(max_length=40, required=False, help_text="Shown to other players; defaults to your username.")

    field_order = ("username", "email", "password1", "password2", "display_name")

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args: Any, guest=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.guest = guest
        self.fields["username"].help_text = ("Your page's address: unaccented letters, digits and @ . + - _ only, "
                                             "at most 150. Your display name may be written in any script.")

    def clean_username(self) -> str:
        """A username names a player's page (/players/<username>/): unaccented letters, digits and
        @/./+/-/_ only, so that no page can pass for another's with a look-alike letter."""
        username = super().clean_username()
        ASCIIUsernameValidator()(username)
        return username

    def clean_email(self) -> str:
        return _unused_email(self.cleaned_data["email"], self.guest)

    def clean_display_name(self) -> str:
        value = self.cleaned_data["display_name"]
        return _display_name(value) if value else value


class ApiTokenForm(forms.Form):
    name = forms.CharField(max_length=60, label="Token name", help_text="e.g. my-bot")

    def clean_name(self) -> str:
        """The name as ``POST /api/tokens/`` takes it (``inputs.TOKEN_BODY``): shown as written."""
        try:
            return inputs.TOKEN_BODY.fields["name"].clean(self.cleaned_data["name"], "name")
        except BadRequest as exc:
            raise forms.ValidationError(str(exc).replace('"name"', "The name")) from None


class RevokeTokenForm(forms.Form):
    revoke = forms.IntegerField(min_value=1, max_value=2**63 - 1)


class SeatForm(forms.Form):
    """The waiting room's buttons: which seat (none: the first empty one, or your own) and
    which team."""

    seat = forms.IntegerField(min_value=0, max_value=63, required=False)
    team = forms.IntegerField(min_value=0, max_value=63, required=False)


def _option_field(option: Option) -> forms.Field:
    if option.kind == "roster":
        return RosterField(label=option.label)
    if option.kind == "bool":
        return forms.BooleanField(label=option.label, required=False, initial=option.default, help_text=option.help)
    if option.kind == "multichoice":
        return forms.MultipleChoiceField(label=option.label, required=False, choices=option.choices,
                                         initial=option.default, help_text=option.help,
                                         widget=forms.CheckboxSelectMultiple)
    return forms.ChoiceField(label=option.label, choices=option.choices, initial=option.default, help_text=option.help)


PACE_CHOICES = [
    ("Live", [("live", "Live: the game's own timers"),
              *((f"live:{s}", f"Live: {pacing.duration_text(s)} a decision") for s in pacing.LIVE_SECONDS)]),
    ("By the day", [(f"daily:{s}", f"By the day: {pacing.duration_text(s)} a turn") for s in pacing.DAILY_SECONDS]),
]


class SettingsForm(forms.Form):
    display_name = forms.CharField(
        max_length=40, label="Display name", widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
        required=False, help_text="Shown to other players: on your page and in the games you start or join from now on.",
        error_messages={"max_length": "a display name has at most %(limit_value)d characters, got %(show_value)d"})
    email = forms.EmailField(label="E-mail address", required=False,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}),
                             help_text="Where a link to reset a forgotten password is sent.")
    email_on_turn = forms.BooleanField(label="E-mail me when a game by the day waits for my decision",
                                       required=False)

    def __init__(self, *args: Any, user, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.user = user
        if getattr(getattr(user, "profile", None), "is_guest", False):
            self.fields["email"].help_text = "Where the e-mails you ask for below are sent."

    def clean_display_name(self) -> str | None:
        """The new name, or None (left empty) to keep the one the player has."""
        value = self.cleaned_data["display_name"]
        return _display_name(value) if value.strip() else None

    def clean_email(self) -> str:
        return _unused_email(self.cleaned_data["email"], self.user)


class EmailOnTurnForm(forms.Form):
    """The game page's box for the settings page's ``email_on_turn``."""

    email_on_turn = forms.BooleanField(required=False)


class NewGameForm(forms.Form):
    """Public or private, the pace, whether spectators may talk, number of seats and of teams,
    and one field per engine option."""

    is_public = forms.BooleanField(label="Public (listed in the lobby, anyone can watch)", required=False, initial=True)
    pace = forms.ChoiceField(label="Pace", choices=PACE_CHOICES, initial="live", required=False,
                             help_text="Live: everyone at the table at once. By the day: come back when you "
                             "can; when time runs out, the default is played for you.")
    spectators_read_only = forms.BooleanField(
        label="Spectators may only read the table talk", required=False, initial=False,
        help_text="Players always talk at the table, in their team and in private.")
    rated = forms.BooleanField(
        label="Rated even with guests or computer players", required=False, initial=False,
        help_text="A game where every seat is a signed-in player is rated: it changes each player's rating "
        "at this game. Tick this to rate it also when guests or computer players sit at the table "
        "(computer players share one rating; guests never get one).")

    def __init__(self, *args: Any, ruleset: Ruleset, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        if ruleset.max_players > ruleset.min_players:
            self.fields["num_seats"] = forms.TypedChoiceField(
                label="Players", coerce=int, initial=ruleset.min_players, required=False, empty_value=None,
                choices=[(n, str(n)) for n in range(ruleset.min_players, ruleset.max_players + 1)])
        team_counts = team_counts_of(ruleset)
        if len(team_counts) > 1:
            self.fields["num_teams"] = forms.TypedChoiceField(
                label="Teams", coerce=int, initial=min(team_counts), required=False, empty_value=None,
                choices=[(n, f"{n} teams" if n else "No teams") for n in sorted(team_counts)],
                help_text="Players choose their team in the waiting room.")
        for option in ruleset.options:
            self.fields[f"opt_{option.name}"] = _option_field(option)

    def chosen_pace(self) -> tuple[str, int | None]:
        """The chosen pace and its seconds, as ``services.create_game`` takes them."""
        pace, _, seconds = (self.cleaned_data.get("pace") or "live").partition(":")
        return pace, int(seconds) if seconds else None

    def engine_options(self) -> dict[str, Any]:
        return {o.name: self.cleaned_data[f"opt_{o.name}"] for o in self.ruleset.options}
