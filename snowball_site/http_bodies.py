"""Request bodies are Django's to read, not Twisted's."""
from __future__ import annotations


def leave_request_bodies_to_django() -> None:
    """Have daphne's HTTP requests skip Twisted's own parsing of POST bodies.

    Twisted parses every form-encoded or multipart POST body into ``request.args`` before
    daphne sees the request, which daphne never reads (it hands the raw body to Django,
    which parses it again). A multipart body Twisted cannot parse is answered with a bare
    ``400`` written straight to the socket, which is then closed: behind nginx the worker
    seems to have dropped the connection, and the client gets a 502. Without that parsing,
    Django reads the body and answers a broken one with its own 400 page.
    """
    try:
        from daphne import http_protocol
    except ImportError:  # not served by daphne
        return
    if getattr(http_protocol.WebRequest, "leaves_bodies_to_django", False):
        return

    class WebRequest(http_protocol.WebRequest):
        leaves_bodies_to_django = True

        def __init__(self, *args, **kwargs) -> None:
            kwargs["parsePOSTFormSubmission"] = False
            super().__init__(*args, **kwargs)

    http_protocol.WebRequest = WebRequest
