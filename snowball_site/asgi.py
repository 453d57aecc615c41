"""ASGI entry point: HTTP through Django, websockets through Channels with origin checks."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator, OriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from games import consumers  # noqa: E402


class BotOriginValidator(OriginValidator):
    """The JSON socket: a bot sends no Origin header and passes; a browser's Origin must be ours."""

    def valid_origin(self, parsed_origin):
        return parsed_origin is None or super().valid_origin(parsed_origin)


def browser_socket(consumer):
    """Cookie-authenticated sockets accept only pages of this site (no cross-site hijacking)."""
    return AllowedHostsOriginValidator(AuthMiddlewareStack(consumer))


def bot_socket(consumer):
    validator = AllowedHostsOriginValidator(None)
    return BotOriginValidator(AuthMiddlewareStack(consumer), validator.allowed_origins)


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", browser_socket(consumers.GameHtmlConsumer.as_asgi())),
    path("ws/lobby/", browser_socket(consumers.LobbyConsumer.as_asgi())),
    path("ws/api/games/<int:game_id>/", bot_socket(consumers.GameApiConsumer.as_asgi())),
]

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": URLRouter(websocket_urlpatterns),
})


def _tune_the_interpreter() -> None:
    """Hand the interpreter lock over sooner, and keep the cyclic collector's pauses short.

    The event loop and Channels' database thread share one interpreter lock. A thread that
    wants it back (after a query or a socket write) waits up to the switch interval, 5 ms by
    default, while the other runs: every action crosses threads several times, so under load
    those waits were most of the latency. 0.5 ms measured best (docs/performance.md).

    A full collection walks every tracked object and stops the server meanwhile: with
    Django, the apps and the engines in the heap, and live games' states and payloads on top,
    each one paused it for 60-350 ms on the benchmark machine (docs/performance.md). What
    startup built lives as long as the process: freeze it out of the collector's reach.
    Collect the youngest generation every 20,000 net allocations instead of 700, so that
    a request's short-lived objects die before they are promoted; cycles are still found.
    """
    import gc
    import sys

    from games import engines

    sys.setswitchinterval(0.0005)
    engines.all_rulesets()  # import every engine now, not on the first game
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


_tune_the_interpreter()
