"""Stopping a room whose players use real terminals (issue 14 items 6–7, issue 13 item 11), in tmux:

- ``croupier host`` stopped with Ctrl+C, or with ``kill PID`` (SIGTERM): the plain-ssh player's terminal is
  given back (alternate screen off, mouse reporting off, cursor shown) with the "room has closed" line, and
  ``croupier join`` says the room closed and exits instead of retrying for ever;
- Ctrl+C at ``croupier join``'s "Trust it and remember it? [y/N]" cancels at once, in words, no traceback.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.tmux import Tmux
from tests.room_process import opened_port
from tests.tui.test_host_stop import children_of
from tests.waiting import cpu_ticks, wait_until

pytestmark = [
    pytest.mark.skipif(any(shutil.which(tool) is None for tool in ("tmux", "ssh", "ssh-keygen")),
                       reason="needs tmux and the OpenSSH client (apt-get install tmux openssh-client)"),
]

CROUPIER = Path(sys.executable).parent / "croupier"


def terminal_state(tmux: Tmux) -> str:
    return subprocess.run(["tmux", "-S", tmux.socket, "display", "-p", "-t", tmux.name,
                           "alt=#{alternate_on} mouse=#{mouse_any_flag} cursor=#{cursor_flag}"],
                          capture_output=True, text=True, check=True).stdout.strip()


def player_home(tmp_path: Path) -> Path:
    """A home with one ed25519 key in ~/.ssh (what ``croupier join`` and ``ssh -i`` use)."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / ".ssh" / "id_ed25519")],
                   check=True)
    return home


def start_host(tmux: Tmux, tmp_path: Path) -> tuple[int, int]:
    """``croupier host`` in the foreground of a tmux pane (Ctrl+C reaches it as in a terminal), on a loopback port
    the system picks (tests.room_process says why); its pid and port."""
    pid_file = tmp_path / "host.pid"
    host = f"{CROUPIER} host --listen 127.0.0.1 --port 0 --data {tmp_path / 'data'}"
    tmux.start(f"sh -c 'echo $$ > {pid_file}; exec {host}'; echo HOST-EXIT=$?", tmp_path,
               {"TERM": "xterm-256color"}, width=120, height=30)
    port = opened_port(tmux.wait_for(lambda screen: opened_port(screen) is not None, 60, "the room to open"))
    assert port is not None
    return int(pid_file.read_text()), port


def end_all(tmux: Tmux, tmp_path: Path) -> None:
    """Close the tmux server; never leave a room behind a failed test."""
    tmux.kill()
    pid_file = tmp_path / "host.pid"
    if pid_file.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def descendants(pid: int) -> list[int]:
    found, parents = [], [pid]
    while parents:
        children = children_of(parents.pop())
        found += children
        parents += children
    return found


def join_environment(home: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "VIRTUAL_ENV")
    return {key: os.environ[key] for key in keep if key in os.environ} | {"HOME": str(home), "TERM": "xterm-256color"}


@pytest.mark.parametrize(("stop", "with_join"), [("ctrl-c", False), ("sigterm", True)])
def test_stopping_the_room_restores_the_ssh_terminal_and_ends_croupier_join(tmp_path: Path, stop: str,
                                                                            with_join: bool) -> None:
    # ctrl-c with the ssh player alone: the race that left his terminal in the alternate screen showed most
    # when nothing else slowed the room's closing down
    home = player_home(tmp_path)
    socket = tmp_path / "tmux.sock"
    host, ssh_player, join_player = Tmux(socket, "host"), Tmux(socket, "ssh"), Tmux(socket, "join")
    try:
        host_pid, port = start_host(host, tmp_path)
        ssh = (f"ssh -F /dev/null -tt -p {port} -i {home / '.ssh' / 'id_ed25519'} -o IdentitiesOnly=yes "
               f"-o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile={tmp_path / 'known'} "
               "-o IdentityAgent=none carol@127.0.0.1")
        ssh_player.start(f"{ssh}; echo SSH-EXIT=$?", tmp_path, {"TERM": "xterm-256color"}, width=100, height=30)
        players = [ssh_player]
        if with_join:
            join_player.start(f"{CROUPIER} join dave@127.0.0.1:{port}; echo JOIN-EXIT=$?", tmp_path,
                              join_environment(home), width=100, height=30)
            join_player.wait_for(lambda screen: "[y/N]" in screen, 60, "the host key question", also=host.activity)
            join_player.keys("y", "Enter")
            players.append(join_player)
        for player in players:
            player.wait_for(lambda screen: "Hold'em 1/2 NL" in screen, 60, "the lobby", also=host.activity)
            assert terminal_state(player) == "alt=1 mouse=1 cursor=0"  # the TUI owns the terminal
        # the room at rest: its TUI fork server and ready screens up (the state in which the farewell was lost)
        wait_until(lambda: len(descendants(host_pid)) >= 4, "the fork server and its ready screens",
                   progress=lambda: (descendants(host_pid), cpu_ticks(host_pid)))
        if stop == "ctrl-c":
            host.keys("C-c")
        else:
            os.kill(host_pid, signal.SIGTERM)
        host_screen = host.wait_for(lambda screen: "HOST-EXIT=" in screen, 60, "the host to stop")
        assert "HOST-EXIT=0" in host_screen and "room closed" in host_screen
        assert "Traceback" not in host_screen
        screen = ssh_player.wait_for(lambda shown: "SSH-EXIT=" in shown, 60, "the ssh session to end",
                                       also=host.activity)
        assert "croupier: the room has closed (the host stopped it)." in screen
        assert terminal_state(ssh_player) == "alt=0 mouse=0 cursor=1"
        if not with_join:
            return
        screen = join_player.wait_for(lambda shown: "JOIN-EXIT=" in shown, 60, "croupier join to end",
                                        also=host.activity)
        assert "croupier join: the room has closed (the host stopped it)." in screen
        assert "JOIN-EXIT=0" in screen and "Traceback" not in screen
        assert terminal_state(join_player) == "alt=0 mouse=0 cursor=1"
    finally:
        end_all(host, tmp_path)


def test_ctrl_c_at_the_host_key_question_cancels_at_once_without_a_traceback(tmp_path: Path) -> None:
    home = player_home(tmp_path)
    socket = tmp_path / "tmux.sock"
    host, player = Tmux(socket, "host"), Tmux(socket, "join")
    try:
        _, port = start_host(host, tmp_path)
        player.start(f"{CROUPIER} join dave@127.0.0.1:{port}; echo JOIN-EXIT=$?", tmp_path,
                     join_environment(home), width=100, height=30)
        player.wait_for(lambda screen: "[y/N]" in screen, 60, "the host key question", also=host.activity)
        player.keys("C-c")  # once
        screen = player.wait_for(lambda shown: "JOIN-EXIT=" in shown, 60,
                                 "croupier join to end after one Ctrl+C")
        assert "croupier join: cancelled (Ctrl+C): nothing was saved" in screen
        assert "JOIN-EXIT=1" in screen
        assert "Traceback" not in screen and "KeyboardInterrupt" not in screen
        assert not (home / ".ssh" / "known_hosts").exists()
    finally:
        end_all(host, tmp_path)
