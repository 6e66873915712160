"""Host-blind hands at a table (fairness v2, issue 29): the players' clients deal, the room only relays.

Per hand (docs/fairness-v2-design.md, "Plugging it into the room"):

1. each player about to be dealt in sends his keys for the hand (``blind_request`` step ``seat`` →
   ``blind_seat``); one who does not answer in ``step_seconds`` sits out and the plan is made again;
2. the room sends the transcript header to them (``blind_header``), then asks, one at a time, for each step
   of :func:`engine.fairness_v2.play.play_hand`'s order: key escrow (more than two players), the shuffles of the
   committee; then everyone at once for the deal shares (an *opening*: one round trip, each answer signed
   against the head the opening starts from, chained in seat order when all are in); each answer is a signed
   entry (``blind_entry``) the room checks (signature, proof), chains
   (:class:`~engine.fairness_v2.transcript.TranscriptWriter`) and relays to every player of the hand;
3. the table's engine hand is then started on **placeholder cards** (nobody, the room included, knows the
   deck): the hole cards go out face down to everyone, and each client puts in its own cards, which it
   decrypted itself. Before an action that deals a street goes into the engine, the street is opened (board
   shares from every player, asked of all at once) and its cards replace the placeholders
   (:meth:`engine.hand.Hand.place_cards`);
   a show opens the owner's cards the same way; a muck opens nothing;
4. actions are signed entries too: the player's client turns his ``action`` into one;
5. a player who does not answer a step in time, or whose entry fails its check (named in the host's log), is
   timed out: a host entry ``Timeout``, folded, and the others stand in for his share of what the table still
   needs (threshold covers) — never his own cards. With too few left to cover him the hand is void
   (R-CRASH-1): the engine hand is not started, or is ended with every chip back.

The room holds no secret of any player: only public keys, shares and proofs pass through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import asyncssh
import msgspec

from engine.actions import Action, Muck, Show
from engine.button import BlindPlan, draw_for_button
from engine.cards import Card, full_deck
from engine.errors import NotSeated, TableRuleError
from engine.events import CardsDealtFaceDown, Event, HandShown, HoleCardsDealt
from engine.fair_draw import DrawProof
from engine.fairness import FairnessError
from engine.fairness_v2.elgamal import SchnorrProof, schnorr_verify
from engine.fairness_v2.group import DEFAULT_GROUP, GROUPS
from engine.fairness_v2.randomness import VERSION
from engine.fairness_v2.referee import (
    DISCLOSE,
    VOID_REASON,
    ProtocolError,
    Referee,
    committee,
    dealt_seats,
    engine_action,
    key_context,
    proof_of,
    shuffle_context,
)
from engine.fairness_v2.shuffle import verify_shuffle
from engine.fairness_v2.threshold import check_share as check_escrow_share
from engine.fairness_v2.transcript import (
    HOST_SENDER,
    AbsentSeat,
    Act,
    Covers,
    Disclosure,
    Entry,
    Escrow,
    HandTranscript,
    Header,
    Posts,
    SeatRecord,
    Shares,
    Shuffle,
    Timeout,
    TranscriptWriter,
    ed25519_verify,
    kind_of,
    opening_bytes,
    signed_bytes,
)
from engine.hand import Hand
from engine.hand_state import ForcedBets
from engine.text import clean_text
from hosting import protocol
from hosting.draw_round import DrawSeconds, button_draw_id
from hosting.errors import NO_HAND, RoomError
from hosting.hand_codec import view_bodies
from hosting.host_blind_client import COMPLAINT_CHARACTERS
from hosting.owner import Listener, Mailroom, TableOwner
from hosting.protocol import BlindComplaint, BlindEntry, BlindSeat, Inbound
from hosting.spin_start import DrawingRoom
from hosting.table_runner import RunnerSettings, TableRunner, legal_to_json
from hosting.tables import TableState
from hosting.transcript_signing import public_text, sshsig_signer

log = logging.getLogger("croupier.room")

STEP_SECONDS = 20.0
"""How long a client has for one step of the dealing (its keys, an escrow, a shuffle, its shares)."""
STRUCTURES = {"no_limit": "no-limit", "pot_limit": "pot-limit", "fixed_limit": "fixed-limit"}
GAMES = {"texas_holdem": "holdem", "omaha": "omaha"}
"""The room's game ids as a transcript names them (hosting.host_blind_games lists what room.toml allows)."""
OPENING_STEPS = frozenset({"deal", "board", "show"})
"""Steps asked of every player of an opening at once (:meth:`HostBlindRunner._ask`)."""
_ENTRY = msgspec.json.Decoder(Entry)
_RECORD = msgspec.json.Decoder(SeatRecord)


class StepFailed(Exception):
    """A player did not answer a step in time, or sent what fails its check: he is timed out."""


@dataclass
class _Hand:
    hand_id: str
    names: dict[int, str]
    header: Header
    writer: TranscriptWriter
    referee: Referee
    gone: set[int] = field(default_factory=set)
    waiting: dict[int, str] = field(default_factory=dict)
    """The step asked of each seat now (one seat, or every player of an opening at once)."""
    answers: dict[int, asyncio.Future[Entry]] = field(default_factory=dict)
    opening: tuple[int, bytes] | None = None
    """The opening asked of everyone now: the seq and head its shares are signed against (their ``anchor``)."""
    actions: asyncio.Queue[tuple[int, Entry | None, float]] = field(default_factory=asyncio.Queue)
    """Players' actions as they come (``None``: he left his seat), for the hand's loop, in order."""
    folds: list[int] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)
    started: bool = False
    cheaters: dict[int, str] = field(default_factory=dict)
    disputes: list[tuple[int, int]] = field(default_factory=list)
    """(holder, dealer): a holder's complaint that the dealer's escrow share sealed to him is false, to settle."""
    disclosing: int | None = None  # the holder whose share the dealer asked now must disclose
    absent: dict[int, str] = field(default_factory=dict)
    """Seats dealt in without a key (a tournament's absent players, R-TOUR-6): dead hands from the start."""
    requests: dict[int, dict[str, Any]] = field(default_factory=dict)  # the step asked: again if he reconnects
    early: dict[int, Card] = field(default_factory=dict)
    """Cards opened before the table's hand started (a hand all in from its blinds and antes is over at its start:
    its board and shown hands are opened first and dealt in its deck)."""

    def name_of(self, seat: int) -> str:
        return self.names.get(seat) or self.absent[seat]


def encode(value: Any) -> str:
    return msgspec.json.encode(value).decode()


class HostBlindRunner(TableRunner):
    """A table whose hands are dealt host-blind. The commit–reveal machinery of :class:`TableRunner` is unused
    here; seating, clocks, event views and the table's owner are the same."""

    def __init__(self, room: Mailroom, state: TableState, settings: RunnerSettings | None = None, *,
                 host_key: asyncssh.SSHKey, step_seconds: float = STEP_SECONDS,
                 owner: TableOwner | None = None) -> None:
        super().__init__(room, state, settings, owner=owner)
        self.step_seconds = step_seconds
        self._signer = sshsig_signer(host_key)
        # an absent tournament player is folded through the transcript (Timeout), never by the table alone
        state.engine.acts_for_absent = False
        self._host_public = public_text(host_key)
        self._seats: dict[str, asyncio.Future[SeatRecord]] = {}
        self._seat_hand: str | None = None
        self._blind: _Hand | None = None
        self._button_draw: DrawProof | None = None  # the first hand's button, drawn with the players (R-DEAL-1)
        self.transcripts: list[HandTranscript] = []  # the last hands' (tests read them; the store keeps them all)
        self.transcripts_kept = 8

    @property
    def between_hands(self) -> bool:
        return self._blind is None and self._seat_hand is None and not self.state.engine.hand_running

    # --- one hand ------------------------------------------------------------------------------------

    async def _play_hand(self) -> None:
        table = self.state.engine
        hand_id = f"{self.state.config.id}-{secrets.token_hex(3)}-{table.hand_number + 1}"
        await self._draw_first_button(hand_id)
        collected = await self._collect_seats(hand_id)
        self._seat_hand = None
        if collected is None:
            return
        records, absent = collected
        plan = self._plan()
        if plan is None or set(plan.dealt_in) != set(records) | set(absent):
            return  # someone left or sat down meanwhile: again, with the table as it is now
        config = self.state.config
        forced = self._forced_bets(plan)
        seats = sorted(records)
        header = Header(VERSION, DEFAULT_GROUP.name, config.id, hand_id, GAMES[config.game],
                        STRUCTURES[config.structure], forced.small_blind, forced.big_blind, plan.button_seat,
                        tuple(records[seat] for seat in seats), tuple(committee(seats, plan.button_seat)),
                        self._host_public, Posts(plan.small_blind_seat, plan.big_blind_seat, plan.dead_small_blinds,
                                                 plan.out_of_position_big_blinds),
                        ante=forced.ante, big_blind_ante=forced.big_blind_ante,
                        absent=tuple(AbsentSeat(seat, name, table.players[seat].stack)
                                     for seat, name in sorted(absent.items())))
        try:
            referee = Referee(header, secrets, viewer=HOST_SENDER, check_proofs=False)
        except ProtocolError as problem:
            log.warning("host-blind hand %s not dealt: %s", hand_id, problem)
            return
        names = {seat: table.players[seat].player for seat in seats}
        blind = _Hand(hand_id, names, header, TranscriptWriter(header, self._signer), referee, absent=absent)
        self._blind = blind
        self._hand_id = hand_id
        try:
            blind.writer.checkpoint()
            self._to_hand(blind, protocol.blind_header(config.id, hand_id, encode(header)))
            await self._deal(blind)
            await self._play(blind)  # a hand void in the dealing starts and ends at once: the blinds are in
            await self._end(blind)
        finally:
            self._blind = None
            self._hand_id = None

    def _plan(self) -> BlindPlan | None:
        table = self.state.engine
        plan = table.plan_next_hand()
        if table.positions is None and plan is not None:  # the first hand: the button the players drew
            drawn = self._button_draw.outcome if self._button_draw is not None else None
            if drawn is None or drawn not in plan.dealt_in:  # no draw (or its seat left since): from an unshuffled
                drawn = draw_for_button(list(plan.dealt_in), full_deck()).button_seat  # deck (nobody chooses it)
            return table.plan_next_hand(drawn_button=drawn)
        return plan

    async def _draw_first_button(self, hand_id: str) -> None:
        """R-DEAL-1 at a host-blind table: the first hand's button drawn by commit–reveal with the players'
        clients, the draw of a tournament's first seats (:mod:`hosting.draw_round`): one row per seat that
        plays, the drawn row's seat takes the button. The draw is bound to the hand (``button:<hand id>``) and
        its proof goes with that hand's transcript, for ``croupier verify``. Nobody — the host included — can
        choose it; a player who does not take part is left out of the key."""
        table = self.state.engine
        self._button_draw = None
        plan = table.plan_next_hand()
        if table.positions is not None or plan is None:
            return
        seats = sorted(plan.dealt_in)
        room = cast(DrawingRoom, self.room)
        try:
            self._button_draw = await room.run_draw(
                button_draw_id(hand_id), tuple((seat, 1) for seat in seats),
                [table.players[seat].player for seat in seats], DrawSeconds(self.step_seconds, self.step_seconds))
        except (ValueError, FairnessError) as problem:  # the draw could not be made: the unshuffled deck's
            log.warning("host-blind %s: the button draw failed: %s", hand_id, problem)

    async def _collect_seats(self, hand_id: str) -> tuple[dict[int, SeatRecord], dict[int, str]] | None:
        """Each player about to be dealt in sends his keys; one who does not in time sits out (plan again). Where
        the table deals absent players in (a tournament, R-TOUR-6), one who is away, sitting out or disconnected
        is not asked, and one whose keys do not come in time is not waited for again: both are dealt in without
        a key (their hands dead from the start). The keys by seat and those absent seats' players."""
        table = self.state.engine
        self._seat_hand = hand_id
        while True:
            plan = self._plan()
            if plan is None or not table.can_start_hand():
                return None
            dealt = {table.players[seat].player: seat for seat in plan.dealt_in}
            absent = {name: seat for name, seat in dealt.items() if self._dealt_in_absent(name)}
            wanted = {name: seat for name, seat in dealt.items() if name not in absent}
            if not wanted:  # nobody here can shuffle: wait for someone to come back (or the clock's next step)
                await self._sleep(self.room.clock() + self.step_seconds)
                return None
            loop = asyncio.get_running_loop()
            self._seats = {name: loop.create_future() for name in wanted}
            fresh = {"fresh": True} if self.owner.kind == "pool" else {}  # a pool's every hand: new keys
            for name, seat in wanted.items():
                self._send_to(name, protocol.blind_request(self.state.config.id, hand_id, "seat", seat,
                                                           self.step_seconds, stack=table.players[seat].stack,
                                                           **fresh))
            await asyncio.wait(list(self._seats.values()), timeout=self.step_seconds)
            missing = [name for name, future in self._seats.items() if not future.done()]
            if missing and table.policy.deals_in_absent and len(missing) < len(wanted):
                for name in missing:
                    log.info("host-blind %s: %s sent no keys in time: his hand is dead", hand_id, name)
                    absent[name] = wanted.pop(name)
                missing = []
            if not missing:
                return ({wanted[name]: self._seats[name].result() for name in wanted},
                        {seat: name for name, seat in absent.items()})
            for name in missing:
                log.info("host-blind %s: %s sent no keys in time: sat out", hand_id, name)
                self.sit_out_for_missing(name)

    async def _deal(self, blind: _Hand) -> None:
        referee = blind.referee
        seats = sorted(blind.names)
        if len(seats) > 2:
            for seat in seats:
                await self._step(blind, seat, "escrow")
                await self._settle_disputes(blind)
            blind.writer.checkpoint()
        for seat in blind.header.shufflers:
            if seat not in blind.gone and not referee.voided:
                await self._step(blind, seat, "shuffle")
                await self._settle_disputes(blind)
        blind.writer.checkpoint()
        if referee.voided or (referee.replay.hand.is_over and not _turned_up(referee)):
            return  # void, or one player left: nothing to open (a hand all in from its blinds opens its showdown)
        await self._ask(blind, self._present(blind), "deal", opening=True)
        await self._cover(blind)
        blind.writer.checkpoint()

    def _as_dealt(self, header: Header, plan: BlindPlan) -> bool:
        """Whether the table would start the hand the players dealt: the same seats, button, blinds and antes (a
        tournament's level may have gone up during the dealing)."""
        forced = self._forced_bets(plan)
        return (sorted(plan.dealt_in) == dealt_seats(header) and plan.button_seat == header.button
                and header.posts == Posts(plan.small_blind_seat, plan.big_blind_seat, plan.dead_small_blinds,
                                          plan.out_of_position_big_blinds)
                and (header.small_blind, header.big_blind, header.ante, header.big_blind_ante)
                == (forced.small_blind, forced.big_blind, forced.ante, forced.big_blind_ante))

    def _forced_bets(self, plan: BlindPlan) -> ForcedBets:
        return self.state.engine.stakes.forced_bets(
            ante_game=False, button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat,
            big_blind_seat=plan.big_blind_seat, straddle_seat=None, dead_small_blinds=plan.dead_small_blinds,
            big_blinds_out_of_position=plan.out_of_position_big_blinds)

    def _present(self, blind: _Hand) -> list[int]:
        return [seat for seat in sorted(blind.names) if seat not in blind.gone]

    async def _settle_disputes(self, blind: _Hand) -> None:
        """Each holder's complaint that a dealer's escrow share sealed to him is false: the dealer discloses that
        share for all to check (Feldman's dispute). A true one settles it (the holder takes it); a false one, or
        none in time, times the dealer out at ``disclose``: his escrow is void, and with it any stand-in for him,
        so the hand is void if his key is still needed (R-CRASH-1)."""
        referee = blind.referee
        while blind.disputes:
            holder, dealer = blind.disputes.pop(0)
            if dealer in blind.gone or (dealer, holder) in referee.disclosed or dealer not in referee.escrows:
                continue
            blind.disclosing = holder
            try:
                await self._step(blind, dealer, DISCLOSE, holder=holder)
            finally:
                blind.disclosing = None
            if dealer in blind.gone:
                log.warning("host-blind hand %s: %s (seat %d) dealt %s a false share of his key and did not "
                            "disclose a true one: folded, and nobody can stand in for him this hand",
                            blind.hand_id, blind.names[dealer], dealer, blind.names[holder])
            else:
                log.info("host-blind hand %s: %s disclosed %s's share of his key: it is true, the complaint is "
                         "settled", blind.hand_id, blind.names[dealer], blind.names[holder])

    async def _cover(self, blind: _Hand) -> None:
        """The holders of a timed-out player's key stand in for his share where the table needs it."""
        referee = blind.referee
        await self._settle_disputes(blind)
        for missing in sorted(blind.gone):
            escrow = referee.escrows.get(missing)
            if escrow is None:
                continue
            while not referee.voided:
                needed = [position for position in referee.cover_needed(missing)
                          if len(referee.covers.get((position, missing), {})) < escrow.threshold]
                helpers = [seat for seat in escrow.holders if seat not in blind.gone
                           and any(seat not in referee.covers.get((position, missing), {}) for position in needed)]
                if not needed or not helpers:
                    break
                await self._step(blind, helpers[0], "covers", missing=missing)

    async def _step(self, blind: _Hand, seat: int, step: str, **fields: Any) -> None:
        """Ask ``seat`` for ``step``; chain and relay his answer, or time him out."""
        await self._ask(blind, [seat], step, **fields)

    async def _ask(self, blind: _Hand, seats: Iterable[int], step: str, *, opening: bool = False,
                   **fields: Any) -> None:
        """Ask ``seats`` for ``step`` at once and check each answer as it comes; when all are in (or the step's
        time is up) chain and relay the good ones in seat order, then time out, in seat order, each who did not
        answer in time or whose answer failed its check (named in the host's log). ``opening``: shares of one
        opening (the deal, a street, hands turned up), each signed against the head the opening starts from
        (``anchor``), since nobody can know his place in the chain before the others answer; any other step is
        asked of one seat and signed in place."""
        seats = [seat for seat in sorted(set(seats)) if seat not in blind.gone]
        if not seats:
            return
        loop = asyncio.get_running_loop()
        anchor = {"anchor": blind.writer.seq} if opening else {}
        blind.opening = (blind.writer.seq, blind.writer.head) if opening else None

        def ask(seat: int) -> None:
            blind.answers[seat] = loop.create_future()
            blind.requests[seat] = protocol.blind_request(self.state.config.id, blind.hand_id, step, seat,
                                                          self.step_seconds, seq=blind.writer.seq, **anchor, **fields)
            self._send_to(blind.names[seat], blind.requests[seat])

        async def answer(seat: int) -> Entry | None:
            while True:
                entry = await asyncio.shield(blind.answers[seat])
                try:
                    await self._check(blind, seat, entry)
                    return entry
                except StepFailed as problem:
                    blind.cheaters[seat] = str(problem)
                    return None
                except _Stale:
                    ask(seat)  # signed against another head: asked again, within the same time

        for seat in seats:
            blind.waiting[seat] = step
            ask(seat)
        tasks = {seat: asyncio.ensure_future(answer(seat)) for seat in seats}
        try:
            await asyncio.wait(tasks.values(), timeout=self.step_seconds)
        finally:
            for task in tasks.values():
                task.cancel()
            blind.opening = None
            for seat in seats:
                blind.waiting.pop(seat, None)
                blind.answers.pop(seat, None)
                blind.requests.pop(seat, None)
        answered = {seat: task.result() for seat, task in tasks.items()
                    if task.done() and not task.cancelled() and task.result() is not None}
        for seat in seats:
            entry = answered.get(seat)
            if entry is not None:
                self._chain(blind, entry)
        for seat in seats:
            if seat not in answered:
                reason = blind.cheaters.get(seat) or f"no {step} in {self.step_seconds:g} s"
                log.warning("host-blind %s: %s (seat %d) timed out at %s: %s", blind.hand_id, blind.names[seat],
                            seat, step, reason)
                self._time_out(blind, seat, step)

    def _chain(self, blind: _Hand, entry: Entry) -> None:
        if entry.anchor is None:
            blind.writer.append(entry)
        else:  # an opening's share: its place in the chain is given now, in seat order
            blind.writer.place(entry)
        entry = blind.writer.entries[-1]
        blind.referee.apply(entry)
        self._to_hand(blind, protocol.blind_entry(self.state.config.id, blind.hand_id, encode(entry)))

    def _time_out(self, blind: _Hand, seat: int, step: str) -> None:
        if seat in blind.gone or seat not in blind.names:
            return
        blind.gone.add(seat)
        blind.writer.host_entry(Timeout(seat, step))
        entry = blind.writer.entries[-1]
        blind.referee.apply(entry)
        self._to_hand(blind, protocol.blind_entry(self.state.config.id, blind.hand_id, encode(entry)))
        if not blind.referee.voided:  # void: the hand ends as it stands, he is not folded (_void_table)
            blind.folds.append(seat)  # into the table's hand once what his fold may deal is opened (_fold_pending)

    def _void_table(self, blind: _Hand) -> bool:
        """R-CRASH-1 once the hand is void (a dropped player's key is needed and too few holders of it are
        left): the table's hand ends void as the transcript stands — before any street its betting reached is
        dealt there, so no placeholder card ever goes out — every chip back to its owner but what the dropped
        players put in, shared by the others. True when void (the hand is then over)."""
        referee, table = blind.referee, self.state.engine
        if not referee.voided:
            return False
        blind.folds.clear()
        if not blind.started or not table.hand_running:
            return True
        replay = referee.replay.hand
        starting, behind = replay.starting_stacks(), replay.stacks()
        put_in = {seat: starting[seat] - behind[seat] for seat in replay.seats}
        lost = sorted(referee.timed_out)
        log.warning("host-blind hand %s at %s is void (R-CRASH-1): %s; %s lose what they put in (%s)",
                    blind.hand_id, self.state.config.id, VOID_REASON, ", ".join(blind.names[seat] for seat in lost),
                    ", ".join(f"{blind.names[seat]} {put_in[seat]}" for seat in lost))
        self.publish(table.void_hand(lost, VOID_REASON, self.room.clock(), put_in=put_in))
        return True

    def _fold_pending(self, blind: _Hand) -> None:
        table = self.state.engine
        while blind.folds:
            name = blind.name_of(blind.folds.pop(0))
            if blind.started and table.hand_running and table.in_hand(name):
                try:  # all in or not, as the transcript folds him: nobody can open his cards without him
                    self.publish(table.kill_hand(name, self.room.clock()))
                except TableRuleError as problem:
                    log.error("host-blind hand %s: %s could not be folded: %s", blind.hand_id, name, problem)

    def leave_in_hand(self, name: str) -> bool:
        """``name`` leaves during a hand he is still in: he is timed out through the transcript (the others'
        referees must see his fold) and stood up after the hand. False when nothing of the kind is needed."""
        blind, table = self._blind, self.state.engine
        seat = table.seat_of(name)
        if blind is None or not blind.started or seat is None or seat not in blind.names or seat in blind.gone \
                or not table.in_hand(name) or not blind.referee.replay.hand.in_hand(seat):
            return False
        blind.actions.put_nowait((seat, None, self.room.clock()))
        return True

    async def _check(self, blind: _Hand, seat: int, entry: Entry) -> None:
        """What a honest client's entry must be, checked before it joins the chain: its place, its signature,
        and its proofs (a shuffle's is checked in a worker thread: ~20 ms)."""
        referee = blind.referee
        if entry.sender != seat:
            raise StepFailed(f"an entry in seat {entry.sender}'s name")
        expected = blind.waiting.get(seat, "action")
        opening = blind.opening if expected in OPENING_STEPS else None
        if entry.anchor is not None:  # an opening's share, signed against the head the opening started from
            if opening is None:
                raise StepFailed("shares signed for an opening where none was asked")
            if entry.anchor != opening[0]:
                raise _Stale
            signed = opening_bytes(blind.header, opening[0], opening[1], seat, entry.body)
        elif opening is not None or entry.seq != blind.writer.seq or entry.prev != blind.writer.head:
            raise _Stale  # signed against an older head (or in place where the opening's head was asked)
        else:
            signed = signed_bytes(blind.header, entry.seq, entry.prev, seat, entry.body)
        record = referee.seats[seat]
        if not ed25519_verify(record.signing_key, entry.signature, signed):
            raise StepFailed("the signature does not verify")
        body = entry.body
        kinds = {"escrow": Escrow, "shuffle": Shuffle, "deal": Shares, "board": Shares, "show": Shares,
                 "covers": Covers, DISCLOSE: Disclosure}
        if expected in kinds and not isinstance(body, kinds[expected]):
            raise StepFailed(f"a {kind_of(body)} where a {expected} was due")
        if isinstance(body, Shuffle):
            deck, proof = proof_of(referee.group, body)
            context = shuffle_context(blind.header.table, blind.hand_id, seat)
            ok = await asyncio.to_thread(verify_shuffle, referee.group, referee.key, referee.deck, deck, proof,
                                         context)
            if not ok:
                raise StepFailed("the shuffle proof fails: the deck was not only reordered and re-masked")
        if isinstance(body, Shares | Covers | Escrow):
            self._check_with_proofs(blind, entry)
        if isinstance(body, Disclosure):
            escrow = referee.escrows.get(seat)
            if escrow is None or body.holder != blind.disclosing or not check_escrow_share(
                    referee.group, escrow, body.holder, int.from_bytes(body.share, "big")):
                raise StepFailed(f"the share of his key he disclosed for seat {body.holder} does not match his "
                                 "escrow: it was false")

    def _check_with_proofs(self, blind: _Hand, entry: Entry) -> None:
        """Shares, covers and escrows: the referee's checks with proofs on, against a copy of its state."""
        referee = blind.referee
        body = entry.body
        from engine.fairness_v2.opening import check_share
        from engine.fairness_v2.referee import share_of
        from engine.fairness_v2.threshold import check_escrow
        if isinstance(body, Shares):
            for item in body.items:
                if item.position >= len(referee.deck) or item.position < 0:
                    raise StepFailed(f"deck position {item.position} does not exist")
                if not check_share(referee.group, referee.seats[entry.sender].elgamal_key, referee.deck,
                                   share_of(entry.sender, item), blind.header.table, blind.hand_id):
                    raise StepFailed(f"the share of deck position {item.position} does not match its proof")
        elif isinstance(body, Escrow):
            from engine.fairness_v2.threshold import KeyEscrow
            escrow = KeyEscrow(entry.sender, body.threshold, tuple(body.commitments), tuple(body.holders))
            if not check_escrow(referee.group, escrow, referee.seats[entry.sender].elgamal_key, len(referee.seats)):
                raise StepFailed("the key escrow does not match the player's key")
        elif isinstance(body, Covers):
            from engine.fairness_v2.elgamal import DleqProof
            from engine.fairness_v2.threshold import CoverShare, check_cover
            escrow_of = referee.escrows.get(body.dealer)
            if escrow_of is None:
                raise StepFailed("covers for a player without an escrow")
            for item in body.items:
                if not 0 <= item.position < len(referee.deck):
                    raise StepFailed(f"deck position {item.position} does not exist")
                cover = CoverShare(body.dealer, entry.sender, item.position, item.share,
                                   DleqProof(int.from_bytes(item.challenge, "big"),
                                             int.from_bytes(item.response, "big")))
                if not check_cover(referee.group, escrow_of, referee.deck[item.position].c1, cover,
                                   blind.header.table, blind.hand_id):
                    raise StepFailed(f"the cover of deck position {item.position} does not match its proof")

    # --- the betting ---------------------------------------------------------------------------------

    async def _play(self, blind: _Hand) -> None:
        table = self.state.engine
        # one who dropped during the dealing is dealt in as the transcript says and folded at once (his seat
        # would otherwise leave the table's deal, and the deck positions with it): connected for the deal only
        dropped = [blind.names[seat] for seat in sorted(blind.gone)
                   if table.seat_of(blind.names[seat]) is not None and table.players[seat].disconnected]
        for name in dropped:
            table.reconnect(name, self.room.clock())
        try:
            await self._start_and_play(blind)
        finally:
            for name in dropped:
                if table.seat_of(name) is not None and not self.room.connected(name):
                    table.disconnect(name, self.room.clock())

    async def _start_and_play(self, blind: _Hand) -> None:
        table = self.state.engine
        plan = self._plan()
        if plan is None or not self._as_dealt(blind.header, plan):
            # someone sat down, left or sat out during the dealing, or the level went up: this deal is void
            # (nothing was bet), the next one is made for the table as it is now
            log.info("host-blind hand %s not started: the table changed during the dealing", blind.hand_id)
            return
        if blind.referee.replay.hand.is_over:
            # all in from the blinds and antes, nobody left to act: the table's hand ends inside its start, so
            # its showdown (board, hands turned up) is opened first and dealt in its deck, never placeholders
            await self._open_due(blind)
            if self._void_table(blind):
                return
        filler = iter(card for card in full_deck() if card not in blind.early.values())
        placeholders = [blind.early[position] if position in blind.early else next(filler) for position in range(52)]
        if table.positions is None:
            table.set_first_button(blind.header.button)  # the players' draw (R-DEAL-1), as the header says
        try:
            events = table.start_hand(placeholders, self.room.clock(),
                                      button_draw_deck=full_deck() if table.positions is None else None)
        except Exception as problem:
            log.warning("host-blind hand %s not started: %s", blind.hand_id, problem)
            return
        blind.started = True
        self._hand_log = table.hand or table.last_hand  # a hand may end inside start_hand: its log is the last
        self.owner.hand_started(self.state, blind.hand_id, events)
        self.publish(events)
        # those timed out during the dealing and those absent at the deal, in the referee's order (the same last
        blind.folds = sorted(set(blind.folds) | set(blind.absent))  # player standing)
        self._fold_pending(blind)
        if self._void_table(blind):
            return
        while table.hand_running:
            if blind.referee.violations:
                log.error("host-blind hand %s: %s", blind.hand_id, blind.referee.violations[0])
            turn = table.to_act()
            deadline = table.next_deadline()
            item = None
            timeout = None if deadline is None else max(0.0, deadline - self.room.clock())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    item = await blind.actions.get()
            if item is not None:
                seat, entry, received = item
                if entry is None:  # he left: folded through the transcript, stood up after the hand
                    self._time_out(blind, seat, "left")
                    await self._open_due(blind)
                    if self._void_table(blind):
                        continue
                    self._fold_pending(blind)
                    with contextlib.suppress(TableRuleError, NotSeated):
                        self.publish(table.leave(blind.names[seat], self.room.clock()))
                else:
                    await self._action(blind, seat, entry, received)
                    if not self._void_table(blind):
                        self._fold_pending(blind)
                continue
            now = self.room.clock()
            if turn is not None and now >= turn[1] and table.to_act() == turn:
                seat = turn[0]
                self._time_out(blind, seat, "bet")
                await self._open_due(blind)
                if not self._void_table(blind):
                    self._fold_pending(blind)
                continue
            self.publish(table.tick(now))

    async def _action(self, blind: _Hand, seat: int, entry: Entry, received: float) -> None:
        table = self.state.engine
        referee = blind.referee
        legal = referee.replay.hand.legal_actions()
        name = blind.names[seat]
        session_error = None
        body = entry.body
        action: Action | None = Show() if isinstance(body, Shares) and body.purpose == "show" else \
            engine_action(body) if isinstance(body, Act) else None
        if legal is None or legal.seat != seat:
            session_error = RoomError("not_your_turn", "it is not your turn")
        elif action is None or not (legal.allows(action) if not isinstance(action, Muck) else legal.can_muck):
            session_error = RoomError("illegal_action", f"{kind_of(body)} is not a legal action now")
        else:
            try:
                await self._check(blind, seat, entry)
            except _Stale:
                session_error = RoomError("stale_entry", "sign your action again against the latest entry")
            except StepFailed as problem:
                session_error = RoomError("illegal_action", str(problem))
        if session_error is not None:
            self._send_to(name, protocol.error(session_error.code, str(session_error), in_reply_to="blind_entry"))
            return
        assert action is not None
        self._chain(blind, entry)
        if isinstance(action, Show):
            self._place(blind, referee.positions_of(seat))
        await self._open_due(blind)
        if self._void_table(blind):
            return
        if table.in_hand(name) and table.to_act() is not None and table.to_act()[0] == seat:  # type: ignore[index]
            try:
                self.publish(table.act(name, action, min(received, table.to_act()[1])))  # type: ignore[index]
            except Exception as problem:
                log.error("host-blind hand %s: the table refused %s's %s: %s", blind.hand_id, name, action, problem)

    async def _open_due(self, blind: _Hand) -> None:
        """Open what the referee says the next engine step needs: hands turned up at an all-in, the board."""
        referee = blind.referee
        for _ in range(12):
            if referee.voided:
                return
            turned = [event.seat for event in referee.replay.hand.events if isinstance(event, HandShown)
                      and event.seat not in referee.shown and event.seat not in blind.gone]
            await self._ask(blind, turned, "show", opening=True)  # every hand turned up, in one round
            for seat in turned:
                if seat in referee.shown:
                    self._place(blind, referee.positions_of(seat))
            due = [position for position in referee.due_board() if position not in blind.placed]
            if not due:
                return
            await self._ask(blind, [seat for seat in self._present(blind) if any(
                seat not in referee.shares.get(position, {}) for position in due)], "board", opening=True)
            await self._cover(blind)
            blind.writer.checkpoint()
            self._place(blind, due)

    def _place(self, blind: _Hand, positions: Iterable[int]) -> None:
        hand = self.state.engine.hand
        opened: dict[int, Card] = {}
        for position in positions:
            card = blind.referee.open_position(position)
            if card is not None and position not in blind.placed:
                opened[position] = card
        if not opened:
            return
        if not blind.started:  # opened before the table's hand starts: dealt in its deck (_start_and_play)
            blind.early.update(opened)
            blind.placed.update(opened)
        elif hand is not None:
            hand.place_cards(opened)  # type: ignore[attr-defined]
            blind.placed.update(opened)

    async def _end(self, blind: _Hand) -> None:
        table = self.state.engine
        self._checkpoint(blind)
        if not blind.started:  # void before any chip moved (a dropout nobody could cover, the table changed)
            self._to_hand(blind, protocol.message("blind_end", table=self.state.config.id, hand=blind.hand_id,
                                                  void=True))
            self._sit_out_gone(blind)
            return
        transcript = blind.writer.transcript()
        self.transcripts = [*self.transcripts, transcript][-self.transcripts_kept:]
        outcome = blind.referee.finish()
        last = table.last_hand
        if blind.started and not table.hand_running and isinstance(last, Hand) \
                and dict(last.stacks()) != {seat: outcome.stacks.get(seat) for seat in last.stacks()}:
            log.error("host-blind hand %s: the table's result %s differs from the transcript's %s (entries: %s)",
                      blind.hand_id, dict(last.stacks()), outcome.stacks,
                      " ".join(f"{entry.sender}:{kind_of(entry.body)}" for entry in transcript.entries))
        if self._owner_future is not None:
            future, self._owner_future = self._owner_future, None
            await future
        dealt_in = set(blind.names.values())
        self._finished[blind.hand_id] = frozenset(dealt_in)
        self.room.hand_finished(self.state.config.id, blind.hand_id, dealt_in)
        self._last_hand = blind.hand_id
        self._to_hand(blind, protocol.message("blind_end", table=self.state.config.id, hand=blind.hand_id,
                                              void=False, checkpoint=encode(transcript.checkpoints[-1])))
        self._sit_out_gone(blind)
        self.hands_played += 1

    def _sit_out_gone(self, blind: _Hand) -> None:
        """Who missed a step is out until he sits in himself (as a missed shuffle) — except where the table deals
        absent players in (a tournament): there his next hand is dead if he is still away, else he plays it."""
        if self.state.engine.policy.deals_in_absent:
            return
        for seat in sorted(blind.gone):
            self.sit_out_for_missing(blind.names[seat])

    @staticmethod
    def _checkpoint(blind: _Hand) -> None:
        checkpoints = blind.writer.checkpoints
        if not checkpoints or checkpoints[-1].seq != blind.writer.seq:
            blind.writer.checkpoint()

    def _to_hand(self, blind: _Hand, message: dict[str, Any]) -> None:
        shared = protocol.shared(message)
        for name in blind.names.values():
            self._send_to(name, shared)

    # --- events out ----------------------------------------------------------------------------------

    def publish(self, events: Iterable[Event]) -> None:
        """As any table, but the engine's placeholder hole cards never go out: everyone, the owner included,
        hears only that cards were dealt face down (each client puts in its own)."""
        super().publish(face_down(events))

    def _hand_finished(self) -> None:
        hand, self._hand_log = self._hand_log, None
        blind = self._blind
        if hand is None or blind is None:
            return
        self._checkpoint(blind)  # the hand is over: what is kept is the whole signed hand
        transcript = blind.writer.transcript()
        kept: dict[str, Any] = {"host_blind": msgspec.to_builtins(transcript)}
        draw = self._button_draw
        if draw is not None and draw.draw_id == button_draw_id(blind.hand_id):  # the first hand's button
            kept["button_draw"] = draw.to_json()
        self._owner_future = self.owner.hand_finished(self.state, blind.hand_id, face_down(hand.events), kept)

    # --- a player back mid-hand -----------------------------------------------------------------------

    def resync(self, name: str) -> None:
        """``name``'s connection dropped and came back during a hand: his keys are on his machine (his client
        keeps its part of the hand across connections), so he resumes — the header and every entry so far (his
        client skips what it had), the hand's events as his seat sees them (hole cards face down: his client
        puts in its own), the action request if it is his turn, and the step asked of him if one is. Back after
        his step's deadline or his clock, he was timed out meanwhile: folded, the hand went on."""
        blind, table, table_id = self._blind, self.state.engine, self.state.config.id
        seat = table.seat_of(name)
        future = self._seats.get(name)
        if self._seat_hand is not None and future is not None and not future.done() and seat is not None:
            fresh = {"fresh": True} if self.owner.kind == "pool" else {}  # as first asked (_collect_seats)
            self._send_to(name, protocol.blind_request(table_id, self._seat_hand, "seat", seat, self.step_seconds,
                                                       stack=table.players[seat].stack, **fresh))  # asked again
            return
        if blind is None or seat is None or blind.names.get(seat) != name or seat in blind.gone:
            return
        self._send_to(name, protocol.blind_header(table_id, blind.hand_id, encode(blind.header)))
        for entry in blind.writer.entries:
            self._send_to(name, protocol.blind_entry(table_id, blind.hand_id, encode(entry)))
        hand = table.hand
        if blind.started and hand is not None and table.in_hand(name):
            for body in view_bodies(face_down(hand.events), seat):
                self._send_to(name, protocol.event(table_id, blind.hand_id, body))
            turn, options = table.to_act(), hand.legal_actions()
            if turn is not None and options is not None and turn[0] == options.seat == seat:
                self._send_to(name, protocol.action_request(
                    table_id, blind.hand_id, seat, legal_to_json(options), round(max(0.0, turn[1] - self.room.clock()),
                                                                                 3)))
        request, answer = blind.requests.get(seat), blind.answers.get(seat)
        if request is not None and answer is not None and not answer.done():
            self._send_to(name, request)

    # --- messages in ---------------------------------------------------------------------------------

    def handle(self, session: Listener, message: Inbound, now: float) -> None:
        if isinstance(message, BlindSeat):
            self._seat_message(session, message)
        elif isinstance(message, BlindComplaint):
            self._complaint_message(session, message)
        elif isinstance(message, BlindEntry):
            self._entry_message(session, message, now)
        elif isinstance(message, protocol.ActionMessage):
            raise RoomError("host_blind_only", "this table deals host-blind: your client signs its actions")
        else:
            raise RoomError(NO_HAND, "this table deals host-blind: no commit or reveal here")

    def _seat_message(self, session: Listener, message: BlindSeat) -> None:
        future = self._seats.get(session.name)
        if message.hand != self._seat_hand or future is None or future.done():
            raise RoomError(NO_HAND, f"no keys are asked for hand {message.hand!r}")
        table = self.state.engine
        seat = table.seat_of(session.name)
        try:
            record = _RECORD.decode(message.record)
        except msgspec.ValidationError as problem:
            raise RoomError(protocol.BAD_FIELD, f"record: {problem}") from None
        if seat is None or record.seat != seat or record.name != session.name \
                or record.stack != table.players[seat].stack:
            raise RoomError(protocol.BAD_FIELD, "record: not your seat, name or stack")
        proof = SchnorrProof(int.from_bytes(record.key_proof[0], "big"), int.from_bytes(record.key_proof[1], "big"))
        group = GROUPS[DEFAULT_GROUP.name]
        try:
            ok = schnorr_verify(group, record.elgamal_key, proof, key_context(self.state.config.id, seat))
        except Exception:
            ok = False
        if not ok or len(record.signing_key) != 32 or len(record.box_key) != 32:
            raise RoomError(protocol.BAD_FIELD, "record: the key proof does not verify")
        future.set_result(record)

    def _complaint_message(self, session: Listener, message: BlindComplaint) -> None:
        """A player's check of a relayed entry failed. A false escrow share sealed to him is settled between
        steps (:meth:`_settle_disputes`); anything else the room checked itself before relaying it, so it is
        kept in the host's log, naming who complained of whose entry."""
        blind = self._blind
        if blind is None or message.hand != blind.hand_id:
            raise RoomError(NO_HAND, f"hand {message.hand!r} is not being dealt at {self.state.config.id}")
        seat = next((seat for seat, name in blind.names.items() if name == session.name), None)
        if seat is None:
            raise RoomError("not_dealt_in", f"you are not dealt into hand {message.hand}")
        what = clean_text(message.what)[:COMPLAINT_CHARACTERS]
        if message.dealer is not None:
            dealer = message.dealer
            escrow = blind.referee.escrows.get(dealer)
            if dealer == seat or escrow is None or seat not in escrow.holders:
                raise RoomError(protocol.BAD_FIELD, f"dealer: seat {dealer} dealt you no share of his key")
            if (seat, dealer) not in blind.disputes and (dealer, seat) not in blind.referee.disclosed:
                log.warning("host-blind hand %s: %s says the share of %s's key sealed to him is false: %s must "
                            "disclose it", blind.hand_id, session.name, blind.names[dealer], blind.names[dealer])
                blind.disputes.append((seat, dealer))
            return
        entries = blind.writer.entries
        if message.seq is None or not 0 <= message.seq < len(entries):
            raise RoomError(protocol.BAD_FIELD, "seq: no such entry in this hand")
        sender = entries[message.seq].sender
        accused = "the host" if sender == HOST_SENDER else blind.names.get(sender, f"seat {sender}")
        log.warning("host-blind hand %s: %s reports entry %d (from %s): %s — the room checked it before relaying "
                    "it", blind.hand_id, session.name, message.seq, accused, what)

    def _entry_message(self, session: Listener, message: BlindEntry, now: float) -> None:
        blind = self._blind
        if blind is None or message.hand != blind.hand_id:
            raise RoomError(NO_HAND, f"hand {message.hand!r} is not being dealt at {self.state.config.id}")
        seat = next((seat for seat, name in blind.names.items() if name == session.name), None)
        if seat is None:
            raise RoomError("not_dealt_in", f"you are not dealt into hand {message.hand}")
        try:
            entry = _ENTRY.decode(message.entry)
        except msgspec.ValidationError as problem:
            raise RoomError(protocol.BAD_FIELD, f"entry: {problem}") from None
        answer = blind.answers.get(seat)
        if answer is not None and not answer.done():
            answer.set_result(entry)
        elif isinstance(entry.body, Act | Shares) and blind.started:
            blind.actions.put_nowait((seat, entry, now))
        else:
            raise RoomError("too_early", "nothing is asked of you now")


class _Stale(Exception):
    """An entry signed against an older head: the client signs again."""


def _turned_up(referee: Referee) -> bool:
    """Whether the referee's hand turned hands up: a showdown, whose cards are to be opened."""
    return any(isinstance(event, HandShown) for event in referee.replay.hand.events)


def face_down(events: Iterable[Event]) -> list[Event]:
    """Placeholder hole cards as the public trace only (``cards_dealt_face_down``), for everyone."""
    return [CardsDealtFaceDown(event.seat, len(event.cards)) if isinstance(event, HoleCardsDealt) else event
            for event in events]


def runner_for(settings: RunnerSettings | None, host_key: asyncssh.SSHKey | None,
               step_seconds: float = STEP_SECONDS) -> Any:
    """The room's driver factory: a host-blind table's runner, else the commit–reveal one."""

    def make(room: Any, state: TableState) -> TableRunner:
        if state.config.host_blind and host_key is not None:
            return HostBlindRunner(room, state, settings, host_key=host_key, step_seconds=step_seconds)
        return TableRunner(room, state, settings)

    return make


__all__ = ["HostBlindRunner", "face_down", "runner_for"]
