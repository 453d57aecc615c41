"""The site's settings with the test table engines registered and their boards findable,
for a live server that browser tests of tables of more than two seats run against."""
from snowball_site.settings import *  # noqa: F401,F403
from snowball_site.settings import TEMPLATES

from games import engines
from tests.engines.table_engine import TEMPLATES_DIR, TEST_ENGINES

TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], TEMPLATES_DIR]
for ruleset in TEST_ENGINES:
    engines.register(ruleset)
