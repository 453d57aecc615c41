"""API tokens: finding the user behind a bearer key."""
from __future__ import annotations

from django.utils import timezone

from games.models import ApiToken


def user_for_token(key: str):
    """The active user owning ``key``, or None; records when the token was last used."""
    token = ApiToken.objects.select_related("user").filter(digest=ApiToken.digest_of(key)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


def token_from_header(header: str | None) -> str | None:
    """The key in an ``Authorization: Token <key>`` (or ``Bearer``) header."""
    if not header:
        return None
    scheme, _, rest = header.partition(" ")
    if scheme.lower() in {"token", "bearer"} and rest.strip():
        return rest.strip()
    return None
