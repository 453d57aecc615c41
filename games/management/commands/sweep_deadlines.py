"""``manage.py sweep_deadlines``: play the defaults of every overdue prompt, for cron."""
from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Apply the engines' defaults to every prompt whose deadline has passed (run it from cron)."

    def add_arguments(self, parser):
        parser.add_argument("--loop", type=float, default=0, metavar="SECONDS",
                            help="keep sweeping, every SECONDS, until interrupted")

    def handle(self, *args, loop: float = 0, **options):
        while True:
            moved = services.sweep_deadlines()
            self.stdout.write(f"{len(moved)} games moved on: " + (", ".join(
                f"#{game_id} (version {version})" for game_id, version in sorted(moved.items())) or "none overdue"))
            if loop <= 0:
                return
            time.sleep(loop)
