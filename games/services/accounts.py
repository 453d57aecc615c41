"""Guests, registered players and their profiles."""
from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from games import inputs
from games.errors import BadRequest, Conflict
from games.models import Profile

User = get_user_model()


def create_guest(*, display_name: str) -> Any:
    """A user that plays under a display name only; it can register later and keep its games."""
    display_name = clean_display_name(display_name)
    username = f"guest-{secrets.token_hex(6)}"
    user = User.objects.create_user(username=username)
    user.set_unusable_password()
    user.save(update_fields=["password"])
    Profile.objects.create(user=user, display_name=display_name, is_guest=True)
    return user


def register_user(*, username: str, password: str, display_name: str | None = None, guest=None,
                  email: str = "") -> Any:
    """Create an account, or turn ``guest`` into one so it keeps its games. An ``email``
    (optional) is where a forgotten password's reset link goes."""
    if User.objects.filter(username__iexact=username).exclude(pk=getattr(guest, "pk", None)).exists():
        raise Conflict(f"the username {username!r} is taken")
    if email and email_in_use(email, except_user=guest):
        raise Conflict("another account already uses this e-mail address")
    if guest is not None and getattr(guest, "profile", None) and guest.profile.is_guest:
        user = guest
        user.username = username
        user.set_password(password)
        user.email = email or user.email
        user.save(update_fields=["username", "password", "email"])
        profile = user.profile
        profile.is_guest = False
        if display_name:
            profile.display_name = clean_display_name(display_name)
        profile.save()
        return user
    user = User.objects.create_user(username=username, password=password, email=email)
    Profile.objects.create(user=user, display_name=clean_display_name(display_name or username))
    return user


def email_in_use(email: str, *, except_user=None) -> bool:
    """Whether an account other than ``except_user`` has ``email``, in any case."""
    return User.objects.filter(email__iexact=email.strip()).exclude(pk=getattr(except_user, "pk", None)).exists()


def ensure_profile(user) -> Profile:
    """The user's profile, created from its username if missing (e.g. a superuser)."""
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        profile = Profile.objects.create(user=user, display_name=user.get_username()[:40])
    return profile


DISPLAY_NAME_LENGTH = 40
_JOINERS = "\u200c\u200d"  # zero-width (non-)joiners: part of emoji and of some scripts' words


def clean_display_name(name: str) -> str:
    """``name`` as other players will read it (runs of spaces made one), or the error that says
    what is wrong with it: it has 1 to 40 characters, at least one of them visible, and no
    control character nor invisible formatting character (a right-to-left override would make
    the name, and the text after it, read backwards; a zero-width space would let it pass for
    another player's name)."""
    name = " ".join((name or "").split())
    if not name:
        raise BadRequest("a display name is required")
    if len(name) > DISPLAY_NAME_LENGTH:
        raise BadRequest(f"a display name has at most {DISPLAY_NAME_LENGTH} characters, got {len(name)}")
    categories = [unicodedata.category(ch) for ch in name]
    if any(category in ("Cc", "Cs") for category in categories):
        raise BadRequest("a display name may not hold control characters")
    if any(category == "Cf" and ch not in _JOINERS for ch, category in zip(name, categories)):
        raise BadRequest("a display name may not hold invisible formatting characters "
                         "(such as a right-to-left override or a zero-width space)")
    if inputs.shows_nothing(name):
        raise BadRequest("a display name needs at least one visible character")
    return name


def update_settings(*, user, email: str | None = None, email_on_turn: bool | None = None,
                    display_name: str | None = None) -> Profile:
    """Change the user's display name (as ``clean_display_name`` keeps it), e-mail address (one
    no other account has, in any case) and whether it wants an e-mail when a game by the day
    waits for its decision (which needs an address). ``None`` leaves a setting as it is."""
    profile = ensure_profile(user)
    if display_name is not None:
        profile.display_name = clean_display_name(display_name)
        profile.save(update_fields=["display_name"])
    if email is not None:
        email = email.strip()
        if email:
            try:
                validate_email(email)
            except ValidationError as exc:
                raise BadRequest("the e-mail address is not valid") from exc
            if email_in_use(email, except_user=user):
                raise Conflict("another account already uses this e-mail address")
        user.email = email
        user.save(update_fields=["email"])
    if email_on_turn is not None:
        if email_on_turn and not user.email:
            raise BadRequest("give an e-mail address to be sent e-mails")
        profile.email_on_turn = email_on_turn
        profile.save(update_fields=["email_on_turn"])
    return profile
