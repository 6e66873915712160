"""A served screen (tui/served.py) ends when its terminal hangs up, even in a process that inherited SIGHUP
ignored (a host started under ``nohup``: its plain-ssh screens, ready screens included, outlived the room and
each kept a CPU busy on the dead terminal, slowing every test after them)."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path


def test_a_served_screen_ends_with_its_terminal_even_with_sighup_ignored(tmp_path: Path) -> None:
    master, slave = os.openpty()

    def ignore_hangups_and_take_the_terminal() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup leaves it for every descendant
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        [sys.executable, "-m", "tui.served", f"--socket={tmp_path / 'no-room.sock'}", "--token=x"],
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        preexec_fn=ignore_hangups_and_take_the_terminal)
    os.close(slave)
    try:
        drawn = b""
        deadline = time.monotonic() + 120  # a hang guard: the first frame on a loaded machine
        while len(drawn) < 1000 and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                drawn += os.read(master, 65536)
        assert len(drawn) >= 1000, drawn[-300:]  # the screen is up (it says the room cannot be reached)
        os.close(master)  # the player's ssh is gone: the terminal hangs up
        master = -1
        process.wait(timeout=30)
        assert process.returncode == -signal.SIGHUP
    finally:
        if master >= 0:
            os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
