"""Who is asking: API tokens behind bearer keys, and the Origin a browser's socket comes from."""
from __future__ import annotations

from urllib.parse import urlsplit

from channels.auth import AuthMiddleware
from channels.security.websocket import WebsocketDenier
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils import timezone

from games.models import ApiToken


def token_for_key(key: str) -> ApiToken | None:
    """The token of ``key`` with its active user, or None; records when it was last used."""
    # the digest is unique: the first row found, without ``first()``'s ordering by id to compile
    token = next(iter(ApiToken.objects.select_related("user").filter(digest=ApiToken.digest_of(key))[:1]), None)
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def user_for_token(key: str):
    """The active user owning ``key``, or None."""
    token = token_for_key(key)
    return None if token is None else token.user


def token_is_live(token_id: int) -> bool:
    return ApiToken.objects.filter(pk=token_id).exists()


def token_group(token_id: int) -> str:
    """The channel group of the sockets opened with one token, told when it is revoked."""
    return f"api-token.{token_id}"


def token_from_header(header: str | None) -> str | None:
    """The key in an ``Authorization: Token <key>`` (or ``Bearer``) header."""
    if not header:
        return None
    scheme, _, rest = header.partition(" ")
    if scheme.lower() in {"token", "bearer"} and rest.strip():
        return rest.strip()
    return None


class SameOriginValidator:
    """Lets a websocket handshake through only from this site's own pages.

    The Origin must have the same scheme, host and port as the socket's Host (``ws`` pairs with
    ``http``, ``wss`` or the proxy's ``SECURE_PROXY_SSL_HEADER`` with ``https``), that host
    being one of ``ALLOWED_HOSTS``, or be one of ``CSRF_TRUSTED_ORIGINS`` exactly. With
    ``allow_none`` a client that sends no Origin (a program, not a browser) passes too. Any
    other handshake is refused (HTTP 403).
    """

    def __init__(self, application, *, allow_none: bool = False):
        self.application = application
        self.allow_none = allow_none

    async def __call__(self, scope, receive, send):
        if self.allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def allowed(self, scope) -> bool:
        headers = {name: value.decode("latin1") for name, value in scope.get("headers", [])}
        origin = headers.get(b"origin")
        if origin is None:
            return self.allow_none
        theirs = _parsed_origin(origin)
        if theirs is None:
            return False
        for trusted in settings.CSRF_TRUSTED_ORIGINS:
            if _parsed_origin(trusted) == theirs:
                return True
        host = headers.get(b"host", "").lower()
        hostname, _ = split_domain_port(host)
        if not hostname or not validate_host(hostname, settings.ALLOWED_HOSTS):
            return False
        secure = scope.get("scheme") == "wss" or _forwarded_https(headers)
        return _parsed_origin(f"{'https' if secure else 'http'}://{host}") == theirs


def _parsed_origin(text: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, with the scheme's default port filled in."""
    split = urlsplit(text.strip().lower())
    if split.scheme not in {"http", "https"} or not split.hostname:
        return None
    try:
        port = split.port
    except ValueError:
        return None
    return split.scheme, split.hostname, port or (443 if split.scheme == "https" else 80)


def _forwarded_https(headers: dict[bytes, str]) -> bool:
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not header:
        return False
    name, value = header
    wanted = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
    return headers.get(wanted, "").split(",")[0].strip() == value


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware`` for websockets: the session is read, to know who the
    browser is signed in as, and never saved. Channels' own wraps every frame a socket sends
    to save a modified session before an HTTP response starts, which a socket never sends;
    a game's sockets send five frames a move."""

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_auth_stack(inner):
    """``channels.auth.AuthMiddlewareStack`` with the session read-only (``SocketSessionMiddleware``)."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
