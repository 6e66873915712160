"""Helper processes die with the room that started them, whatever killed it (issue 13 item 11).

The TUI fork server and every served TUI (ready screens included) call :func:`die_with_parent` at start-up.
On Linux the kernel sends them SIGKILL when their parent dies (``prctl(PR_SET_PDEATHSIG)``): a host killed
with ``kill -9``, or started under ``nohup`` (SIGHUP ignored, so a hung-up terminal did not end its TUIs), no
longer leaves screens spinning. Elsewhere a daemon thread watches the parent's pid once a second.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0


def _set_parent_death_signal(number: int) -> bool:
    """``prctl(PR_SET_PDEATHSIG, number)``; False where there is no such call (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, number, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) is gone; at once if it is gone already."""
    if not _set_parent_death_signal(signal.SIGKILL):
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # it died before the signal was armed (the kernel sends nothing then)
        os._exit(1)


def _watch(parent: int) -> None:  # pragma: no cover - the fallback where prctl is missing
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)
