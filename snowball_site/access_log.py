"""Secrets kept out of the server's logs.

An invite link (``/games/<id>/invite/<code>/``) lets whoever holds it into a private game, and a
script may pass its invite (``?invite=``) or its API key (``?token=``) in a query string. Daphne
writes every request's path and query string to its access log (``daphne.access.AccessLogGenerator``,
a plain stream, not a ``logging`` logger), so the log would hand those secrets to anyone who reads
it. :func:`redact_access_log` makes daphne's access log write them as ``[hidden]``; the
:class:`HideSecrets` filter does the same for Django's own log lines ("Not Found: <path>")."""
from __future__ import annotations

import logging
import re

HIDDEN = "[hidden]"
_IN_PATH = re.compile(r"(/invite/)[^/?#\s\"]+")
_IN_QUERY = re.compile(r"([?&](?:invite|token)=)[^&#\s\"]*", re.IGNORECASE)


def redacted(text: str) -> str:
    """``text`` (a path, a query string, a log line) with every invite code and API key hidden."""
    return _IN_QUERY.sub(rf"\g<1>{HIDDEN}", _IN_PATH.sub(rf"\g<1>{HIDDEN}", text))


def redact_access_log() -> None:
    """Make daphne's access log hide the secrets in each request's path (idempotent; nothing to
    do when daphne is not installed)."""
    try:
        from daphne.access import AccessLogGenerator
    except ImportError:  # pragma: no cover - daphne is a dependency
        return
    if getattr(AccessLogGenerator, "hides_secrets", False):
        return
    log_action = AccessLogGenerator.__call__

    def hiding_secrets(self, protocol, action, details):
        path = details.get("path") if isinstance(details, dict) else None
        if isinstance(path, str):
            details = {**details, "path": redacted(path)}
        return log_action(self, protocol, action, details)

    AccessLogGenerator.__call__ = hiding_secrets
    AccessLogGenerator.hides_secrets = True


class HideSecrets(logging.Filter):
    """A logging filter: the record's message, once formatted, with its secrets hidden."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to the handler to report
            return True
        hidden = redacted(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True
