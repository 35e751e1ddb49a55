"""``manage.py run_clock``: the tables' clock as its own process.

Web processes run a clock each already (game.tables.transport.clock); an operator may set
``TABLES_CLOCK=off`` for them and run this instead, or beside them: every deadline still
fires exactly once, since firing is a versioned, row-locked write.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from game.tables.transport import clock, oneprocess


class Command(BaseCommand):
    help = "Fire the live tables' deadlines (bot moves, timers, grace periods) until stopped."

    def handle(self, *args: Any, **options: Any) -> None:
        try:  # with the in-memory layer its moves would reach no socket of another process
            oneprocess.refuse_second_process()
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from None
        self.stdout.write("tables clock running; Ctrl-C stops it")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(clock.run(fire=True))
