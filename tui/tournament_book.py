"""What the player knows of the room's tournaments (issue 18), and its words: pure, no widget.

The room sends (hosting/tournament_messages.py): each tournament's lobby row (in ``lobby.tournaments``), the
tournament screen's state (a ``tournament`` message, asked with the ``tournament`` request's ``state``) and
each director event as a ``tournament_event`` (``{"tournament": id, "event": {"kind": …}}``). A table of a
tournament is the room table ``<tournament>.<number>``.

:class:`TournamentBook` keeps them; :func:`event_words` says an event to the player (None: nothing to say);
:func:`screen_text` is the tournament screen; :func:`clock_text` the line on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import variants
from engine.table_events import LevelChanged
from engine.text import counted

TYPE_NAMES = {"sit_and_go": "Sit & Go", "scheduled": "MTT", "heads_up": "Heads-up", "shootout": "Shootout",
              "spin": "Spin", "fifty50": "Fifty50", "double_or_nothing": "Double or Nothing"}
STATUS_NAMES = {"announced": "announced", "registering": "registering", "late_registration": "late registration",
                "running": "running", "break": "on break", "final_table": "final table", "complete": "complete",
                "cancelled": "cancelled"}
MOVE_REASONS = {"balance": "to balance the tables", "table_broken": "your table was broken",
                "final_table": "the final table"}
DEAL_KINDS = ("equal", "chips", "icm", "chip_chop")
DEAL_NAMES = {"equal": "equal shares", "chips": "chip-proportional", "icm": "ICM", "chip_chop": "chip-chop"}


def ordinal(number: int) -> str:
    """Examples.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def minutes(seconds: float) -> str:
    """Examples.

    >>> minutes(0), minutes(59.4), minutes(61), minutes(3725)
    ('0:00', '0:59', '1:01', '62:05')
    """
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def split_table_id(table_id: str) -> tuple[str, int] | None:
    """A tournament table's (tournament, number), or None for another table.

    >>> split_table_id("sng.2"), split_table_id("holdem-1-2")
    (('sng', 2), None)
    """
    tournament, dot, number = table_id.rpartition(".")
    return (tournament, int(number)) if dot and tournament and number.isdigit() else None


def buy_in_text(row: dict[str, Any]) -> str:
    """Examples.

    >>> buy_in_text({"buy_in": [100, 10], "knockout": 20}), buy_in_text({"buy_in": [0, 0]})
    ('100+20+10', 'free')
    """
    buy_in, fee = [*(row.get("buy_in") or [0, 0]), 0, 0][:2]
    knockout = int(row.get("knockout") or 0)
    if not buy_in and not fee and not knockout:
        return "free"
    return f"{buy_in}+{knockout}+{fee}" if knockout else f"{buy_in}+{fee}"


def start_text(row: dict[str, Any], clock: Any = None) -> str:
    """When it starts: a Sit & Go's size, a scheduled start's time (local, HH:MM), or that it is under way.

    >>> start_text({"starts_when": 6, "status": "registering"}), start_text({"status": "running"})
    ('starts at 6', 'started')
    """
    import time

    status = str(row.get("status") or "")
    if status not in ("announced", "registering"):
        return "started"
    if row.get("starts_when"):
        return f"starts at {row['starts_when']}"
    start = row.get("start")
    if isinstance(start, int | float):
        return time.strftime("%H:%M", (clock or time.localtime)(start))
    return "—"


def lobby_cells(row: dict[str, Any]) -> tuple[str, ...]:
    """A tournament's lobby row (R-LOBBY-1): name, type, game, buy-in + fee, registered / max, start, status.

    >>> lobby_cells({"id": "sng", "name": "SNG", "type": "sit_and_go", "game": "texas_holdem", "buy_in": [100, 10],
    ...              "registered": 2, "max": 6, "starts_when": 6, "status": "registering", "private": True})
    ('SNG 🔒', 'Sit & Go', "Hold'em", '100+10', '2/6', 'starts at 6', 'registering')
    >>> lobby_cells({"name": "Spin", "type": "spin", "expected_return": 100.0})[1]
    'Spin (100% back)'
    """
    name = str(row.get("name") or row.get("id")) + (" 🔒" if row.get("private") else "")
    kind = TYPE_NAMES.get(str(row.get("type")), str(row.get("type")))
    expected = row.get("expected_return")
    if isinstance(expected, int | float):  # a Spin: its multiplier table's expected prize, of the buy-ins
        kind += f" ({expected:g}% back)"
    return (name, kind,
            variants.game_name(str(row.get("game") or ""), short=True), buy_in_text(row),
            f"{row.get('registered', 0)}/{row.get('max', 0)}", start_text(row),
            STATUS_NAMES.get(str(row.get("status")), str(row.get("status"))))


@dataclass
class Clock:
    """A tournament's clock as last heard, counted down locally (``at``: our monotonic time then)."""

    level: int = 0
    blinds: tuple[int, ...] = ()
    next_level_in: float | None = None
    next_blinds: tuple[int, ...] = ()
    on_break: bool = False
    at: float = 0.0

    def left(self, now: float) -> float | None:
        return None if self.next_level_in is None else max(0.0, self.next_level_in - (now - self.at))


def blinds_text(blinds: tuple[int, ...] | list[int]) -> str:
    """Examples.

    >>> blinds_text((10, 20, 0, 0)), blinds_text([50, 100, 10, 0]), blinds_text([100, 200, 0, 200])
    ('10/20', '50/100 ante 10', '100/200 BB ante 200')
    """
    small, big, ante, big_blind_ante = [*blinds, 0, 0, 0, 0][:4]
    text = f"{small}/{big}"
    if ante:
        text += f" ante {ante}"
    if big_blind_ante:
        text += f" BB ante {big_blind_ante}"
    return text


def clock_text(clock: Clock, now: float) -> str:
    """The line on a tournament table: the level and the time to the next, or the break's countdown.

    >>> clock_text(Clock(3, (30, 60, 0, 0), 95.0, (50, 100, 0, 0), False, 10.0), 15.0)
    'Level 3 30/60 · next 50/100 in 1:30'
    >>> clock_text(Clock(3, (30, 60, 0, 0), 200.0, (50, 100, 0, 0), True, 0.0), 20.0)
    'Break: play resumes in 3:00 at 50/100'
    """
    left = clock.left(now)
    if clock.on_break:
        return f"Break: play resumes in {minutes(left or 0)}" + (
            f" at {blinds_text(clock.next_blinds)}" if clock.next_blinds else "")
    text = f"Level {clock.level} {blinds_text(clock.blinds)}"
    if left is not None:
        text += f" · next {blinds_text(clock.next_blinds)} in {minutes(left)}" if clock.next_blinds else \
            f" · next in {minutes(left)}"
    return text


@dataclass
class TournamentBook:
    """The tournaments as the room last told them, for one player ``me``."""

    me: str = ""
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    states: dict[str, dict[str, Any]] = field(default_factory=dict)
    clocks: dict[str, Clock] = field(default_factory=dict)
    playing: set[str] = field(default_factory=set)  # tournaments where I hold a live entry
    places: dict[str, int] = field(default_factory=dict)  # my finishing place in each (when out)
    prizes: dict[str, int] = field(default_factory=dict)
    deal: dict[str, dict[str, Any]] = field(default_factory=dict)  # the deal on the table of each
    queued: dict[str, dict[str, Any]] = field(default_factory=dict)
    """A request the room takes only between hands (a deal, a rebuy, the add-on), kept until my table's hand
    ends: its fields by tournament."""
    rebuy_allowed: dict[str, bool] = field(default_factory=dict)  # the room's last word: the window opens once
    hand_asked: dict[str, str] = field(default_factory=dict)  # the hand after which the state was last asked
    registering: dict[str, str | None] = field(default_factory=dict)
    """Registrations asked (the password typed, if any), waiting for the room's state to say whether a ticket
    could pay: then the player chooses ticket or balance."""
    left: set[str] = field(default_factory=set)
    """Tables the player was moved from: their last messages (sent before the move) open no tab again."""

    def name(self, tournament: str) -> str:
        row = self.states.get(tournament) or self.rows.get(tournament) or {}
        return str(row.get("name") or tournament)

    def table_name(self, table_id: str) -> str:
        """``Sit & Go sng · table 2`` for a tournament table."""
        parts = split_table_id(table_id)
        if parts is None or (parts[0] not in self.rows and parts[0] not in self.states):
            return table_id
        return f"{self.name(parts[0])} · table {parts[1]}"

    def set_rows(self, rows: list[dict[str, Any]]) -> None:
        self.rows = {str(row["id"]): row for row in rows if isinstance(row, dict) and "id" in row}

    def set_state(self, state: dict[str, Any], now: float) -> None:
        """A ``tournament`` message (the tournament screen's state)."""
        tournament = str(state.get("id"))
        self.states[tournament] = state
        clock = state.get("clock")
        if isinstance(clock, dict):
            self.clocks[tournament] = Clock(
                int(clock.get("level") or 0), tuple(int(part) for part in clock.get("blinds") or ()),
                clock.get("next_level_in"), tuple(int(part) for part in clock.get("next_blinds") or ()),
                bool(clock.get("on_break")), now)
        mine = [row for row in state.get("players") or [] if row.get("name") == self.me]
        if any(row.get("live") for row in mine) and state.get("phase") not in ("complete", "cancelled"):
            self.playing.add(tournament)
        else:
            self.playing.discard(tournament)
        deal = state.get("deal")
        if isinstance(deal, dict):
            self.deal[tournament] = deal
        else:
            self.deal.pop(tournament, None)

    def level_changed(self, tournament: str, level: LevelChanged, now: float) -> None:
        """A tournament's table said its level (``level.level``, from its next hand): the clock shows it, and until
        the room's next state the next level and its time come from the structure we have.

        >>> book = TournamentBook(states={"t": {"levels": [{"small_blind": 10, "big_blind": 20, "seconds": 60},
        ...     {"small_blind": 20, "big_blind": 40, "seconds": 90}, {"small_blind": 30, "big_blind": 60}]}})
        >>> book.level_changed("t", LevelChanged(5, 20, 40, 0, 0, 0, level=2), now=100.0)
        >>> clock_text(book.clocks["t"], 100.0)
        'Level 2 20/40 · next 30/60 in 1:30'
        """
        clock = self.clocks.setdefault(tournament, Clock())
        clock.level = level.level
        clock.blinds = (level.small_blind, level.big_blind, level.ante, level.big_blind_ante)
        clock.on_break = False
        levels = [item for item in (self.states.get(tournament) or {}).get("levels") or [] if "break" not in item]
        clock.next_level_in, clock.next_blinds, clock.at = None, (), now
        if clock.level < len(levels):
            upcoming = levels[clock.level]
            clock.next_blinds = tuple(int(upcoming.get(key) or 0) for key in
                                      ("small_blind", "big_blind", "ante", "big_blind_ante"))
            clock.next_level_in = float(levels[clock.level - 1].get("seconds") or 0) or None

    def event(self, tournament: str, event: dict[str, Any], now: float) -> None:
        """What a director event changes in what we know (the words are :func:`event_words`')."""
        kind = event.get("kind")
        if kind == "break_started":
            self.clocks.setdefault(tournament, Clock()).on_break = True
        elif kind == "break_ended":
            self.clocks.setdefault(tournament, Clock()).on_break = False
        elif kind in ("player_seated_at", "rebought", "added_on") and event.get("player") == self.me:
            self.playing.add(tournament)
        elif kind in ("eliminated", "ranked") and event.get("player") == self.me:
            if event.get("place"):  # a shootout round's or late registration's place comes later (ranked)
                self.places[tournament] = int(event["place"])
            if kind == "eliminated":
                self.playing.discard(tournament)
        elif kind == "prize_awarded" and event.get("player") == self.me:
            self.prizes[tournament] = self.prizes.get(tournament, 0) + int(event.get("amount") or 0)
            self.places.setdefault(tournament, int(event.get("place") or 0))
        elif kind == "deal_proposed":
            self.deal[tournament] = {"kind": event.get("deal"),
                                     "proposer": event.get("proposer"),
                                     "shares": [list(share) for share in event.get("shares") or []],
                                     "accepted": [event.get("proposer")]}  # his proposal is his acceptance
        elif kind == "deal_accepted" and tournament in self.deal:
            self.deal[tournament].setdefault("accepted", []).append(event.get("player"))
        elif kind in ("deal_declined", "completed", "tournament_cancelled"):
            self.deal.pop(tournament, None)
            if kind != "deal_declined":
                self.playing.discard(tournament)


def read_event(body: Any) -> dict[str, Any]:
    """A ``tournament_event``'s body with the event's name under ``kind`` and a deal's kind under ``deal``
    (the one encoding names the event ``event``, and :class:`DealProposed` has a field ``kind``).

    >>> body = read_event({"event": "deal_proposed", "kind": "icm", "proposer": "ana", "shares": []})
    >>> body["kind"], body["deal"]
    ('deal_proposed', 'icm')
    """
    if not isinstance(body, dict):
        return {}
    if isinstance(body.get("event"), str):
        return {**body, "kind": body["event"], "deal": body.get("kind")}
    return {**body, "deal": body.get("blind", body.get("deal"))}


def event_words(book: TournamentBook, tournament: str, event: dict[str, Any]) -> str | None:
    """An event said to ``book.me`` (None: the screen says nothing of it). Prizes and chips in numbers."""
    me, kind, name = book.me, event.get("kind"), book.name(tournament)
    player = event.get("player")
    if kind == "registered" and player == me:
        return f"You are registered in {name} (entry {event.get('entry')})."
    if kind == "unregistered" and player == me:
        return f"You are unregistered from {name}."
    if kind == "tournament_started":
        return (f"{name} has started: {counted(event.get('entrants'), 'player')}, "
                f"{event.get('starting_stack')} chips each.")
    if kind == "player_seated_at" and player == me:
        return f"{name}: you are at table {event.get('table')}, seat {int(event.get('seat') or 0) + 1}, " \
               f"with {event.get('stack')} chips."
    if kind == "player_moved" and player == me:
        reason = MOVE_REASONS.get(str(event.get("reason")), str(event.get("reason")))
        return f"{name}: moved to table {event.get('to_table')}, seat {int(event.get('to_seat') or 0) + 1} " \
               f"({reason}), with {event.get('stack')} chips."
    if kind == "break_started":
        return f"{name}: break."
    if kind == "break_ended":
        return f"{name}: the break is over, play resumes."
    if kind == "hand_for_hand":
        return f"{name}: hand-for-hand play" + (" — every table plays one hand, then waits." if event.get("on")
                                                 else " is over.")
    if kind == "final_table":
        return f"{name}: the final table — {counted(event.get('players'), 'player')} at table {event.get('table')}."
    if kind == "rebuy_offered" and player == me:
        return f"{name}: your chips are gone — you may rebuy."
    if kind == "rebought" and player == me:
        return f"{name}: rebuy {event.get('count')}: +{event.get('chips')} chips."
    if kind == "added_on" and player == me:
        return f"{name}: add-on: +{event.get('chips')} chips."
    if kind == "eliminated" and player == me:
        place = event.get("place")
        return f"{name}: you are out" + (f" in {ordinal(int(place))} place." if place else ".")
    if kind == "eliminated" and event.get("place"):
        return f"{name}: {player} is out in {ordinal(int(event['place']))} place."
    if kind == "ranked" and player == me:
        return f"{name}: you finished {ordinal(int(event.get('place') or 0))}."
    if kind == "prize_awarded" and player == me:
        prize = f"a ticket to {event['ticket_to']}" if event.get("ticket_to") else f"{event.get('amount')} chips"
        return f"{name}: you finished {ordinal(int(event.get('place') or 0))} and won {prize}."
    if kind == "bounty_won" and event.get("winner") == me:
        return f"{name}: bounty for knocking out {event.get('loser')}: {event.get('amount')} chips."
    if kind == "deal_proposed":
        mine = next((amount for who, amount in event.get("shares") or [] if who == me), None)
        deal = DEAL_NAMES.get(str(event.get("deal")), "")
        if event.get("proposer") == me:  # proposing is accepting: the others are asked
            return f"{name}: you propose a deal ({deal}): you would get {mine} chips; the others are asked."
        return f"{name}: {event.get('proposer')} proposes a deal ({deal})" + (
            f": you would get {mine} chips." if mine is not None else ".")
    if kind == "deal_accepted":
        return f"{name}: {'you accept' if player == me else f'{player} accepts'} the deal."
    if kind == "deal_declined":
        return f"{name}: {'you decline' if player == me else f'{player} declines'} the deal; play goes on."
    if kind == "completed":
        how = {"deal": "by a deal", "time": "at the time limit"}.get(str(event.get("how")), "")
        winner = event.get("winner")
        return f"{name} is complete" + (f" {how}" if how else "") + (f": {winner} wins." if winner else ".")
    if kind == "tournament_cancelled":
        return f"{name} is cancelled: {event.get('reason')}."
    if kind == "credited" and player == me:
        return f"{name}: {event.get('amount')} chips back to your balance ({event.get('reason')})."
    return None


def screen_text(state: dict[str, Any], me: str, clock: Clock | None, now: float) -> list[str]:
    """The tournament screen's lines: what it is, the clock, prize pool and payouts, what is open to me,
    players by chips (bounties in a knockout), tables with their counts and mine, the structure, a deal."""
    lines = [f"{state.get('name')} — {TYPE_NAMES.get(str(state.get('format')), state.get('format'))}, "
             f"{variants.game_name(str(state.get('game') or ''), short=True)}, buy-in {buy_in_text(state)}, "
             f"{STATUS_NAMES.get(str(state.get('status')), state.get('status'))}"]
    lines.append(f"Players {state.get('players_left') if state.get('players_left') is not None else '—'} left of "
                 f"{state.get('registered')} (max {state.get('max')}) · starting chips {state.get('starting_chips')}"
                 f" · {start_text(state)}")
    if clock is not None and clock.level:
        lines.append(f"Clock: {clock_text(clock, now)}")
    pool = int(state.get("pool") or 0) + int(state.get("paid_out") or 0)
    lines.append(f"Prize pool {pool}" + (f" (paid out {state.get('paid_out')})" if state.get("paid_out") else ""))
    payouts = [int(amount) for amount in state.get("payouts") or []]
    lines.append("Payouts: " + (", ".join(f"{ordinal(place)} {amount}" for place, amount in
                                          enumerate(payouts, start=1)) or "—"))
    available = state.get("available") or {}
    lines.append("Open now: " + (", ".join(word for key, word in (
        ("register", "registration"), ("late_registration", "late registration"), ("rebuy", "rebuy (R)"),
        ("add_on", "add-on (A)")) if available.get(key)) or "nothing"))
    if state.get("hand_for_hand"):
        lines.append("Hand-for-hand play")
    knockout = bool(state.get("knockout"))
    lines.append("")
    lines.append("Rank  Player            Chips" + ("  Bounty" if knockout else "") + "  Table")
    for row in state.get("players") or []:
        if not row.get("live"):
            continue
        mark = "▶" if row.get("name") == me else " "
        line = f"{mark}{int(row.get('rank') or 0):>3}  {str(row.get('name'))[:16]:<16} {int(row.get('chips') or 0):>6}"
        if knockout:
            line += f"  {int(row.get('bounty') or 0):>6}"
        lines.append(line + f"  {row.get('table') or '—'}")
    out = [row for row in state.get("players") or [] if not row.get("live")]
    if out:
        lines.append("Out: " + ", ".join(f"{row.get('name')} ({ordinal(int(row['place']))})" if row.get("place")
                                         else str(row.get("name")) for row in sorted(
                                             out, key=lambda row: row.get("place") or 0)))
    lines.append("")
    my_table = state.get("my_table")
    lines.append("Tables: " + (", ".join(f"{table.get('id')} ({counted(table.get('players'), 'player')})"
                                         + (" ← my table" if table.get("id") == my_table else "")
                                         for table in state.get("tables") or []) or "—"))
    levels = state.get("levels") or []
    level_now = clock.level if clock is not None else 0
    structure, number = [], 0
    for item in levels:
        if "break" in item:
            structure.append(f"break {minutes(float(item['break']))}")
            continue
        number += 1
        blinds = [int(item.get(key) or 0) for key in ("small_blind", "big_blind", "ante", "big_blind_ante")]
        text = f"{number}: {blinds_text(blinds)}"
        structure.append(f"[{text}]" if number == level_now else text)
    if structure:
        seconds = next((float(item["seconds"]) for item in levels if "seconds" in item), 0.0)
        lines.append(f"Levels ({minutes(seconds)} each): " + " · ".join(structure))
    deal = state.get("deal")
    if isinstance(deal, dict):
        lines.append("")
        lines.append(deal_text(deal, me))
    offers = state.get("deal_offers")
    if isinstance(offers, dict) and offers and not isinstance(deal, dict):
        lines.append("")
        lines += offers_text(offers, me)
    return lines


def offers_text(offers: dict[str, Any], me: str) -> list[str]:
    """The four named deals at the final table, every finalist's number in each, before anyone proposes.

    >>> for line in offers_text({"equal": [["ana", 300], ["bob", 300]], "chips": [["ana", 400], ["bob", 200]]}, "ana"):
    ...     print(line)
    Deals (propose with 1–4):
      1 equal shares: ana 300 ← you, bob 300
      2 chip-proportional: ana 400 ← you, bob 200
    """
    lines = ["Deals (propose with 1–4):"]
    for number, kind in enumerate(DEAL_KINDS, start=1):
        shares = offers.get(kind)
        if not isinstance(shares, list):
            continue
        text = ", ".join(f"{who} {amount}" + (" ← you" if who == me else "") for who, amount in shares)
        lines.append(f"  {number} {DEAL_NAMES[kind]}: {text}")
    return lines


def deal_text(deal: dict[str, Any], me: str) -> str:
    """A deal on the table: the kind, each player's share (mine marked) and who accepted.

    >>> deal_text({"kind": "chips", "shares": [["ana", 420], ["bob", 180]], "accepted": ["bob"]}, "ana")
    'Deal (chip-proportional): ana 420 ← you, bob 180 ✓ · Y accept, N decline'
    """
    accepted = set(deal.get("accepted") or [])
    shares = ", ".join(f"{who} {amount}" + (" ← you" if who == me else "") + (" ✓" if who in accepted else "")
                       for who, amount in deal.get("shares") or [])
    return f"Deal ({DEAL_NAMES.get(str(deal.get('kind')), deal.get('kind'))}): {shares} · Y accept, N decline"
