"""``python -m tui.zygote --control PATH``: a fork server for served TUIs (hosting/pty_session.py).

It imports the whole TUI once and runs it once headless (tui/warmup.py: Textual's parsed stylesheets and caches),
then forks one child per plain-ssh session: the child starts at once (no imports, no CSS parsing) and shares the
warm process's memory pages with its siblings (copy-on-write, after ``gc.freeze()``), which keeps the per-player
memory and the time to the first frame low.

Protocol on the control socket (Unix, one request per connection): the room sends one JSON line
``{"socket", "token", "term", "colorterm", "log"}`` with the pty slave fd attached (SCM_RIGHTS); the zygote
answers ``{"pid": N}``. A *ready screen* (started before its player arrives, see hosting/pty_session.py) comes
with ``"token": null`` and a second fd, a socket on which the room later sends the token line. The child makes
the slave its controlling terminal in a new session (``setsid`` + ``TIOCSCTTY``), uses it as
stdin/stdout/stderr, and runs :func:`tui.served.main`. Children are reaped automatically (SIGCHLD ignored); the
room ends a session's child with ``killpg``.
"""

from __future__ import annotations

import signal

if __name__ == "__main__":
    # the host's Ctrl+C reaches its whole process group, this fork server too, even while it still imports the
    # TUI below (a KeyboardInterrupt traceback on the host's terminal): the room stops it itself (SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

import argparse
import fcntl
import gc
import json
import os
import socket
import sys
import termios
from typing import Any

import hosting.client  # noqa: F401  the fairness participant of every session (with asyncssh): imported once
import tui.app
import tui.connection
import tui.served
import tui.warmup
from hosting.parent_watch import die_with_parent

PASSED = ("LANG", "LC_ALL", "LC_CTYPE", "PATH", "HOME")


def _child(slave: int, token_fd: int | None, request: dict[str, Any], listener: socket.socket,
           connection: socket.socket, zygote: int) -> None:
    code = 1
    try:  # whatever happens the child ends here: it must never fall back into the server's loop below
        listener.close()
        connection.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setsid()
        for target in (0, 1, 2):
            os.dup2(slave, target)
        if slave > 2:
            os.close(slave)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        environment = {key: os.environ[key] for key in PASSED if key in os.environ}
        environment["TERM"] = str(request.get("term") or "xterm-256color")
        if request.get("colorterm"):
            environment["COLORTERM"] = str(request["colorterm"])
        os.environ.clear()
        os.environ.update(environment)  # never COLUMNS/LINES: the size comes from the pty
        arguments = [f"--socket={request['socket']}", f"--parent={zygote}"]  # it dies with us (parent_watch)
        if token_fd is not None:  # a ready screen: the token comes later, on this socket
            os.set_inheritable(token_fd, True)
            arguments.append(f"--token-fd={token_fd}")
        else:
            arguments.append(f"--token={request['token']}")
        if request.get("log"):
            arguments.append(f"--log={request['log']}")
        code = tui.served.main(arguments)
    finally:
        os._exit(code)


def serve(control: str, room: int | None = None) -> None:
    """Serve fork requests on ``control`` for the room whose pid is ``room`` (default: our parent)."""
    room = room or os.getppid()
    die_with_parent(room)  # a room killed with -9 takes us (and so our TUIs) with it
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    # the host's Ctrl+C reaches its whole process group: the room stops us itself (SIGTERM), in order (as a
    # program this is ignored from the first line, above)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    zygote = os.getpid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(control)
    os.chmod(control, 0o600)
    listener.listen(64)
    tui.warmup.share_parsed_stylesheets()
    tui.warmup.warm_up()  # before the fork: children inherit a warm Textual (see tui/warmup.py)
    gc.freeze()  # keep the imported objects' pages shared with every child
    print("ready", flush=True)
    listener.settimeout(1.0)
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if os.getppid() != room:
                return  # the room is gone (killed): so are we; its TUIs hang up with their terminals
            continue
        connection.settimeout(10.0)
        try:
            data, fds, _, _ = socket.recv_fds(connection, 65536, 2)
            if not fds:
                continue
            request = json.loads(data.decode())
            token_fd = fds[1] if len(fds) > 1 else None
            pid = os.fork()
            if pid == 0:
                _child(fds[0], token_fd, request, listener, connection, zygote)
            for fd in fds:
                os.close(fd)
            connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        except (OSError, ValueError):
            pass
        finally:
            connection.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="croupier-tui-zygote")
    parser.add_argument("--control", required=True)
    parser.add_argument("--parent", type=int, help="the room's pid: we end when it does (default: our parent)")
    arguments = parser.parse_args(argv)
    serve(arguments.control, arguments.parent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
