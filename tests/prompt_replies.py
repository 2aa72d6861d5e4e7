"""A NotebookClient that never waits out its timeout for a reply that has already come.

nbclient runs each ``execute_cell`` in an event loop that stops between cells. A kernel's reply
that arrives at such a moment can miss its wake-up: the wait then lasts the whole cell timeout
(300 s) and only its last look finds the reply, so the lesson passes five minutes late (seen
about one run in four of ``make test``, after a widget cell; jupyter/nbclient#312). Waiting in
one-second slices bounds that to a second.
"""

from __future__ import annotations

import time
from queue import Empty
from typing import Any


def wait_in_slices(channel: Any, step: float = 1.0) -> None:
    """Make ``channel.get_msg(timeout)`` look every ``step`` seconds until its timeout."""
    wait = channel.get_msg

    async def get_msg(timeout: float | None = None) -> Any:
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            left = step if end is None else min(step, max(end - time.monotonic(), 0))
            try:
                return await wait(timeout=left)
            except Empty:
                if end is not None and time.monotonic() >= end:
                    raise

    channel.get_msg = get_msg


def prompt_replies(client: Any) -> None:
    """Apply ``wait_in_slices`` to the shell and IOPub channels of a started NotebookClient."""
    for channel in (client.kc.shell_channel, client.kc.iopub_channel):
        wait_in_slices(channel)
