"""ASGI entry point: HTTP through Django, websockets through Channels with origin checks."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snowball_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from games import consumers, engines  # noqa: E402
from games.deadline_sweep import with_deadline_sweep  # noqa: E402
from games.auth import SameOriginValidator, socket_auth_stack  # noqa: E402
from snowball_site.access_log import redact_access_log  # noqa: E402
from snowball_site.http_bodies import leave_request_bodies_to_django  # noqa: E402
from snowball_site.pauses import with_pause_log  # noqa: E402
from snowball_site.tuning import tune_the_interpreter  # noqa: E402


def browser_socket(consumer):
    """Cookie-authenticated sockets accept only pages of this site (no cross-site hijacking)."""
    return SameOriginValidator(socket_auth_stack(consumer))


def bot_socket(consumer):
    """The JSON socket: a bot sends no Origin header and passes; a browser's Origin must be ours."""
    return SameOriginValidator(socket_auth_stack(consumer), allow_none=True)


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", browser_socket(consumers.GameHtmlConsumer.as_asgi())),
    path("ws/lobby/", browser_socket(consumers.LobbyConsumer.as_asgi())),
    path("ws/api/games/<int:game_id>/", bot_socket(consumers.GameApiConsumer.as_asgi())),
    re_path(r"^ws/", bot_socket(consumers.NowhereConsumer.as_asgi())),
]

application = with_pause_log(with_deadline_sweep(ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": consumers.refuse_flooders(URLRouter(websocket_urlpatterns)),
})))


engines.all_rulesets()  # import every engine now, not on the first game, so it is frozen with the rest
leave_request_bodies_to_django()
redact_access_log()  # daphne logs every request's path: an invite link's code must not be in it
tune_the_interpreter(full_collection_every=settings.SNOWBALL_FULL_COLLECTION_SECONDS)
