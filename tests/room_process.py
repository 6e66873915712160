"""``croupier host`` as a process, for the tests and the benchmarks (issue 24): one way to start a room and learn
its port.

The room listens on loopback only (``--listen 127.0.0.1``: a test's room is never open to the network), on a port
the system picks (``--port 0``), and the port is read from its own "is open on 127.0.0.1 port N" line. A port
probed free beforehand could be taken again between the probe and the room's bind, by a test running beside it
(pytest-xdist) or by any outgoing connection; a port the room already holds cannot. (On every interface,
``--port 0`` gives IPv4 and IPv6 the same port: hosting.server.listen_on_one_port.)
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.waiting import QUIET, cpu_ticks, wait_until

OPENED = re.compile(r"is open on (?:\S+ )?port (\d+)")
"""``croupier host``'s first line (hosting.commands.host.banner), on every interface or on one address."""

LOOPBACK = "127.0.0.1"

MODULE = (sys.executable, "-m", "hosting.cli")
"""``croupier`` as this interpreter's module: works without the console script (benchmarks, coverage)."""


def croupier() -> str:
    """The ``croupier`` console script of the environment running the tests."""
    script = Path(sys.executable).parent / "croupier"
    return str(script) if script.exists() else "croupier"


def opened_port(text: str) -> int | None:
    """The port in ``croupier host``'s "is open on port N" line, if ``text`` has it.

    >>> opened_port("croupier room 'x' is open on 127.0.0.1 port 40123 only (1 tables).")
    40123
    >>> opened_port("starting") is None
    True
    """
    match = OPENED.search(text)
    return int(match.group(1)) if match else None


class RoomDidNotOpen(AssertionError):
    """``croupier host`` ended, or stopped moving, before its room opened."""


@dataclass
class RoomProcess:
    """A running ``croupier host`` and the port it listens on; everything it prints goes to ``log``."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, how: int = signal.SIGINT, timeout: float = 60) -> int | None:
        """Close the room as Ctrl+C (or ``how``) does; killed (its whole group if it leads one) after ``timeout``
        seconds. Its exit status."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(how)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode

    def kill(self) -> None:
        """SIGKILL, to its process group when it leads one (``start_new_session``): no helper outlives it."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if os.getpgid(self.process.pid) == self.process.pid:
                    os.killpg(self.process.pid, signal.SIGKILL)
                else:
                    self.process.kill()
        self.process.wait()


def start_room_process(data: Path, log: Path, *arguments: str, command: Sequence[str] = MODULE,
                       quiet: float = QUIET, **popen: Any) -> RoomProcess:
    """``command host --listen 127.0.0.1 --port 0 --data DATA ARGUMENTS`` (``--config``, ``--log-level``…), its
    output in ``log``; returns once the room is open. ``popen`` goes to :class:`subprocess.Popen` (``env``,
    ``start_new_session``…). Fails (:class:`RoomDidNotOpen`) if the host ends first, or if neither its output
    nor its CPU time moved for ``quiet`` seconds."""
    with open(log, "wb") as sink:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen([*command, "host", "--listen", LOOPBACK, "--port", "0", "--data", str(data),
                                    *arguments],
                                   stdout=sink, stderr=subprocess.STDOUT, **popen)
    room = RoomProcess(process, 0, log)

    def port() -> int | None:
        found = opened_port(room.output())
        if found is None and process.poll() is not None:
            raise RoomDidNotOpen(f"croupier host ended (status {process.returncode}) before its room opened:\n"
                                 f"{room.output()[-2000:]}")
        return found

    try:
        room.port = wait_until(port, "croupier host to open its room", quiet=quiet, step=0.1,
                               progress=lambda: (log.stat().st_size, cpu_ticks(process.pid)))
    except AssertionError as failure:
        room.kill()
        if isinstance(failure, RoomDidNotOpen):
            raise
        raise RoomDidNotOpen(f"{failure}; its output:\n{room.output()[-2000:]}") from None
    return room
