"""``croupier join [user@]host[:port]``: the TUI on this machine, talking to a room over the ``croupier`` SSH
subsystem (DESIGN.md "hosting/", way 2).

Keys: those in ``~/.ssh`` and the SSH agent (asyncssh's defaults). The room's host key is checked against
``~/.ssh/known_hosts``; on the first visit its fingerprint is shown and, if you accept, pinned there (as
``[host]:port``). A changed host key is refused. Failures are one line in words, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when used: `croupier --help` stays fast
    from tui.connection import SshConnection

DEFAULT_PORT = 2222
# the key files ssh (and asyncssh) try by default, in ~/.ssh
DEFAULT_KEY_FILES = ("id_ed25519", "id_ecdsa", "id_rsa", "id_ed25519_sk", "id_ecdsa_sk", "id_ed448", "id_dsa")
NO_KEY = ("no SSH key found in ~/.ssh or the SSH agent: create one with `ssh-keygen -t ed25519` "
          "(press Enter at its questions), then join again")
LOCKED_KEY = ("your SSH key in ~/.ssh has a passphrase and no SSH agent holds it: add it with `ssh-add` "
              "(start an agent first if needed: eval \"$(ssh-agent)\"), then join again")


CANCELLED = "cancelled (Ctrl+C): nothing was saved"


class JoinError(Exception):
    """Why joining failed, in words for the player."""


class JoinRefused(JoinError):
    """The room refused the login in its own words (banned, not on its allow-list): trying again cannot help."""


def parse_address(address: str, default_user: str | None = None) -> tuple[str, str, int]:
    """``[user@]host[:port]`` → ``(user, host, port)``; IPv6 as ``[::1]:2222``.

    >>> parse_address("ana@poker.example:2300")
    ('ana', 'poker.example', 2300)
    >>> parse_address("[::1]", "bea")
    ('bea', '::1', 2222)
    """
    user, _, rest = address.rpartition("@")
    user = user or default_user or getpass.getuser()
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port_text = tail.removeprefix(":")
    elif rest.count(":") == 1:
        host, _, port_text = rest.partition(":")
    else:
        host, port_text = rest, ""
    if not host:
        raise JoinError(f"no host in {address!r}: write [user@]host[:port]")
    try:
        port = int(port_text) if port_text else DEFAULT_PORT
    except ValueError:
        raise JoinError(f"the port in {address!r} is not a number") from None
    if not 0 < port < 65536:
        raise JoinError(f"the port {port} is out of range")
    return user, host, port


def known_hosts_file() -> Path:
    """``~/.ssh/known_hosts``, read from ``$HOME`` when asked (not when imported: a test's home is its own)."""
    return Path.home() / ".ssh" / "known_hosts"


def known_hosts_name(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


def pin_host_key(path: Path, host: str, port: int, key: Any) -> None:
    """Append the room's host key to ``known_hosts`` (created with mode 600)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    line = f"{known_hosts_name(host, port)} {key.export_public_key().decode().strip()}\n"
    with open(path, "a", encoding="utf-8") as file:
        file.write(line)
    path.chmod(0o600)


def has_entry(path: Path, host: str, port: int) -> bool:
    """Whether ``known_hosts`` already names this host (so a failed check means the key changed)."""
    if not path.exists():
        return False
    wanted = known_hosts_name(host, port)
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        names = line.split(" ", 1)[0].split(",") if line and not line.startswith("#") else []
        if wanted in names:
            return True
    return False


async def missing_key_hint(ssh_dir: Path, options: dict[str, Any]) -> str | None:
    """After a refused login: :data:`NO_KEY` when there was no key to offer at all, :data:`LOCKED_KEY` when the
    only keys in ``ssh_dir`` need a passphrase and no agent holds one (asyncssh skips such keys), else None.

    Looks at the ``client_keys`` option when it names keys (None means none); else the agent (``agent_path``
    option, else ``$SSH_AUTH_SOCK``), an ``IdentityFile`` in ``ssh_dir/config``, and the default key files in
    ``ssh_dir`` (asyncssh's defaults, also what an empty ``client_keys`` list means to it).
    """
    if "client_keys" in options and options["client_keys"] is None:
        return NO_KEY  # asyncssh's "no keys"; an empty list means its default keys, looked at below
    if options.get("client_keys"):
        return None
    if await _agent_has_keys(options.get("agent_path", os.environ.get("SSH_AUTH_SOCK"))):
        return None
    config = ssh_dir / "config"
    if config.is_file() and "identityfile" in config.read_text(encoding="utf-8", errors="replace").lower():
        return None  # a key named in ~/.ssh/config: the refusal is about something else
    files = [ssh_dir / name for name in DEFAULT_KEY_FILES if (ssh_dir / name).exists()]
    if not files:
        return NO_KEY
    if all(_needs_passphrase(path) for path in files):
        return LOCKED_KEY
    return None


async def _agent_has_keys(agent_path: str | None) -> bool:
    import asyncssh

    if not agent_path:
        return False
    keys: Sequence[Any] = ()
    try:
        agent = await asyncssh.connect_agent(agent_path)
        async with agent:
            keys = await agent.get_keys()
    except (OSError, asyncssh.Error):
        return False
    return bool(keys)


def _needs_passphrase(path: Path) -> bool:
    import asyncssh

    try:
        asyncssh.read_private_key(str(path))
    except asyncssh.KeyImportError as problem:
        return "passphrase" in str(problem).lower()
    except OSError:
        return False
    return False


async def open_connection(user: str, host: str, port: int, known_hosts: Path,
                          confirm: Callable[[str], bool], **options: Any) -> SshConnection:
    """Connect, asking ``confirm(fingerprint text)`` to pin an unknown host key. Raises :class:`JoinError`."""
    import asyncssh

    from hosting.client import LoginRefused
    from tui.connection import SshConnection

    for attempt in range(2):
        try:
            return await SshConnection.open(host, port, user, known_hosts=str(known_hosts) if known_hosts.exists()
                                            else (), **options)
        except asyncssh.HostKeyNotVerifiable:
            if attempt or has_entry(known_hosts, host, port):
                raise JoinError(f"the host key of {host}:{port} does not match the one pinned in {known_hosts}: "
                                "someone may be impersonating the room. Ask the host for the fingerprint.") from None
            key = await asyncssh.get_server_host_key(host, port)
            if key is None:
                raise JoinError(f"{host}:{port} sent no host key") from None
            fingerprint = key.get_fingerprint("sha256")
            if not confirm(f"The room {host}:{port} has host key {fingerprint}.\n"
                           "Compare it with the one the host shared. Trust it and remember it? [y/N] "):
                raise JoinError("host key not accepted") from None
            pin_host_key(known_hosts, host, port, key)
        except LoginRefused as refused:  # the room said why: not a key problem of the player's
            raise JoinRefused(f"the room refused the login as {user!r}: {refused.reason}") from None
        except asyncssh.PermissionDenied as problem:
            hint = await missing_key_hint(known_hosts.parent, options)
            if hint is not None:
                raise JoinError(hint) from None  # a new player with no usable key: say how to get one
            raise JoinError(f"the room refused the login as {user!r}: {problem.reason or 'no key it accepts'} "
                            "(your keys come from ~/.ssh and the SSH agent)") from None
        except asyncssh.Error as problem:
            raise JoinError(f"SSH error with {host}:{port}: {problem.reason}") from None
        except (OSError, TimeoutError) as problem:
            reason = getattr(problem, "strerror", None) or str(problem) or "timed out"
            raise JoinError(f"cannot reach {host}:{port}: {reason}") from None
    raise JoinError("could not connect")  # pragma: no cover - the loop returns or raises


def reconnector(user: str, host: str, port: int, known_hosts: Path | None = None,
                **options: Any) -> Callable[[], Awaitable[SshConnection]]:
    """How the app (re)connects once the host key is pinned: a refused login ends its session in the room's
    words (:class:`tui.session.RoomRefused`); any other failure is retried."""
    from tui.session import RoomRefused

    kept: list[Any] = []  # the host-blind part of the first connection: a hand it is in goes on after a drop

    async def connect() -> SshConnection:
        try:
            connection = await open_connection(user, host, port, known_hosts or known_hosts_file(),
                                               lambda question: False, host_blind=kept[0] if kept else None,
                                               **options)
            kept[:] = [connection.client.host_blind]
            return connection
        except JoinRefused as refused:  # banned meanwhile: the session ends in the room's words, no retrying
            raise RoomRefused(str(refused)) from None
        except JoinError as problem:
            raise ConnectionError(str(problem)) from None

    return connect


def _ask(question: str) -> bool:
    """Ask on the terminal. Ctrl+C cancels at once: asyncio.run's own SIGINT handler (which only cancels the
    main task, so input() carried on waiting and a second Ctrl+C raised a traceback) is set aside meanwhile."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False
    except KeyboardInterrupt:
        print(file=sys.stderr)  # the prompt's line is left open
        raise JoinError(CANCELLED) from None
    finally:
        signal.signal(signal.SIGINT, previous)


def run(arguments: argparse.Namespace) -> int:
    from engine.text import clean_text
    from tui.app import CroupierApp

    try:
        user, host, port = parse_address(arguments.address)
    except JoinError as problem:
        print(f"croupier join: {problem}", file=sys.stderr)
        return 2
    try:
        first = asyncio.run(open_connection(user, host, port, known_hosts_file(), _ask))
    except JoinError as problem:  # may quote the server's disconnect reason: cleaned before the terminal
        print(f"croupier join: {clean_text(str(problem))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C while connecting
        print(f"\ncroupier join: {CANCELLED}", file=sys.stderr)
        return 130
    # the first connection was opened outside the app's loop: the app opens its own (the key is pinned now)
    asyncio.run(first.close())

    connect = reconnector(user, host, port)
    from hosting import datadir

    log_path: Path | None = None
    try:
        log_path = datadir.prepare(datadir.default_data_dir()) / "join.log"
    except OSError:
        log_path = None  # no writable data directory: no log, still no traceback on screen
    from tui import presets
    from tui.notes import FILE_NAME, PlayerNotes

    notes = PlayerNotes(log_path.with_name(FILE_NAME) if log_path is not None else None)  # beside join.log
    sizes = presets.BetPresets(log_path.with_name(presets.FILE_NAME) if log_path is not None else None)
    app = CroupierApp(connect, log_path=log_path, notes=notes, bet_presets=sizes)
    app.run()
    if app.farewell():  # your result at each table, and the night (tui.results)
        print(app.farewell())
    if app.room_closed is not None:  # the room stopped, or the host kicked or banned us: his words, cleaned
        words = app.room_closed
        print(f"croupier join: {words[:1].lower()}{words[1:]}", file=sys.stderr)
    return app.return_code or 0
