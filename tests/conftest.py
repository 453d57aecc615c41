"""Fixtures shared by the platform tests: users, games, and the two site backends.

``site_backend`` runs a test once with the in-process coordinator and in-memory
channel layer, and once with both on a real Redis (skipped when Redis is not
reachable, failed instead when SNOWBALL_REQUIRE_REDIS is set, as in CI).
"""
from __future__ import annotations

import inspect
import os
import uuid

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REDIS_TEST_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


def _redis_problem() -> str | None:
    import redis

    try:
        client = redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except redis.RedisError as exc:
        return f"Redis at {REDIS_TEST_URL} is unreachable ({exc})"
    return None


def require_redis() -> None:
    problem = _redis_problem()
    if problem is None:
        return
    if os.environ.get("SNOWBALL_REQUIRE_REDIS", "") not in ("", "0"):
        pytest.fail(f"{problem}, and SNOWBALL_REQUIRE_REDIS is set")
    pytest.skip(f"{problem}; set SNOWBALL_REQUIRE_REDIS=1 to make this a failure")


@pytest.fixture(autouse=True)
def _fresh_process_state():
    """Each test starts with empty caches and a new coordinator, as a fresh process would."""
    from games import consumers, coordinator, presence, rendering, selectors
    from games.state_cache import STATE_CACHE

    consumers.FLOOD_COOLDOWN.bans.clear()
    with presence._watching_lock:  # a socket an earlier test left open counts a reused game id
        presence._watching.clear()
    STATE_CACHE.clear()
    rendering.VIEW_HTML.clear()
    selectors.SNAPSHOTS.clear()
    selectors.PAYLOADS.clear()
    coordinator.reset_coordinator()
    yield
    coordinator.reset_coordinator()
    STATE_CACHE.clear()


@pytest.fixture(autouse=True)
def _no_background_sweep(settings):
    """No worker's background sweep of deadlines runs, and no closed socket makes its player
    count as away, unless a test turns them on (tests/platform/test_pace.py): tests decide when
    deadlines are swept and who leaves."""
    settings.SNOWBALL_SWEEP_SECONDS = 0
    settings.SNOWBALL_ABSENCE_NOTICE_DELAY = -1


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file in WAL mode, as ``make run``'s is: database calls
    run on several threads, and an in-memory database shared by threads locks whole tables
    against each other where a file's readers never wait for its writer. Each test process
    (pytest-xdist) has its own database, as pytest-django's own fixture gives it."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3" and not database.get("TEST", {}).get("NAME"):
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("database") / "test.sqlite3")


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def site_backend(request, settings):
    """Configure the coordinator and channel layer for one backend; returns its name."""
    from channels.layers import channel_layers

    from games import coordinator

    if request.param == "redis":
        require_redis()
        prefix = f"sbtest-{uuid.uuid4().hex[:12]}"
        settings.REDIS_URL = REDIS_TEST_URL
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "games.channel_layers.RedisFanoutLayer",
            "CONFIG": {"hosts": [REDIS_TEST_URL], "prefix": prefix},
        }}
        coordinator._instance = coordinator.RedisCoordinator(REDIS_TEST_URL, prefix=prefix)
    else:
        settings.REDIS_URL = None
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layers.InMemoryLayer"}}
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()
    if request.param == "redis":
        import redis

        client = redis.Redis.from_url(REDIS_TEST_URL)
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Passwords hashed with a cheap hasher, as Django's testing docs advise: the site's
    PBKDF2 spends a third of a second on each of the thousands of players the tests make."""
    from django.conf import settings
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


@pytest.fixture(scope="session", autouse=True)
def _no_stray_connections_when_the_test_database_goes(request):
    """On PostgreSQL, end the sessions that threads left open (a pool keeps its connections),
    so the test database can be dropped at the end (it refuses while anyone is connected)."""
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from django.db import connection

    with request.getfixturevalue("django_db_blocker").unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    connection.close()


@pytest.fixture
def make_user(db):
    from games import services

    counter = {"n": 0}

    def make(name: str | None = None, *, guest: bool = False):
        counter["n"] += 1
        name = name or f"player{counter['n']}"
        if guest:
            return services.create_guest(display_name=name)
        return services.register_user(username=f"{name.lower()}{uuid.uuid4().hex[:6]}", password="snow-ball-1234", display_name=name)

    return make


@pytest.fixture(autouse=True)
def _every_finished_game_replays(request):
    """After each database test, every finished game must rebuild from its seed and log alone,
    and every game's log must be as long as it says (the next action's seq comes from it)."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    request.getfixturevalue("transactional_db" if marker.kwargs.get("transaction") else "db")
    yield
    from games import services
    from games.models import Game

    for game in Game.objects.filter(status=Game.Status.FINISHED):
        assert services.replay(game=game) == game.state, f"game {game.pk} does not replay from its seed and log"
    for game in Game.objects.all():
        logged = list(game.actions.values_list("seq", flat=True))
        assert logged == list(range(1, game.log_length + 1)), f"game {game.pk}: log_length {game.log_length}, seqs {logged}"


@pytest.fixture
async def _loop_database_closed():
    """At the end of an async test, the event loop's PostgreSQL pool is closed while the loop
    still runs (``loop_database.close_pool``: the runner's close would wait for ever on a pool
    worker it cancelled mid-task)."""
    yield
    from games import loop_database

    await loop_database.close_pool()


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: they are the slowest, and Playwright's sync API leaves its event
    loop marked as running on the main thread, which async tests after them would trip over.
    Every async test closes its loop's database pool before its loop closes."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/"))
    for item in items:
        if inspect.iscoroutinefunction(getattr(item, "function", None)) and "_loop_database_closed" not in getattr(
                item, "fixturenames", ["_loop_database_closed"]):
            item.fixturenames.append("_loop_database_closed")
