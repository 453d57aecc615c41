"""Errors the play service raises; each carries a stable code and a message for people."""
from __future__ import annotations


class ServiceError(Exception):
    code = "error"
    http_status = 400

    def __init__(self, message: str, **details):
        super().__init__(message)
        self.message = message
        self.details = details


class NotFound(ServiceError):
    code = "not_found"
    http_status = 404


class Forbidden(ServiceError):
    code = "forbidden"
    http_status = 403


class NotSeated(Forbidden):
    code = "not_seated"


class BadRequest(ServiceError):
    code = "bad_request"


class Conflict(ServiceError):
    code = "conflict"
    http_status = 409


class StaleVersion(Conflict):
    code = "stale_version"


class Busy(ServiceError):
    code = "busy"
    http_status = 503


class TokenRevoked(ServiceError):
    """The API token a socket acts with was revoked: it may act no more."""

    code = "token_revoked"
    http_status = 401


class Unauthenticated(ServiceError):
    code = "unauthenticated"
    http_status = 401


class ChannelClosed(Conflict):
    """A table-talk channel that takes no message now (before the start, after the end)."""

    code = "channel_closed"


class TooManyMessages(ServiceError):
    code = "too_many_messages"
    http_status = 429
