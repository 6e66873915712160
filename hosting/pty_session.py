"""Plain ``ssh -p PORT name@host`` players: the TUI as a child process on its own pseudo-terminal (DESIGN.md
"hosting/", way 1).

Two parts:

- :class:`LocalGate` — a Unix socket (mode 600, in a private directory) where served TUIs connect back to the
  room. Each child presents a one-time token (``{"token": "…"}`` as its first line); the gate swaps it for
  the SSH login it was issued for and from then on speaks protocol v1 exactly like the ``croupier``
  subsystem (same :class:`~hosting.protocol.InboundStream` limits, same :meth:`Room.receive`).
- :func:`serve_pty` — one SSH session with a pty: ``os.openpty()``, the child (``python -m tui.served``)
  gets the slave as stdin/stdout/stderr and as its controlling terminal (``setsid`` then ``TIOCSCTTY``);
  bytes are pumped both ways; window changes are forwarded with ``TIOCSWINSZ`` on the master (the kernel
  sends the child SIGWINCH); ``TERM`` and ``COLORTERM`` are passed on, ``COLUMNS``/``LINES`` never are.
  When the session ends the child's process group is terminated (then killed); when the child exits the
  session ends with its exit status.

The SSH server calls, for a session with a pty and no subsystem::

    gate = await LocalGate.start(room, programs=programs)  # once, next to the listener
    await gate.ensure_fork_server()                        # optional: fork TUIs from a warm process
    await serve_pty(process, gate, login)

``programs`` (:class:`TuiPrograms`) names the TUI's modules: the command line hands them in (it is the
composition root; hosting never imports ``tui``, nor names its modules).

A crashed or stuck TUI harms only its player: it is a separate process, killed with its session.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import re
import secrets
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hosting import protocol
from hosting.identity import Login
from hosting.protocol import Limits
from hosting.protocol import farewell_words as farewell_words  # used here; tests import it from here
from hosting.socket_folders import PREFIX as FOLDER_PREFIX
from hosting.socket_folders import remove_stale_folders

if TYPE_CHECKING:
    from asyncssh import SSHServerProcess

    from hosting.room import Room

security_log = logging.getLogger("croupier.security")  # as hosting.room's: abuse reaches host.log
TOKEN_SECONDS = 30.0
"""A token not used within this many seconds is refused (the child connects back at once)."""
READ_CHUNK = 65_536
KILL_GRACE_SECONDS = 2.0
RESULT_SECONDS = 2.0
"""The room closing: how long a served TUI, told so, has to end itself and print the player's result before it
is stopped (within the room's CLOSING_SECONDS for its farewells)."""
EXIT_POLL_SECONDS = 0.1
"""Where the system has no pidfds: how often a served TUI is looked at to see whether it has exited."""
PASSED_ENVIRONMENT = ("LANG", "LC_ALL", "LC_CTYPE", "PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV")


class _StreamTransport:
    """A room :class:`~hosting.room.Transport` writing JSON lines to a local socket."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self.closed: str | None = None
        self.farewell: str | None = None  # the room's ``bye``, in words for the player's terminal

    def send(self, message: Mapping[str, Any]) -> None:
        if message.get("type") == "bye" and self.farewell is None:
            self.farewell = farewell_words(message)
        if self.closed is None and not self._writer.is_closing():
            # a screen stalled by its player (its pty back-pressured) stops reading too: never buffer for ever
            if self._writer.transport.get_write_buffer_size() > protocol.MAX_PENDING_OUTPUT:
                self.close(protocol.TOO_SLOW)
                return
            self._writer.write(protocol.encode(message))

    def close(self, reason: str) -> None:
        if self.closed is None:
            self.closed = reason
            self._writer.close()


@dataclass(frozen=True)
class TuiPrograms:
    """The TUI a room serves to plain-ssh players, as modules run with ``python -m``: ``served`` runs one
    player's TUI in a fresh interpreter, ``fork_server`` forks them from a warm one. The command line passes
    them in (``tui.entry.SERVED_TUI``)."""

    served: str
    fork_server: str


class LocalGate:
    """The Unix socket served TUIs connect back to, with one-time tokens. Build with :meth:`start`."""

    def __init__(self, room: Room, path: Path, limits: Limits | None = None,
                 programs: TuiPrograms | None = None) -> None:
        self.room = room
        self.path = path
        self.limits = limits or Limits()
        self.programs = programs  # the TUI to start for a pty session (None: this gate serves none)
        self._tokens: dict[str, tuple[float, Login]] = {}
        self._transports: dict[str, _StreamTransport] = {}  # by token, while its session runs: its farewell
        self._server: asyncio.AbstractServer | None = None
        self.children: list[int] = []  # pids of the TUIs started for this room (tests check none survives)
        self.fork_server: TuiForkServer | None = None  # set it to fork TUIs instead of starting interpreters
        self.fork_policy: bool | None = False  # True: started; None: start on first use; False: never
        self._private_folder: Path | None = None  # the temporary directory we made (removed on close)
        self._warming: asyncio.Task[None] | None = None
        self.ready_screens = 0  # how many TUIs to keep started ahead of their players (needs the fork server)
        self.log_path: Path | None = None  # where served TUIs log (given to ready screens)
        self._ready: list[ReadyScreen] = []
        self._ready_kind: tuple[str | None, str | None] = ("xterm-256color", None)
        self._refill: asyncio.Task[None] | None = None
        self._quiet_until = 0.0  # monotonic time before which no ready screen is started
        self.closing_reason: str | None = None  # set by :meth:`end_sessions`: what the players are told
        self._end_sessions = asyncio.Event()
        self.stall_seconds = STALL_SECONDS  # a plain-ssh player who reads nothing this long is disconnected
        self.max_screens: int | None = None  # plain-ssh sessions served at once ([room] max_player_screens)
        self._active_sessions = 0  # sessions not yet fully ended (their farewell written, their channel closed)
        self._no_sessions = asyncio.Event()
        self._no_sessions.set()
        self._closing = False

    @classmethod
    async def start(cls, room: Room, directory: Path | None = None, limits: Limits | None = None,
                    programs: TuiPrograms | None = None) -> LocalGate:
        """Listen on ``directory/room.sock`` (default: a fresh private temporary directory)."""
        if directory is None:
            remove_stale_folders()  # the folders of rooms that stopped uncleanly (hosting.socket_folders)
        folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX)) if directory is None else directory
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        gate = cls(room, folder / "room.sock", limits, programs)
        if directory is None:
            gate._private_folder = folder
        with contextlib.suppress(FileNotFoundError):
            gate.path.unlink()
        gate._server = await asyncio.start_unix_server(gate._serve, path=str(gate.path), limit=1 << 20)
        os.chmod(gate.path, 0o600)
        return gate

    def issue(self, login: Login) -> str:
        """A one-time token standing for this SSH login (valid :data:`TOKEN_SECONDS`)."""
        token = secrets.token_urlsafe(24)
        self._tokens[token] = (time.monotonic() + TOKEN_SECONDS, login)
        return token

    def _redeem(self, token: str) -> Login | None:
        entry = self._tokens.pop(token, None)
        now = time.monotonic()
        for stale in [key for key, value in self._tokens.items() if value[0] < now]:
            del self._tokens[stale]
        if entry is None or entry[0] < now:
            return None
        return entry[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            first = await asyncio.wait_for(reader.readline(), TOKEN_SECONDS)
            token = json.loads(first or b"{}").get("token", "")
        except (TimeoutError, ValueError, AttributeError, ConnectionError, asyncio.LimitOverrunError):
            token = ""
        login = self._redeem(str(token)) if isinstance(token, str) else None
        if login is None:
            writer.write(protocol.encode(protocol.bye("unknown or used session token")))
            writer.close()
            return
        transport = _StreamTransport(writer)
        self._transports[str(token)] = transport
        session = self.room.connect(login, transport)
        session.served = True  # its TUI runs here: no host-blind seat for it (its cards would pass through us)
        stream = self.room.inbound_stream(session, self.limits)
        try:
            while not session.ended and transport.closed is None:
                data = await reader.read(READ_CHUNK)
                if not data:
                    break
                self.room.feed(session, stream, data)
        except (ConnectionError, asyncio.CancelledError):
            pass  # the child went away, or the room is shutting down: either way this connection is over
        finally:
            self.room.disconnect(session)
            transport.close("connection ended")

    def farewell(self, token: str) -> str | None:
        """Why the room ended the session of ``token`` (its ``bye``, in words), if it did; forgets the token."""
        transport = self._transports.pop(token, None)
        return transport.farewell if transport is not None else None

    async def ensure_fork_server(self) -> None:
        """Start the TUI fork server next to the socket unless it runs already (idempotent)."""
        if self._warming is None:
            self._warming = asyncio.get_running_loop().create_task(self._start_fork_server())
        await asyncio.shield(self._warming)

    def warm_fork_server(self) -> None:
        """Start the fork server in the background; sessions use it once it is up, fresh TUIs until then."""
        if self._warming is None:
            self._warming = asyncio.get_running_loop().create_task(self._start_fork_server())

    async def _start_fork_server(self) -> None:
        if self.programs is None:
            self.fork_policy = False
            return
        try:
            self.fork_server = await TuiForkServer.start(self.path.parent, self.programs.fork_server)
        except (OSError, RuntimeError, TimeoutError):  # a fresh interpreter per session still works
            self.fork_policy = False

    @property
    def ready_count(self) -> int:
        """Ready screens waiting for a player now (each has drawn its lobby)."""
        return sum(not screen.ended for screen in self._ready)

    def take_ready_screen(self, term: str | None, colorterm: str | None) -> ReadyScreen | None:
        """A ready screen for a terminal of this kind, if one is waiting; then starts refilling the pool.

        The pool follows the kind of terminal players arrive with: after a session of another kind the old
        screens are dropped and new ones are started for the new kind.
        """
        kind = (term or "xterm-256color", colorterm)
        screen = None
        while self._ready:
            candidate = self._ready.pop(0)
            if candidate.kind == kind and not candidate.ended and _running(candidate.pid):
                screen = candidate
                break
            candidate.discard()
        self._ready_kind = kind
        if screen is not None:
            self.children.append(screen.pid)
        self.refill_ready_screens(delay=READY_REFILL_DELAY)
        return screen

    def refill_ready_screens(self, delay: float = 0.0) -> None:
        """Start ready screens in the background up to :attr:`ready_screens`, one at a time, none sooner than
        ``delay`` seconds from now (a burst of arriving players goes first)."""
        if self.ready_screens <= 0 or self._closing:
            return
        self._quiet_until = max(self._quiet_until, time.monotonic() + delay)
        if self._refill is None or self._refill.done():
            self._refill = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        if self.fork_server is None:
            if self.fork_policy is False:
                return  # every TUI is a fresh interpreter: nothing to keep ready
            await self.ensure_fork_server()
        attempts = 2 * self.ready_screens  # screens that die at once are not restarted in a loop
        while (self.fork_server is not None and not self._closing and attempts > 0
               and sum(not screen.ended for screen in self._ready) < self.ready_screens):
            attempts -= 1
            while (wait := self._quiet_until - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            for screen in [screen for screen in self._ready if screen.ended]:
                self._ready.remove(screen)
                screen.discard()
            try:
                screen = await self.fork_server.start_ready_screen(self.path, self._ready_kind, self.log_path)
            except (OSError, ValueError, KeyError, TimeoutError):
                return  # sessions still start (forked at arrival)
            if self._closing:
                screen.discard()
                return
            self._ready.append(screen)

    async def end_sessions(self, reason: str, timeout: float = 5.0) -> None:
        """End every plain-ssh session: each TUI is stopped, the player's terminal restored and ``reason``
        printed on it, then the session closes. Waits up to ``timeout`` seconds for them all."""
        self.closing_reason = reason
        for transport in list(self._transports.values()):  # each TUI hears it: it ends, printing his result
            transport.send(protocol.bye(reason, protocol.ROOM_CLOSED))
            transport.close(reason)
        self._end_sessions.set()
        # a session counts until its player's terminal is restored and its channel closed: returning earlier
        # let the host's loop end with the farewell unsent (the player left in the alternate screen)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._no_sessions.wait(), timeout)

    def session_started(self) -> None:
        self._active_sessions += 1
        self._no_sessions.clear()

    def session_ended(self) -> None:
        self._active_sessions -= 1
        if self._active_sessions <= 0:
            self._no_sessions.set()

    async def close(self) -> None:
        """Stop listening, stop the fork server (if any) and remove the private directory made by start."""
        self._closing = True
        if self._refill is not None:
            self._refill.cancel()
            with contextlib.suppress(BaseException):
                await self._refill
        for screen in self._ready:
            screen.discard()
        if self._ready:
            await stop_tuis([(screen.pid, None) for screen in self._ready])
        self._ready.clear()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):  # connected TUIs end with their ssh sessions
                await asyncio.wait_for(self._server.wait_closed(), 5.0)
        if self._warming is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._warming), 60.0)
        if self.fork_server is not None:
            await self.fork_server.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        if self._private_folder is not None:
            with contextlib.suppress(OSError):
                self._private_folder.rmdir()


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """``TIOCSWINSZ`` on the pty master: the kernel tells the child's foreground group (SIGWINCH)."""
    if columns > 0 and rows > 0:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


TERMINAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}\Z")
"""What a ``TERM`` or ``COLORTERM`` value looks like (``xterm-256color``, ``screen.xterm-256color``, ``truecolor``)."""
DEFAULT_TERM = "xterm-256color"


def terminal_kind(term: object, colorterm: object) -> tuple[str, str | None]:
    """The client's ``TERM`` and ``COLORTERM`` as the TUI gets them: a short name each, else the default (and no
    ``COLORTERM``). They come from the client as any text: a NUL byte in one stopped the TUI from starting (a
    traceback with the host's paths on the player's screen)."""
    kept_term = term if isinstance(term, str) and TERMINAL_NAME.match(term) else DEFAULT_TERM
    kept_color = colorterm if isinstance(colorterm, str) and TERMINAL_NAME.match(colorterm) else None
    return kept_term, kept_color


def child_environment(term: str | None, colorterm: str | None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The child's environment: a few locale/path variables, ``TERM`` and ``COLORTERM``; never COLUMNS/LINES.

    >>> sorted(child_environment("xterm-256color", None, {"COLUMNS": "80", "LINES": "24", "LANG": "C.UTF-8"}))
    ['LANG', 'TERM']
    """
    source = os.environ if base is None else base
    environment = {key: source[key] for key in PASSED_ENVIRONMENT if key in source}
    environment["TERM"] = term or "xterm-256color"
    if colorterm:
        environment["COLORTERM"] = colorterm
    return environment


def _become_terminal_owner() -> None:  # pragma: no cover - runs in the child between fork and exec
    # start_new_session already made the child a session leader; the slave pty (fd 0) becomes its
    # controlling terminal, so job control and SIGWINCH reach the TUI.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def spawn_tui(socket_path: Path, token: str, columns: int, rows: int, term: str | None, colorterm: str | None,
              command: list[str] | None = None, log_path: Path | None = None,
              module: str | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """Start the served TUI (``python -m module``, or ``command`` as it is) on a new pty; returns the child and
    the master fd (the caller closes it). ``ValueError`` when given neither."""
    if command is None and module is None:
        raise ValueError("no TUI to start: the room was given no TUI programs")
    master, slave = os.openpty()
    set_window_size(master, columns, rows)
    # "--token=…" in one word: a token may start with "-", which argparse would take for an option
    arguments = command or [sys.executable, "-m", str(module), f"--socket={socket_path}", f"--token={token}",
                            f"--parent={os.getpid()}"]
    if log_path is not None and command is None:
        arguments.append(f"--log={log_path}")
    try:
        child = subprocess.Popen(arguments, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                 start_new_session=True, preexec_fn=_become_terminal_owner,
                                 env=child_environment(term, colorterm))
    finally:
        os.close(slave)
    os.set_blocking(master, False)
    return child, master


TERMINAL_MODES_OFF = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
                      b"\x1b[<u\x1b[0m\x1b[?25h")
"""Mouse and focus reporting and bracketed paste off, keyboard mode popped, cursor shown: harmless twice."""
ENTER_ALTERNATE_SCREEN = b"\x1b[?1049h"
LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"
"""Back from the alternate screen. Not harmless twice: on the normal screen it still restores the cursor saved
when the alternate screen was entered, so what the TUI printed after leaving it (the player's result) is
written over."""
TERMINAL_RESET = TERMINAL_MODES_OFF + LEAVE_ALTERNATE_SCREEN
"""Written to the player's terminal when a served TUI ends while still on the alternate screen (killed, crashed,
the room closing under it); a TUI that left it itself gets :data:`TERMINAL_MODES_OFF` only
(:class:`AlternateScreenWatch`)."""
READY_SIZE = (80, 24)
"""The size a ready screen is drawn at before its player's terminal is known (then resized to it)."""
READY_OUTPUT_LIMIT = 1 << 20
"""A ready screen that writes more than this before its player arrives is stopped (it is not idle)."""
READY_REDRAW_WAIT = 0.5
"""Seconds a ready screen is given to redraw at its player's size before it gets the token (it connects)."""
READY_REFILL_DELAY = 0.5
"""Seconds after a ready screen is taken before a new one is started: a burst of arrivals goes first."""


class ReadyScreen:
    """A served TUI started before its player arrived: its pty master, its token socket, what it drew so far.

    Started at :data:`READY_SIZE` by :meth:`TuiForkServer.start_ready_screen`; the room keeps reading its
    output (the terminal set-up and the lobby's first frame) into :attr:`output` until a player takes it
    (:meth:`stop_buffering`), then sends that output to the player, resizes the pty to the player's terminal
    (the child redraws) and hands the child its one-time token (:meth:`hand_token`), on which it connects
    back to the room.
    """

    def __init__(self, pid: int, master: int, token_channel: socket.socket,
                 kind: tuple[str | None, str | None]) -> None:
        self.pid = pid
        self.master = master
        self.token_channel = token_channel
        self.kind = kind  # (TERM, COLORTERM): a screen is only given to a terminal of the same kind
        self.output = bytearray()
        self.ended = False
        asyncio.get_running_loop().add_reader(master, self._drain)

    def _drain(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data or len(self.output) + len(data) > READY_OUTPUT_LIMIT:
            self.ended = True
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.output.extend(data)

    def stop_buffering(self) -> bytes:
        """Stop reading the pty here; returns what the child drew so far (to send to the player)."""
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.master)
        self._drain_now()
        return bytes(self.output)

    def hand_token(self, token: str) -> None:
        """Give the child its player's one-time token: it connects back to the room and shows the lobby rows."""
        with contextlib.suppress(OSError):
            self.token_channel.sendall(json.dumps({"token": token}).encode() + b"\n")
        self.token_channel.close()

    def _drain_now(self) -> None:
        while True:
            try:
                data = os.read(self.master, READ_CHUNK)
            except OSError:  # BlockingIOError: nothing more for now
                return
            if not data:
                return
            self.output.extend(data)

    def discard(self) -> None:
        """End the child (its process group, killed if it lingers) and close the room's ends; never blocks."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(self.master)
        self.token_channel.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGTERM)
        with contextlib.suppress(OSError):
            os.close(self.master)  # the child's terminal hangs up too
        loop.call_later(KILL_GRACE_SECONDS, _kill_group, self.pid)


def _kill_group(pid: int) -> None:
    if _running(pid):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


class TuiForkServer:
    """The room's handle on the TUI fork server (``tui.zygote``): TUIs forked from a process that imported them once.

    Start it once with the room (:meth:`start`), give it to :class:`LocalGate` (``gate.fork_server``), and
    :func:`serve_pty` forks each session's TUI from it instead of starting a fresh interpreter.
    """

    def __init__(self, process: asyncio.subprocess.Process, control: Path) -> None:
        self.process = process
        self.control = control

    @classmethod
    async def start(cls, directory: Path, module: str, timeout: float = 60.0) -> TuiForkServer:
        """Run ``python -m module`` (:attr:`TuiPrograms.fork_server`) and wait until it says ``ready``."""
        control = directory / "zygote.sock"
        with contextlib.suppress(FileNotFoundError):
            control.unlink()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module, f"--control={control}", f"--parent={os.getpid()}",
            stdout=asyncio.subprocess.PIPE,
            stdin=asyncio.subprocess.DEVNULL, env=child_environment(os.environ.get("TERM"), None))
        assert process.stdout is not None
        ready = await asyncio.wait_for(process.stdout.readline(), timeout)
        if ready.strip() != b"ready":
            raise RuntimeError("the TUI fork server did not start")
        return cls(process, control)

    async def spawn(self, slave: int, socket_path: Path, token: str, term: str | None, colorterm: str | None,
                    log_path: Path | None) -> int:
        """Fork a TUI on ``slave`` (the pty's slave fd); returns its pid (its own session and process group)."""
        request = {"socket": str(socket_path), "token": token, "term": term, "colorterm": colorterm,
                   "log": str(log_path) if log_path else None}
        return await self._ask(request, [slave])

    async def _ask(self, request: dict[str, Any], fds: list[int]) -> int:
        loop = asyncio.get_running_loop()
        data = json.dumps(request).encode()

        def ask() -> int:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
                channel.settimeout(10)
                channel.connect(str(self.control))
                socket.send_fds(channel, [data], fds)
                reply = channel.makefile("rb").readline()
            return int(json.loads(reply)["pid"])

        return await loop.run_in_executor(None, ask)

    async def start_ready_screen(self, socket_path: Path, kind: tuple[str | None, str | None],
                                 log_path: Path | None) -> ReadyScreen:
        """Fork a TUI that draws the lobby now and gets its player's token later (:class:`ReadyScreen`)."""
        master, slave = os.openpty()
        set_window_size(master, *READY_SIZE)
        room_end, child_end = socket.socketpair()
        try:
            pid = await self._ask({"socket": str(socket_path), "token": None, "term": kind[0],
                                   "colorterm": kind[1], "log": str(log_path) if log_path else None},
                                  [slave, child_end.fileno()])
        except BaseException:
            for fd in (master,):
                os.close(fd)
            room_end.close()
            raise
        finally:
            os.close(slave)
            child_end.close()
        os.set_blocking(master, False)
        return ReadyScreen(pid, master, room_end, kind)

    async def close(self) -> None:
        if self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 5)
        with contextlib.suppress(FileNotFoundError):
            self.control.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process reused the pid
        return False
    try:  # our own child (no fork server): reap it if it has exited
        finished, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return finished == 0


def _alive(pid: int, child: subprocess.Popen[bytes] | None) -> bool:
    """Whether a TUI still runs: a fresh one is our child (polled: its status is kept, it is reaped), a forked one
    the fork server's."""
    return child.poll() is None if child is not None else _running(pid)


async def exited(pid: int, child: subprocess.Popen[bytes] | None = None) -> None:
    """Until the TUI ``pid`` (``child`` when we started it) has exited, holding no thread.

    A thread blocked in ``child.wait()`` per session filled the loop's default executor (``cpu_count + 4``
    threads: 6 on a 2-core host), and what a session ending needs (stopping its TUI) waited behind them for ever;
    a loop closing (the host's stop, a test's teardown) waited on those threads for ever too. A pidfd is readable
    when the process ends; where there is none (not Linux), this polls.
    """
    if not _alive(pid, child):  # first: a pid reaped already may be another process's by now
        return
    loop = asyncio.get_running_loop()
    try:
        descriptor = os.pidfd_open(pid)
    except (AttributeError, OSError):  # no pidfds here, or the process is gone already
        while _alive(pid, child):
            await asyncio.sleep(EXIT_POLL_SECONDS)
        return
    try:
        ended: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not ended.done():
                ended.set_result(None)

        loop.add_reader(descriptor, readable)
        try:
            await ended
        finally:
            loop.remove_reader(descriptor)
    finally:
        os.close(descriptor)
    _alive(pid, child)  # reaps our child: its exit status is kept


async def stop_tui(pid: int, child: subprocess.Popen[bytes] | None = None) -> None:
    """End a served TUI and its process group: SIGTERM now, SIGKILL after :data:`KILL_GRACE_SECONDS` if it
    lingers, and at once if this wait is cancelled (the room stopping, its loop closing).

    The signals are sent from the loop, never from an executor job: a job cancelled before a thread took it
    never ran, and the TUI it was to stop lived on (with a thread waiting on it, which hung the loop's close).
    """
    await stop_tuis([(pid, child)])


async def stop_tuis(tuis: list[tuple[int, subprocess.Popen[bytes] | None]]) -> None:
    """:func:`stop_tui` for several TUIs at once (one grace period for them all)."""
    tuis = [(pid, child) for pid, child in tuis if _alive(pid, child)]
    for pid, _ in tuis:
        _signal_group(pid, signal.SIGTERM)
    try:
        await _all_exited(tuis)
    finally:
        lingering = [(pid, child) for pid, child in tuis if _alive(pid, child)]
        for pid, _ in lingering:
            _signal_group(pid, signal.SIGKILL)
    await _all_exited(lingering)  # killed: gone at once (our children reaped, their status kept)


async def _all_exited(tuis: list[tuple[int, subprocess.Popen[bytes] | None]]) -> None:
    """Until these TUIs have exited, or :data:`KILL_GRACE_SECONDS` have passed."""
    if tuis:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(exited(pid, child) for pid, child in tuis)), KILL_GRACE_SECONDS)


def _signal_group(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, number)



MAX_TERMINAL_SIZE = (500, 200)
"""Columns and rows a player's terminal is taken to have at most: a claimed 4000x2000 window would make the TUI
draw 8 million cells per frame (memory and output without end)."""
RESIZE_INTERVAL = 0.25
"""Seconds between two window sizes passed on to the TUI; sizes in between are skipped (the last one always
arrives): a client resizing in a loop makes the TUI redraw four times a second at most."""
OUTPUT_HIGH_WATER = 256 * 1024
"""Bytes of the TUI's output waiting for the player beyond which the room stops reading the TUI's pty (the
TUI then waits on its own writes): the session's memory in the room stays below this plus one read."""
STALL_SECONDS = 60.0
"""A player whose terminal takes none of the waiting output for this long is disconnected."""


class AlternateScreenWatch:
    r"""Whether the TUI's terminal is on the alternate screen, from the bytes it wrote (a switch may be split
    between two reads). Unknown (nothing seen) counts as on: the reset is then sent whole.

    >>> watch = AlternateScreenWatch()
    >>> watch.on
    True
    >>> watch.feed(b"lobby\x1b[?10"); watch.feed(b"49lYour result: up 5\r\n"); watch.on
    False
    >>> watch.feed(b"\x1b[?1049h"); watch.on
    True
    """

    def __init__(self) -> None:
        self.on = True
        self._tail = b""

    def feed(self, data: bytes) -> None:
        seen = self._tail + data
        entered, left = seen.rfind(ENTER_ALTERNATE_SCREEN), seen.rfind(LEAVE_ALTERNATE_SCREEN)
        if entered != left:  # both -1 when neither is there
            self.on = entered > left
        self._tail = seen[-(len(LEAVE_ALTERNATE_SCREEN) - 1):]

    @property
    def reset(self) -> bytes:
        """What gives the player's terminal back now, and leaves what the TUI printed last where it is."""
        return TERMINAL_RESET if self.on else TERMINAL_MODES_OFF


def clamped(columns: int, rows: int) -> tuple[int, int]:
    """The window size given to the TUI: 80x24 when unknown (0), never above :data:`MAX_TERMINAL_SIZE`.

    >>> clamped(4000, 2000), clamped(0, 0), clamped(120, 40)
    ((500, 200), (80, 24), (120, 40))
    """
    return min(columns or 80, MAX_TERMINAL_SIZE[0]), min(rows or 24, MAX_TERMINAL_SIZE[1])


class PtyPump:
    """Bytes both ways between a TUI's pty master and one SSH session, with flow control.

    Output is back-pressured: past :data:`OUTPUT_HIGH_WATER` bytes waiting for the player, the pty is not
    read until the channel drains; a player who drains nothing for ``stall_seconds`` ends the session
    (:attr:`stalled`). Window changes are clamped (:func:`clamped`) and passed on at most every
    :data:`RESIZE_INTERVAL` seconds. :attr:`finished` is set when either side ends.
    """

    def __init__(self, process: SSHServerProcess[bytes], master: int, stall_seconds: float = STALL_SECONDS) -> None:
        self.process = process
        self.master = master
        self.stall_seconds = stall_seconds
        self.finished = asyncio.Event()
        self.drawn = asyncio.Event()  # the TUI wrote something
        self.stalled = False
        self.screen = AlternateScreenWatch()  # what the TUI left the terminal on
        self._loop = asyncio.get_running_loop()
        self._typing: asyncio.Task[None] | None = None
        self._waiting: asyncio.Task[None] | None = None  # for the player to take the output (back-pressure)
        self._wanted_size: tuple[int, int] | None = None
        self._resize: asyncio.TimerHandle | None = None
        self._last_resize = 0.0

    def start(self) -> None:
        self._loop.add_reader(self.master, self._from_child)
        self._typing = self._loop.create_task(self._to_child())

    def stop(self) -> None:
        for task in (self._typing, self._waiting):
            if task is not None:
                task.cancel()
        if self._resize is not None:
            self._resize.cancel()
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.master)

    def _from_child(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child closed its side of the pty
            data = b""
        if not data:
            self._loop.remove_reader(self.master)
            self.finished.set()
            return
        self.drawn.set()
        self.screen.feed(data)
        self.process.stdout.write(data)
        if self.process.channel.get_write_buffer_size() > OUTPUT_HIGH_WATER:
            self._loop.remove_reader(self.master)  # the TUI waits until the player has taken some
            self._waiting = self._loop.create_task(self._wait_for_player())

    async def _wait_for_player(self) -> None:
        try:
            await asyncio.wait_for(self.process.stdout.drain(), self.stall_seconds)
        except TimeoutError:
            self.stalled = True
            self.finished.set()
            return
        except Exception:  # the channel closed meanwhile: the session is over
            self.finished.set()
            return
        if not self.finished.is_set():
            self._loop.add_reader(self.master, self._from_child)

    async def _to_child(self) -> None:
        import asyncssh

        while True:
            try:
                data = await self.process.stdin.read(READ_CHUNK)
            except asyncssh.TerminalSizeChanged as change:
                self._size_wanted(change.width, change.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, ConnectionError):
                break
            if not data:
                break
            with contextlib.suppress(BlockingIOError):
                os.write(self.master, data)
        self.finished.set()

    def _size_wanted(self, columns: int, rows: int) -> None:
        self._wanted_size = clamped(columns, rows)
        if self._resize is None:
            delay = max(0.0, self._last_resize + RESIZE_INTERVAL - self._loop.time())
            self._resize = self._loop.call_later(delay, self._apply_size)

    def _apply_size(self) -> None:
        self._resize = None
        self._last_resize = self._loop.time()
        if self._wanted_size is not None:
            with contextlib.suppress(OSError):
                set_window_size(self.master, *self._wanted_size)


SCREENS_FULL = ("croupier: the room is serving as many terminal screens as it can ({limit}): try again later, "
                "or play from your own machine with `croupier join` (it needs none).\r\n")


async def serve_pty(process: SSHServerProcess[bytes], gate: LocalGate, login: Login, *,
                    command: list[str] | None = None, log_path: Path | None = None) -> int:
    """Run the TUI for one ``ssh`` session with a pty (an ``asyncssh.SSHServerProcess`` opened with
    ``encoding=None``); returns the child's exit status, which also ends the session.

    Past :attr:`LocalGate.max_screens` sessions at once (each is a TUI process on the host) the session gets
    one line saying so (:data:`SCREENS_FULL`) and exit status 1, and no process is started."""
    if gate.max_screens is not None and gate._active_sessions >= gate.max_screens:
        security_log.warning("refused a plain-ssh screen to %s: %d screens running (max_player_screens)",
                             login.describe(), gate._active_sessions)
        with contextlib.suppress(Exception):
            process.stdout.write(SCREENS_FULL.format(limit=gate.max_screens).encode())
            process.exit(1)
        return 1
    gate.session_started()  # before the first await: two arrivals cannot both take the last screen
    try:
        return await _serve_pty(process, gate, login, command, log_path)
    finally:
        gate.session_ended()


async def _serve_pty(process: SSHServerProcess[bytes], gate: LocalGate, login: Login, command: list[str] | None,
                     log_path: Path | None) -> int:
    columns, rows, _, _ = process.term_size
    term, colorterm = terminal_kind(process.term_type, (process.env or {}).get("COLORTERM"))
    token = gate.issue(login)
    child: subprocess.Popen[bytes] | None = None
    ready = gate.take_ready_screen(term, colorterm) if command is None else None
    if ready is not None:
        master, pid = ready.master, ready.pid
        process.stdout.write(ready.stop_buffering())  # the terminal set-up and the lobby drawn at READY_SIZE
        set_window_size(master, *clamped(columns, rows))  # a different size: the child redraws at once
    elif gate.fork_server is not None and command is None:
        master, slave = os.openpty()
        set_window_size(master, *clamped(columns, rows))
        try:
            pid = await gate.fork_server.spawn(slave, gate.path, token, term, colorterm, log_path)
        finally:
            os.close(slave)
        os.set_blocking(master, False)
    else:
        child, master = spawn_tui(gate.path, token, *clamped(columns, rows), term, colorterm,
                                  command, log_path, gate.programs.served if gate.programs else None)
        pid = child.pid
    if ready is None:
        gate.children.append(pid)
    loop = asyncio.get_running_loop()
    pump = PtyPump(process, master, gate.stall_seconds)
    finished, drawn = pump.finished, pump.drawn
    pump.start()
    watchers: list[asyncio.Future[Any]] = []
    try:
        if ready is not None:
            if clamped(columns, rows) != READY_SIZE:
                # the redraw at the player's size first, then the connection: with many players arriving at
                # once every screen is right before any of them spends time on its lobby rows
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(drawn.wait(), READY_REDRAW_WAIT)
            ready.hand_token(token)
        tui_ended = loop.create_task(finished.wait())  # its output read to the end
        watchers += [tui_ended, loop.create_task(gate._end_sessions.wait())]
        watchers.append(loop.create_task(exited(pid, child)))  # a child that exits, its pty held by another
        await asyncio.wait(watchers, return_when=asyncio.FIRST_COMPLETED)
        if gate.closing_reason is not None and not finished.is_set():
            # the room is closing and told the TUI (end_sessions): it ends itself and prints the player's result
            # below its screen; what it writes until then is pumped to him, then the room's reason follows it
            await asyncio.wait([tui_ended], timeout=RESULT_SECONDS)
    finally:
        for watcher in watchers:
            watcher.cancel()
        pump.stop()
        farewell = gate.farewell(token)
        if gate.closing_reason is not None:  # the room is closing: the player is told first, at once
            _farewell(process, gate.closing_reason, pump.screen)
        try:
            await stop_tui(pid, child)  # killed at once if this is cancelled (the room stopping)
        finally:
            with contextlib.suppress(OSError):
                os.close(master)
    status = _exit_status(child)
    if pump.stalled:  # the player reads nothing: drop the whole connection (its buffers with it)
        security_log.warning("dropped the plain-ssh session of %s: its terminal read nothing for %.0f s",
                             login.describe(), gate.stall_seconds)
        with contextlib.suppress(Exception):
            process.get_extra_info("connection").abort()
        return status
    if gate.closing_reason is None:
        _farewell(process, farewell, pump.screen)  # a ban or a kick: the host's reason stays on his terminal
    with contextlib.suppress(Exception):
        process.exit(status)
        await asyncio.wait_for(process.wait_closed(), KILL_GRACE_SECONDS)  # the bytes reach the player
    return status


def _farewell(process: SSHServerProcess[bytes], reason: str | None, screen: AlternateScreenWatch) -> None:
    """Give the player's terminal back and say why the session ended, if we know. Back from the alternate screen
    only if the TUI is still on it: a TUI that ended itself has left it and printed the player's result below,
    which a second switch would write over (:data:`LEAVE_ALTERNATE_SCREEN`)."""
    with contextlib.suppress(Exception):
        process.stdout.write(screen.reset + (f"croupier: {reason}\r\n".encode() if reason else b""))
        screen.feed(LEAVE_ALTERNATE_SCREEN)  # told once: the room closing, then the TUI ending, say it once


def _exit_status(child: subprocess.Popen[bytes] | None) -> int:
    """A fresh TUI's exit status (1 if killed by a signal); a forked TUI's belongs to the fork server: 0."""
    if child is None or child.returncode is None:
        return 0
    return child.returncode if child.returncode >= 0 else 1
