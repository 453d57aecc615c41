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
