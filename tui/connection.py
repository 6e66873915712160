"""How the TUI reaches a room: one small interface, three transports (DESIGN.md "tui/ client").

- :class:`LocalConnection`: in the room's own process (``croupier play``, tests). The connection is a
  :class:`hosting.room.Transport`; outbound messages go straight into :meth:`Room.receive` after the same
  validation a remote line gets (:func:`hosting.protocol.validate`).
- :class:`SshConnection`: the ``croupier`` SSH subsystem (``croupier join``).
- :class:`StreamConnection`: protocol lines over the local socket a served TUI (``hosting.pty_session``)
  connects back to with its one-time token.

Both read through :class:`hosting.client.RoomClient` (one read loop: its line bound is the transport's, a
closed channel ends with the room's reason), adapted by :class:`ClientConnection`.

Every transport takes part in the commit–reveal shuffle (:class:`hosting.client.FairnessParticipant`) and,
after each hand's ``seeds``, hands the UI a synthetic ``{"type": "fairness", "table", "hand", "ok",
"violations"}`` message with this client's own verdict: the fairness badge of the hand log.
The UI sees only :meth:`Connection.send`, :meth:`Connection.receive` and :meth:`Connection.close`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from hosting import protocol
from tui.model import HAND_STARTS, TABLE_EVENTS

if TYPE_CHECKING:
    from engine.fairness import Verification
    from hosting.client import FairnessParticipant, RoomClient
    from hosting.draw_round import DrawParticipant


class ConnectionLost(Exception):
    """The room is gone (its ``bye`` reason, or the transport's)."""


class Connection(Protocol):
    """What the app needs from a transport."""

    name: str

    async def send(self, message_type: str, **fields: Any) -> None:
        """Send one protocol message (``v`` and ``type`` are added). Raises :class:`ConnectionLost`."""

    async def receive(self) -> dict[str, Any]:
        """The next message from the room. Raises :class:`ConnectionLost` when the room is gone."""

    async def close(self) -> None: ...


def participant(room_id: str) -> Participant:
    """This client's side of the commit–reveal shuffle (:class:`Participant`). Imported on first use:
    ``hosting.client`` pulls in the SSH stack, which a served TUI does not need before its first frame."""
    from hosting.client import FairnessParticipant

    return Participant(FairnessParticipant(room_id))


class Participant:
    """:class:`hosting.client.FairnessParticipant` fed only what it can check (:class:`HandsSeen`): the events
    of a hand joined after its deal are kept from it, and :meth:`joined_late` tells the badge. Every transport
    uses it (``RoomClient`` too: it only calls :meth:`handle` and reads :attr:`results`)."""

    def __init__(self, inner: FairnessParticipant) -> None:
        self.inner = inner
        self.seen = HandsSeen()
        self._late: dict[tuple[str, str], bool] = {}
        # draws that are not decks (a Spin's multiplier): made when the hello names this player
        self.draws: DrawParticipant | None = None

    @property
    def results(self) -> dict[tuple[str, str], Verification]:
        return self.inner.results

    @property
    def unverified(self) -> dict[tuple[str, str], str]:
        return self.inner.unverified

    @property
    def notes(self) -> dict[tuple[str, str], str]:
        return self.inner.notes

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind = str(message.get("type", ""))
        if kind == "hello" and self.draws is None:
            from hosting.draw_round import DrawParticipant

            self.draws = DrawParticipant(self.inner.room_id, str(message.get("name", "")))
        if kind.startswith("draw_"):
            return self.draws.handle(message) if self.draws is not None else []
        self.seen.note(message)
        if message.get("type") == "seeds":
            key = (str(message.get("table")), str(message.get("hand")))
            self._late[key] = self.seen.joined_late(message)
            while len(self._late) > HandsSeen.LIMIT:
                del self._late[next(iter(self._late))]
        if not self.seen.for_participant(message):
            return []
        return self.inner.handle(message)

    def joined_late(self, key: tuple[str, str]) -> bool:
        return self._late.pop(key, False)


class HandsSeen:
    """What this connection saw of each hand, for its fairness check (DESIGN.md "Fairness").

    A hand is seen *from its start* when its ``commit_request`` (dealt in) or ``commitments`` (watching)
    arrived, and then its first event of play was the hand's start (``hand_planned`` / ``hand_started``; a
    resync after a reconnect replays the hand from there too; table events such as ``button_drawn`` do not
    count either way). A hand joined later (a table opened, or a seat taken,
    after the commitments or after the deal) is *joined late*: the participant checks its seeds against the
    transcript, but it cannot place the cards it saw in the deck (it did not count the cards dealt before it
    looked), so those events are not given to it (:meth:`for_participant`) — rather than a false violation —
    and the badge says ``verified (joined late)`` in words instead of claiming the full check.
    """

    LIMIT = 2000  # hands never finished on this connection (a table closed mid-hand) are forgotten past this

    def __init__(self) -> None:
        self._committed: dict[tuple[str, str], None] = {}
        self._from_start: dict[tuple[str, str], bool] = {}  # a hand's first event was its start

    def note(self, message: Mapping[str, Any]) -> None:
        """Feed every inbound message, in order, before asking about it."""
        kind = message.get("type")
        key = (str(message.get("table")), str(message.get("hand")))
        if kind in ("commit_request", "commitments"):
            self._committed[key] = None
        elif kind == "event" and key not in self._from_start and key[1]:
            event = message.get("event")
            if not isinstance(event, TABLE_EVENTS):  # e.g. the first hand's button_drawn: not yet a sign either way
                self._from_start[key] = isinstance(event, HAND_STARTS)
        for kept in (self._committed, self._from_start):
            while len(kept) > self.LIMIT:
                del kept[next(iter(kept))]

    def for_participant(self, message: Mapping[str, Any]) -> bool:
        """Whether the fairness participant should see ``message`` (not the events of a hand joined late)."""
        if message.get("type") != "event":
            return True
        return self._from_start.get((str(message.get("table")), str(message.get("hand"))), True)

    def joined_late(self, message: Mapping[str, Any]) -> bool:
        """For a ``seeds`` message: whether its hand was joined late (and forget the hand)."""
        key = (str(message.get("table")), str(message.get("hand")))
        committed = self._committed.pop(key, "no") is None
        from_start = self._from_start.pop(key, False)
        return not (committed and from_start)


def fairness_verdicts(participant: Any, message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """After a ``seeds`` message, this client's verdict on the hand as a ``fairness`` message for the UI,
    with ``joined_late`` (see :class:`HandsSeen`) when ``participant`` is a :class:`Participant`."""
    if message.get("type") == "draw_proof":
        return draw_verdict(participant, message)
    if participant is None or message.get("type") != "seeds":
        return []
    key = (str(message.get("table")), str(message.get("hand")))
    joined_late = participant.joined_late(key) if isinstance(participant, Participant) else False
    result = participant.results.get(key)
    unverified = getattr(participant, "unverified", {}).get(key)
    if result is None and unverified is not None:  # a slow connection missed the commitments: no violation found
        return [protocol.message("fairness", table=key[0], hand=key[1], ok=True, joined_late=joined_late,
                                 violations=[], unverified=unverified)]
    if result is None:  # the transcript did not parse: the participant already reported bad_transcript
        return [protocol.message("fairness", table=key[0], hand=key[1], ok=False, joined_late=joined_late,
                                 violations=[{"kind": "bad_transcript", "message": "unreadable transcript"}])]
    return [protocol.message("fairness", table=key[0], hand=key[1], ok=result.ok, joined_late=joined_late,
                             violations=[violation.to_json() for violation in result.violations],
                             note=getattr(participant, "notes", {}).get(key))]


def host_blind_verdict(participant: Any, message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """After a host-blind hand's ``blind_end``, this client's own referee's verdict as a ``fairness`` message (the
    hand log's badge): every entry, proof and opened card it relied on checked as the hand went."""
    if participant is None or message.get("type") != "blind_end":
        return []
    key = (str(message.get("table")), str(message.get("hand")))
    found = participant.results.get(key)
    if found is None:
        return []
    return [protocol.message("fairness", table=key[0], hand=key[1], ok=not found, joined_late=False,
                             violations=[{"kind": "host_blind", "message": text} for text in found])]


def draw_verdict(participant: Any, message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """After a ``draw_proof`` (a Spin's multiplier): this client's own check of it, as a notice in plain words
    (only integers from the proof reach the screen, never the room's text)."""
    draws = getattr(participant, "draws", None)
    draw = str(message.get("draw", ""))
    if draws is None or draw not in draws.results:
        return []
    proof = draws.proofs.get(draw)
    from hosting.draw_round import is_button_draw  # loaded with the draws it reads

    if is_button_draw(draw):  # a host-blind table's first button (R-DEAL-1): no multiplier to name
        what, outcome = "First button", "the button"
    else:
        what, outcome = "Spin", f"{proof.outcome}x" if proof is not None else "the multiplier"
    if draws.results[draw]:
        problems = len(draws.results[draw])
        text = f"{what}: {outcome} was drawn, and your client found the draw WRONG: {problems} problem(s)"
    else:
        text = f"{what}: {outcome} drawn by commit-reveal with every player; your client verified the draw"
    return [protocol.message("notice", text=text)]


class _Queued:
    """The in-process transport's inbox: messages, then ``None`` once the connection ended."""

    def __init__(self) -> None:
        self._inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed_reason: str | None = None

    def _deliver(self, message: dict[str, Any]) -> None:
        if message.get("type") == "bye":
            self.closed_reason = str(message.get("reason") or "the room closed the connection")
        self._inbox.put_nowait(message)

    def _end(self, reason: str) -> None:
        if self.closed_reason is None:
            self.closed_reason = reason
        self._inbox.put_nowait(None)

    async def receive(self) -> dict[str, Any]:
        message = await self._inbox.get()
        if message is None:
            self._inbox.put_nowait(None)  # every later receive ends the same way
            raise ConnectionLost(self.closed_reason or "connection closed")
        return message


class LocalConnection(_Queued):
    """A player inside the room's process. Build with :meth:`attach`."""

    def __init__(self, room: Any, name: str) -> None:
        super().__init__()
        self.room = room
        self.name = name
        self.session: Any = None
        self.fairness: Participant | None = participant(str(room.room_id))
        self._loop = asyncio.get_running_loop()
        self._open = True
        self.reads_later = False

    @classmethod
    async def attach(cls, room: Any, name: str, public_key: str | None = None) -> LocalConnection:
        """Log ``name`` into ``room`` (a :class:`hosting.room.Room`) as its SSH server would, key included.

        Raises :class:`ConnectionLost` when the room's gates refuse the name or the key.
        """
        if public_key is None:
            import asyncssh

            public_key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
        refusal = room.gatekeeper.name_allowed(name)
        if refusal is not None:
            raise ConnectionLost(refusal)
        decision = room.gatekeeper.check_key(name, public_key)
        if not decision.allowed:
            raise ConnectionLost(decision.reason)
        from hosting.identity import IN_PROCESS_ADDRESS, Login

        connection = cls(room, name)
        connection.session = room.connect(Login(name, public_key, IN_PROCESS_ADDRESS), _RoomSide(connection))
        return connection

    def from_room(self, message: Mapping[str, Any]) -> None:
        """The room → client direction (called by the room through :class:`_RoomSide`): the room writes the
        line, and the client reads it — at once, or with :attr:`reads_later` on the next loop turn, in order, as
        from a socket (so its reading and checking are not counted in the room's work: the tournament
        benchmark times the room's)."""
        if not self._open:
            return
        line = protocol.encode(message)
        if self.reads_later:
            self._loop.call_soon(self._read, line, False)
        else:
            self._read(line, True)

    def _read(self, line: bytes, in_room_send: bool) -> None:
        plain = protocol.read_room_message(line)  # exactly what a remote client would read
        self._deliver(plain)
        if self.fairness is not None:
            for reply in self.fairness.handle(plain):
                if in_room_send:  # never re-enter the room from inside its own send: answer on the next loop turn
                    self._loop.call_soon(self._to_room, reply)
                else:
                    self._to_room(reply)
            for verdict in fairness_verdicts(self.fairness, plain):
                self._deliver(verdict)

    def closed_by_room(self, reason: str) -> None:
        if self._open:
            self._open = False
            if self.reads_later:
                self._loop.call_soon(self._end, reason)  # after the lines written before it
            else:
                self._end(reason)

    async def send(self, message_type: str, **fields: Any) -> None:
        if not self._open:
            raise ConnectionLost(self.closed_reason or "connection closed")
        self._to_room(protocol.message(message_type, **fields))

    def _to_room(self, message: dict[str, Any]) -> None:
        if not self._open:
            return
        try:
            inbound = protocol.validate(json.loads(json.dumps(message)))
        except protocol.ProtocolError as problem:
            self._deliver(problem.reply())
            return
        self.room.receive(self.session, inbound)

    async def close(self) -> None:
        if self._open:
            self._open = False
            self._end("you left the room")
            if self.session is not None:
                self.room.disconnect(self.session)


class _RoomSide:
    """The :class:`hosting.room.Transport` the room holds for a :class:`LocalConnection`."""

    def __init__(self, connection: LocalConnection) -> None:
        self._connection = connection

    def send(self, message: Mapping[str, Any]) -> None:
        self._connection.from_room(message)

    def close(self, reason: str) -> None:
        self._connection.closed_by_room(reason)


class ClientConnection:
    """A :class:`hosting.client.RoomClient` (its one read loop) as the app's :class:`Connection`: the ``hello``
    first, then each message followed by this client's verdicts on it (fairness, host-blind), the room's
    reason when it closes the channel."""

    def __init__(self, client: RoomClient) -> None:
        self.client = client
        self.name = str(client.hello.get("name", ""))
        self._pending: list[dict[str, Any]] = [dict(client.hello)]

    async def send(self, message_type: str, **fields: Any) -> None:
        from hosting.client import ConnectionClosed

        try:
            await self.client.send(message_type, **fields)
        except ConnectionClosed as problem:
            raise ConnectionLost(str(problem)) from None
        except Exception as problem:  # asyncssh raises several kinds once the channel is gone
            raise ConnectionLost(f"connection lost: {problem}") from None

    async def receive(self) -> dict[str, Any]:
        from hosting.client import ConnectionClosed

        if self._pending:
            return self._pending.pop(0)
        try:
            message = await self.client.receive(timeout=3600.0)
        except ConnectionClosed as problem:
            raise ConnectionLost(str(problem)) from None
        except TimeoutError:
            return protocol.message("idle")
        if message.get("type") == "ack" and message.get("in_reply_to") == "hello":
            return protocol.message("idle")  # our own hello's (it offered host-blind dealing)
        self._pending.extend(fairness_verdicts(self.client.fairness, message))  # RoomClient fed its participant
        self._pending.extend(host_blind_verdict(self.client.host_blind, message))
        return message

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.close()


class SshConnection(ClientConnection):
    """The ``croupier`` subsystem over SSH (``croupier join``)."""

    @classmethod
    async def open(cls, host: str, port: int, name: str, *, timeout: float = 15.0, host_blind: Any = None,
                   **options: Any) -> SshConnection:
        """Connect as ``name`` and open the ``croupier`` subsystem; ``options`` go to ``asyncssh.connect``
        (``client_keys``, ``known_hosts``, ``agent_path``…; by default the keys in ``~/.ssh`` and the agent,
        and the host key checked against ``~/.ssh/known_hosts``). A refused login raises
        :class:`hosting.client.LoginRefused` with the room's reason (banned, not on its allow-list…).
        ``host_blind``: the previous connection's :class:`hosting.host_blind_client.HostBlindParticipant` (a
        reconnect: the host-blind hands it is dealt into go on). This client takes part in host-blind dealing:
        its keys, shuffles and shares are made here, on the player's machine; the room lets it sit at host-blind
        tables. Its hello is sent without waiting for the ack (a resync may follow at once)."""
        from hosting.client import RoomClient

        settings: dict[str, Any] = {"username": name, "password": None, "kbdint_auth": False, "gss_auth": False}
        settings.update(options)
        return cls(await RoomClient.open(host, port, timeout, fairness=participant, host_blind=True,
                                         participant=host_blind, client="croupier join", wait=False, keep=False,
                                         **settings))


class StreamConnection(ClientConnection):
    """Protocol lines over a local socket (the served TUI's). Build with :meth:`open_unix`."""

    LINE_LIMIT = 1 << 20  # the longest line read from the room: longer ends the connection

    @classmethod
    async def open_unix(cls, path: str, token: str, timeout: float = 60.0) -> StreamConnection:
        """Connect to the room's local socket and present the one-time ``token``; waits for ``hello``."""
        from hosting.client import ConnectionClosed, RoomClient

        try:
            reader, writer = await asyncio.open_unix_connection(path, limit=cls.LINE_LIMIT)
        except OSError as problem:
            raise ConnectionLost(f"cannot reach the room: {problem.strerror or problem}") from None
        writer.write(json.dumps({"token": token}).encode() + b"\n")
        await writer.drain()
        client = RoomClient(writer, writer, reader, participant, keep=False)
        try:
            hello = await client.receive(timeout)
        except (ConnectionClosed, TimeoutError) as problem:
            await client.close()
            raise ConnectionLost(str(problem) or "the room did not answer") from None
        if hello.get("type") != "hello":
            await client.close()
            raise ConnectionLost(str(hello.get("reason") or hello.get("message") or "the room refused the token"))
        client.hello = hello
        return cls(client)
