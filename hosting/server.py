"""The room's SSH server (asyncssh): public-key logins, and the ``croupier`` subsystem speaking protocol v1.

Three small parts, as in asyncssh's own examples: :class:`LoginServer` decides who gets in (one instance per
TCP connection), :func:`serve_subsystem` runs one channel (bytes in → :class:`~hosting.protocol.InboundStream`
→ :class:`~hosting.room.Room`; room messages → JSON lines out), and :func:`start_room` wires a room, its data
directory and the listener together. Everything about the room's rules lives in ``hosting.room``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from hosting import datadir, protocol
from hosting.admin import ADMIN
from hosting.admin_requests import parse_request
from hosting.admin_socket import AdminSocket
from hosting.budgets import BudgetBook
from hosting.cash import CashTables
from hosting.config import RoomConfig
from hosting.host_blind_runner import STEP_SECONDS, runner_for
from hosting.identity import Gatekeeper, Login, address_group, own_machine_hint
from hosting.protocol import MAX_PENDING_OUTPUT, SUBSYSTEM, Limits, TokenBucket
from hosting.pty_session import LocalGate, TuiPrograms, serve_pty
from hosting.room import Room, log, security_log
from hosting.store import Store, StoreAccounts, table_settings
from hosting.table_runner import RunnerSettings

READ_CHUNK = 65_536
NO_TERMINAL_MESSAGE = (
    b"croupier: this room needs a terminal: connect with `ssh -t -p PORT name@host` (no command), "
    b"or use `croupier join` / `ssh -s ... croupier`.\r\n"
)
"""What a session with neither a pty nor the ``croupier`` subsystem gets (one line on stderr, exit status 1)."""
DROP_REPORT_SECONDS = 10.0
"""Pending connections dropped are reported in ``host.log`` at most this often (a flood would fill it)."""
ROOM_CLOSED_TEXT = "the room has closed (the host stopped it)."
"""What every player is told when the host stops the room (plain ssh: on the terminal; clients: in ``bye``)."""
CLOSING_SECONDS = 5.0
"""How long the room waits, when it stops, for its players' farewells to be delivered."""
MAX_CHANNELS_PER_LOGIN = 3
"""Sessions (channels) one SSH login may have open at once: ``croupier join`` and the TUI open one, a shared
OpenSSH connection (ControlMaster) a few. Each channel is a room session, and a pty one a TUI process."""
CHANNEL_OPENS_BURST = 8
CHANNEL_OPENS_PER_SECOND = 0.2
"""Sessions (channels) one SSH login may open: a burst of 8, then one every 5 s. A client opens one (a
reconnect is a new login); a loop of opening and closing them was a loop of new room sessions (issue 25 item 3)."""
OPENS_REFUSED_BEFORE_DISCONNECT = 5
"""Sessions refused for opening too often before the login itself is closed (each refusal costs the host too)."""
SCREENS_AT_THE_GATE_PER_ADDRESS = 3
"""Player screens (TUI processes) one address group may hold for logins whose key holds no name yet (still
at the password prompt): a stranger without the password cannot take every screen of the room."""
SCREENS_AT_THE_GATE_MESSAGE = (
    f"croupier: {SCREENS_AT_THE_GATE_PER_ADDRESS} screens from your address are still waiting for the room's "
    f"password or invite: finish one first.\r\n").encode()
CHANNELS_TOO_OFTEN_MESSAGE = (
    b"croupier: sessions opened too often on this connection: wait a few seconds, or connect again.\r\n")
TOO_MANY_CHANNELS_MESSAGE = (
    f"croupier: at most {MAX_CHANNELS_PER_LOGIN} sessions at once on one connection: close one, or connect "
    f"again.\r\n").encode()


MAX_ENVIRONMENT_VARIABLES = 16
MAX_ENVIRONMENT_BYTES = 256
"""Environment variables a session (channel) keeps from its client's ``env`` requests, and the bytes of each (name
and value): the room reads only ``COLORTERM``. asyncssh kept every one: a stranger without the room's password,
in the 120 s before his login is closed, made the room hold 30 MB per channel (1,000 of 30 KB), 3 channels a
login and 64 logins an address."""


def bound_environment(channel: Any) -> None:
    """Make ``channel`` (an ``asyncssh.SSHServerChannel``) refuse ``env`` requests past
    :data:`MAX_ENVIRONMENT_VARIABLES` or :data:`MAX_ENVIRONMENT_BYTES` instead of keeping them."""
    kept: dict[bytes, bytes] = channel._env  # asyncssh's store, read by its get_environment()

    def process_env_request(packet: Any) -> bool:
        name, value = packet.get_string(), packet.get_string()
        packet.check_end()
        if len(name) + len(value) > MAX_ENVIRONMENT_BYTES or (
                name not in kept and len(kept) >= MAX_ENVIRONMENT_VARIABLES):
            return False  # refused: the client is told, nothing is kept
        kept[name] = value
        return True

    channel._process_env_request = process_env_request  # asyncssh looks its request handlers up on the channel


LOGIN_BANNER = (
    "Players of this croupier room log in with an SSH key: the first key used with a name registers it.\r\n"
    "No key yet (ssh says \"Permission denied (publickey)\")? Make one with `ssh-keygen -t ed25519`, then "
    "connect again.\r\n"
)
"""The SSH auth banner every login gets before it authenticates (OpenSSH prints it on the terminal). It must
not start with ``croupier:``, the prefix of the room's one-line refusals."""


class LoginServer(asyncssh.SSHServer):
    """Public-key authentication only. The first key for a name registers it; another key is refused.

    Until it has logged in, the connection is one of the gatekeeper's bounded :class:`PendingLogins`; a login
    that succeeds spends one of its address's ``connections_per_minute``.
    """

    def __init__(self, gatekeeper: Gatekeeper, clock: Callable[[], float],
                 holds_name: Callable[[Login], bool] = lambda login: True) -> None:
        self._gatekeeper = gatekeeper
        self._clock = clock
        self._holds_name = holds_name
        self._connection: asyncssh.SSHServerConnection | None = None
        self._refusal: str | None = None
        self._candidate: str | None = None
        self._gate_deadline: asyncio.TimerHandle | None = None
        self.address = "unknown"
        self.login: Login | None = None
        self.channels = 0
        """Sessions open on this login now (at most :data:`MAX_CHANNELS_PER_LOGIN`)."""
        self.channel_opens = TokenBucket(CHANNEL_OPENS_BURST, CHANNEL_OPENS_PER_SECOND, clock())
        """Sessions this login may still open (:data:`CHANNEL_OPENS_BURST`)."""
        self.opens_refused = 0
        self.refused_channels = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "unknown"
        now = self._clock()
        gatekeeper = self._gatekeeper
        if gatekeeper.drop_early(self.address, now):  # told a moment ago: no key exchange, no banner, no log line
            gatekeeper.dropped_early += 1
            if now - gatekeeper.dropped_reported_at >= DROP_REPORT_SECONDS:
                security_log.warning("dropped %d connections before their key exchange from addresses told they "
                                     "have no login left (the latest from %s)", gatekeeper.dropped_early,
                                     self.address)
                gatekeeper.dropped_early, gatekeeper.dropped_reported_at = 0, now
            asyncio.get_running_loop().call_soon(conn.abort)  # after asyncssh's own connection_made
            return
        create_channel = conn.create_server_channel

        def create_bounded_channel(*arguments: Any, **options: Any) -> asyncssh.SSHServerChannel[Any]:
            channel = create_channel(*arguments, **options)
            bound_environment(channel)
            return channel

        conn.create_server_channel = create_bounded_channel  # type: ignore[method-assign]  # this login only
        pending = self._gatekeeper.pending
        dropped = pending.add(self, self.address)
        for other in dropped:
            other.drop()
        pending.dropped += len(dropped)
        if pending.dropped and now - pending.reported_at >= DROP_REPORT_SECONDS:  # one line per burst, not each
            security_log.warning("too many connections not logged in (%d held, %d from %s, the latest): dropped "
                                 "%d older ones since the last report", len(pending), pending.count(self.address),
                                 self.address, pending.dropped)
            pending.dropped, pending.reported_at = 0, now

    def disconnect(self, reason: str) -> None:
        """Close this logged-in connection (it kept opening sessions after being refused)."""
        if self._connection is not None:
            security_log.warning("disconnected a login: %s: %s", self.login.describe() if self.login else
                                 self.address, reason)
            self._connection.disconnect(asyncssh.DISC_BY_APPLICATION, f"croupier: {reason}")

    def drop(self) -> None:
        """Close a connection still logging in (the room holds too many)."""
        if self._connection is not None:
            self._connection.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gatekeeper.pending.remove(self)
        if self.login is not None:
            self._gatekeeper.logged_out(self.address)
        if self._gate_deadline is not None:
            self._gate_deadline.cancel()

    def _refuse(self, reason: str) -> None:
        if self._connection is not None:
            self._connection.send_auth_banner(f"croupier: {reason}\r\n")

    def begin_auth(self, username: str) -> bool:
        self._gatekeeper.pending.authenticating(self)
        now = self._clock()
        if not self._gatekeeper.login_allowed(self.address, now):
            self._refusal = ("too many logins from your address: wait a minute and try again"
                             + own_machine_hint(self.address))
            self._gatekeeper.told_refused(self.address, now)
        elif self._gatekeeper.logins_full(self.address):
            self._refusal = ("too many connections from your address at once: close one and try again"
                             + own_machine_hint(self.address))
            self._gatekeeper.told_refused(self.address, now)
        if self._refusal is None:
            self._refusal = self._gatekeeper.name_allowed(username)
        if self._refusal is not None:
            security_log.warning("refused a login: name %r from %s: %s", username[:30], self.address, self._refusal)
            self._refuse(self._refusal)
        elif self._connection is not None:  # before any method: a client without a key sees it too
            self._connection.send_auth_banner(LOGIN_BANNER)
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # asyncssh calls this for each key offered and checks the signature after we accept; the last key
        # accepted before auth_completed is therefore the one the client proved it holds.
        if self._refusal is not None:
            return False
        public_key = key.export_public_key().decode().strip()
        decision = self._gatekeeper.check_key(username, public_key)
        if not decision.allowed:
            security_log.warning("refused a key: %s: %s", Login(username, public_key, self.address).describe(),
                                 decision.reason)
            self._refuse(decision.reason)
            return False
        now = self._clock()
        refusal = self._gatekeeper.registration_refusal(decision, self.address, None, now)
        if refusal is not None:  # before any gate: a refused new name costs no store read, channel or screen
            registrations = self._gatekeeper.registrations
            registrations.refused += 1
            if now - registrations.reported_at >= DROP_REPORT_SECONDS:  # one line per burst, not each
                security_log.warning("refused a new name (%d since the last report): %s: %s", registrations.refused,
                                     Login(username, public_key, self.address).describe(), refusal)
                registrations.refused, registrations.reported_at = 0, now
            self._refuse(refusal)
            return False
        self._candidate = public_key
        return True

    def auth_completed(self) -> None:
        assert self._connection is not None and self._candidate is not None
        username = str(self._connection.get_extra_info("username"))
        self.login = Login(username, self._candidate, self.address)
        self._gatekeeper.pending.remove(self)
        self._gatekeeper.count_login(self.address, self._clock())
        self._gate_deadline = asyncio.get_running_loop().call_later(self._gatekeeper.access.gate_seconds,
                                                                   self._check_gates_passed)

    def _check_gates_passed(self) -> None:
        """``gate_seconds`` after the login: a login whose key holds no name in the room by now (it never passed
        the password or invite, or its name went to another key) is closed. Kept open, it would hold a
        descriptor, channels and player screens without knowing the password (issue 13 items 1 and 7)."""
        if self.login is None or self._connection is None or self._holds_name(self.login):
            return
        seconds = self._gatekeeper.access.gate_seconds
        security_log.warning("closed a login that held no name %.0f s after logging in: %s", seconds,
                             self.login.describe())
        self._connection.disconnect(asyncssh.DISC_BY_APPLICATION,
                                    f"croupier: the room's gates were not passed within {seconds:.0f} s")


class ChannelTransport:
    """A room :class:`~hosting.room.Transport` writing JSON lines to one SSH channel.

    Messages produced in one turn of the event loop go out together in one write (one SSH packet rather than
    one per message: encryption per packet is the server's main cost under load).
    """

    def __init__(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self._process = process
        self._pending: list[bytes] = []
        self.closed: str | None = None

    def send(self, message: Mapping[str, Any]) -> None:
        if self.closed is not None:
            return
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        self._pending.append(protocol.encode(message))

    def _flush(self) -> None:
        if self.closed is not None or not self._pending:
            return
        data, self._pending = b"".join(self._pending), []
        if self._process.channel.get_write_buffer_size() > MAX_PENDING_OUTPUT:
            log.info("kicked: %s: %s", self._process.get_extra_info("username"), protocol.TOO_SLOW)
            self.close(protocol.TOO_SLOW)
            return
        try:
            self._process.stdout.write(data)
        except (BrokenPipeError, ConnectionError, asyncssh.Error):
            self.closed = "connection lost"

    def close(self, reason: str) -> None:
        if self.closed is None:
            self._flush()
            self.closed = reason
            self._process.exit(0)

    async def wait_closed(self, timeout: float) -> None:
        """Until the client has the last bytes and the channel is closed (at most ``timeout`` seconds)."""
        with contextlib.suppress(TimeoutError, asyncssh.Error, ConnectionError):
            await asyncio.wait_for(self._process.wait_closed(), timeout)


async def serve_subsystem(room: Room, process: asyncssh.SSHServerProcess[bytes], limits: Limits,
                          channels: set[ChannelTransport] | None = None) -> None:
    """Run one channel: greet, then read lines until EOF, the abuse budget runs out, or the room closes it."""
    server = process.get_extra_info("connection").get_owner()
    if process.subsystem != SUBSYSTEM or not isinstance(server, LoginServer) or server.login is None:
        process.stderr.write(NO_TERMINAL_MESSAGE)
        process.exit(1)
        return
    transport = ChannelTransport(process)
    if channels is not None:  # the room tells it when it closes (RunningRoom.close)
        channels.add(transport)
    session = room.connect(server.login, transport)
    stream = room.inbound_stream(session, limits)
    try:
        while not session.ended and transport.closed is None:
            data = await process.stdin.read(READ_CHUNK)
            if not data:
                break
            room.feed(session, stream, data)
    except (asyncssh.Error, ConnectionError, asyncssh.BreakReceived, asyncssh.SignalReceived):
        pass
    finally:
        if channels is not None:
            channels.discard(transport)
        room.disconnect(session)
        transport.close("connection ended")


@dataclass
class RunningRoom:
    """A started room: its state, listener, host key and the line to share."""

    room: Room
    acceptor: asyncssh.SSHAcceptor
    host_key: asyncssh.SSHKey
    data_dir: Path
    gate: LocalGate | None = None
    """Where served TUIs (plain ``ssh`` with a pty) connect back; ``None`` when the room serves no TUI."""
    channels: set[ChannelTransport] = field(default_factory=set)
    """The open ``croupier`` subsystem channels (``croupier join``, bots): told when the room closes."""
    session_ended: bool = False
    admin: AdminSocket | None = None
    """``croupier admin``'s way in (hosting.admin_socket); ``None`` if it could not listen (host.log says why)."""

    @property
    def port(self) -> int:
        # get_port() is 0 only if no one port was free for every address (listen_on_one_port)
        return int(self.acceptor.get_port() or self.acceptor.get_addresses()[0][1])

    @property
    def fingerprint(self) -> str:
        return datadir.fingerprint(self.host_key)

    def share_line(self, host: str) -> str:
        """The exact command to give friends: plain ssh shows the room's screen (the served TUI)."""
        return f"ssh -p {self.port} {host}" if self.port != 22 else f"ssh {host}"

    def prepare_player_screens(self) -> None:
        """Start the TUI fork server and the room's ready screens in the background (``[room] ready_screens``)."""
        if self.gate is not None:
            self.gate.refill_ready_screens()

    async def fork_server_ready(self) -> None:
        """Wait until the TUI fork server is up (started with the first pty session, or now)."""
        if self.gate is not None:
            await self.gate.ensure_fork_server()

    async def close(self) -> None:
        self.acceptor.close()  # no new logins while the room closes
        if self.admin is not None:
            await self.admin.close()
        self.room.tell_chips_kept()  # before the bye: his result counts them as cashed out (the ledger does)
        farewells = [self._end_channels()]
        if self.gate is not None:  # plain-ssh players: their terminal restored and told why, before we go
            farewells.append(self.gate.end_sessions(ROOM_CLOSED_TEXT, CLOSING_SECONDS))
        await asyncio.gather(*farewells)
        await self.room.stop()
        if self.gate is not None:
            await self.gate.close()  # the fork server too; TUIs end with their ssh sessions
        with contextlib.suppress(TimeoutError):  # a client that never closes must not keep the host up
            await asyncio.wait_for(self.acceptor.wait_closed(), 5.0)
        if self.room.store is not None:
            if not self.session_ended:  # the settle-up's session ends with the room (hosting.settle_up)
                self.session_ended = True
                self.room.store.end_session()
            await self.room.store.close()

    async def _end_channels(self) -> None:
        """Tell every subsystem client the room closed (``bye`` with code ``room_closed``: it stops
        reconnecting), close the channels, and wait until they have the message."""
        channels = list(self.channels)
        for transport in channels:
            transport.send(protocol.bye(ROOM_CLOSED_TEXT, protocol.ROOM_CLOSED))
            transport.close(ROOM_CLOSED_TEXT)
        await asyncio.gather(*(transport.wait_closed(CLOSING_SECONDS) for transport in channels))


async def start_room(config: RoomConfig, data_dir: Path, *, host: str = "", port: int = 2222,
                     clock: Callable[[], float] = time.monotonic, limits: Limits | None = None,
                     runner_settings: RunnerSettings | None = None, deal: bool = True,
                     blind_step_seconds: float = STEP_SECONDS,
                     served_tui: TuiPrograms | None = None, fork_server: bool | None = None) -> RunningRoom:
    """Create the data directory's host key, room id and accounts if needed, and listen on ``host:port``.

    ``port=0`` picks a free port (tests). ``deal=False`` runs the room without table runners (seating and
    chat only; tests of the plumbing). ``served_tui``: plain ``ssh`` sessions with a pty get this TUI (DESIGN.md
    hosting way 1; :mod:`hosting.pty_session`; the command line passes ``tui.entry.SERVED_TUI``; None: none
    does); a session with neither a pty nor the subsystem gets one line. ``fork_server``: ``True`` starts the
    TUI fork server now, ``None`` with the first pty session (in the background), ``False`` never (each TUI is
    a fresh interpreter).
    Raises ``OSError`` if the port cannot be bound.
    """
    datadir.prepare(data_dir)  # SharedDirectory (one line) for a directory other users can reach
    # StoreError (one line) for a bad data directory; recovers an unclean stop, the tables' owner deciding
    # where their stacks go (every table of the room file is a cash table: back to the balances)
    store = Store.open(data_dir, refund_at_restart=CashTables.refunds_at_restart)
    key = datadir.host_key(data_dir)
    accounts = StoreAccounts(store, legacy=data_dir / datadir.ACCOUNTS_FILE)
    gatekeeper = Gatekeeper(config.access, accounts)
    room = Room(config, datadir.room_id(data_dir), gatekeeper, clock,
                driver_factory=runner_for(runner_settings, key, blind_step_seconds) if deal else None,
                store=store)
    for table in config.tables:
        store.save_table(table.id, table_settings(table))
    channel_limits = limits or Limits()
    room.budgets = BudgetBook(channel_limits)  # every channel of a name spends its one budget (issue 25 item 3)
    gate = (await LocalGate.start(room, limits=channel_limits, programs=served_tui)  # short private path
            if served_tui is not None else None)
    tui_log = data_dir / "tui.log"
    if gate is not None:
        gate.fork_policy = fork_server
        gate.log_path = tui_log
        gate.ready_screens = config.ready_screens if fork_server is not False else 0
        gate.max_screens = config.player_screens
        if fork_server is True:
            await gate.ensure_fork_server()
            gate.refill_ready_screens()

    screen_logins: list[Login] = []  # the login of each plain-ssh screen running

    def waiting_screens(login: Login) -> int:
        """Screens of ``login``'s address group whose key holds no name yet (``login`` too, if so)."""
        if room.holds_name(login):
            return 0
        group = address_group(login.address)
        return sum(1 for other in screen_logins
                   if address_group(other.address) == group and not room.holds_name(other))

    async def process_factory(process: asyncssh.SSHServerProcess[bytes]) -> None:
        owner = process.get_extra_info("connection").get_owner()
        if not isinstance(owner, LoginServer) or owner.channels >= MAX_CHANNELS_PER_LOGIN:
            if isinstance(owner, LoginServer) and owner.login is not None and not owner.refused_channels:
                security_log.warning("refused a session (and any more, unlogged): %d open on the login of %s",
                                     owner.channels, owner.login.describe())
                owner.refused_channels = True  # one line per login: a flood of channel requests fills no log
            process.stderr.write(TOO_MANY_CHANNELS_MESSAGE)
            process.exit(1)
            return
        if not owner.channel_opens.take(clock()):
            owner.opens_refused += 1
            if owner.login is not None and not owner.refused_channels:
                security_log.warning("refused a session (and any more, unlogged): sessions opened too often on the "
                                     "login of %s", owner.login.describe())
                owner.refused_channels = True
            process.stderr.write(CHANNELS_TOO_OFTEN_MESSAGE)
            process.exit(1)
            if owner.opens_refused >= OPENS_REFUSED_BEFORE_DISCONNECT:  # still trying: the whole login goes
                owner.disconnect("sessions opened too often on this connection")
            return
        owner.channels += 1
        try:
            await serve_channel(process, owner)
        finally:
            owner.channels -= 1

    async def serve_channel(process: asyncssh.SSHServerProcess[bytes], owner: LoginServer) -> None:
        if (gate is not None and process.subsystem is None and process.term_type and process.command is None
                and owner.login is not None):
            decision = gatekeeper.check_key(owner.login.name, owner.login.public_key)
            if not decision.allowed:  # the name was registered to another key since this login: nothing of it
                security_log.warning("refused a terminal: %s: %s", owner.login.describe(), decision.reason)
                process.stderr.write(f"croupier: {decision.reason}\r\n".encode())
                process.exit(1)
                return
            if waiting_screens(owner.login) >= SCREENS_AT_THE_GATE_PER_ADDRESS:
                security_log.warning("refused a plain-ssh screen to %s: %d screens from that address wait at the "
                                     "room's gates", owner.login.describe(), SCREENS_AT_THE_GATE_PER_ADDRESS)
                process.stderr.write(SCREENS_AT_THE_GATE_MESSAGE)
                process.exit(1)
                return
            if gate.fork_policy is None:
                gate.warm_fork_server()  # forks every later session from a warm process; this one starts fresh
            screen_logins.append(owner.login)
            try:
                await serve_pty(process, gate, owner.login, log_path=tui_log)
            finally:
                screen_logins.remove(owner.login)
        else:
            await serve_subsystem(room, process, channel_limits, channels)

    channels: set[ChannelTransport] = set()

    async def listen(chosen: int) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            lambda: LoginServer(gatekeeper, clock, room.holds_name), host or None, chosen,
            server_host_keys=[key], process_factory=process_factory, encoding=None,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, keepalive_interval=30,
            login_timeout=config.access.login_seconds,
        )

    acceptor = await listen_on_one_port(listen, port)
    store.start()
    store.open_room_session(time.strftime("%Y-%m-%d %H:%M"))  # the settle-up's session (or the night going on)
    admin = await _admin_socket(room, data_dir)
    room.start()
    return RunningRoom(room, acceptor, key, data_dir, gate, channels, admin=admin)


ONE_PORT_ATTEMPTS = 20
"""How many free ports ``port=0`` tries for all the room's addresses at once before it keeps different ones."""


async def listen_on_one_port(listen: Callable[[int], Awaitable[asyncssh.SSHAcceptor]],
                             port: int) -> asyncssh.SSHAcceptor:
    """``listen(port)``; with ``port=0`` every address (IPv4 and IPv6 on all interfaces) on the same free port.

    The system picks a free port per socket: on all interfaces IPv4 and IPv6 got different ones, and the host's
    line named only one (``ssh -p`` to the other family's address reached nothing, or another program). So the
    port the first address got is taken for all of them; if it is not free for another, a new one is picked.
    """
    acceptor = await listen(port)
    for _ in range(ONE_PORT_ATTEMPTS if port == 0 else 0):
        if acceptor.get_port():  # one port for every address (or a single address)
            break
        chosen = acceptor.get_addresses()[0][1]
        acceptor.close()
        await acceptor.wait_closed()
        try:
            acceptor = await listen(chosen)
        except OSError:  # that port is another program's on the other family: try a new one
            acceptor = await listen(0)
    return acceptor


async def _admin_socket(room: Room, data_dir: Path) -> AdminSocket | None:
    """Listen for ``croupier admin`` in the data directory; the room runs without it if it cannot."""
    admin = AdminSocket(data_dir, lambda data: room.console.perform(ADMIN, parse_request(data), room.clock()))
    try:
        await admin.start()
    except OSError as problem:
        log.warning("no admin socket (croupier admin will not reach this room): %s: %s", admin.path, problem)
        return None
    return admin


async def serve_forever(running: RunningRoom, stop: asyncio.Event | None = None) -> None:  # pragma: no cover
    """The CLI's loop: serve until ``stop`` is set (or the task is cancelled: Ctrl+C), then close the room."""
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await running.close()
