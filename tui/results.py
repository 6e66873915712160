"""Your result: what you brought to each table and took away, tonight (issue 27, "Your result when you leave").

The client keeps the tally from what the room tells it — its own seat's events (sat down with, topped up,
chips back when the seat was freed), the hands it was dealt into, and the acks of a fast-fold pool (the pool
is one "table": you buy into it and leave it, its tables come and go). Nothing here is sent anywhere: the
room's own ledger is the settle-up (Ctrl+P → Settle up).

>>> book = ResultBook()
>>> book.seated("t1", "Hold'em 1/2", 200, now=0.0)
>>> book.added("t1", 50)
>>> for number in range(34):
...     book.dealt("t1", f"t1-{number}")
>>> closed = book.cashed_out("t1", 310, now=47 * 60.0)
>>> table_words(closed, now=47 * 60.0)
"Hold'em 1/2: bought in 250, cashed out 310 — up 60 · 34 hands · 47 min"
>>> night_words(book, now=47 * 60.0)
'Tonight: bought in 250, cashed out 310 — up 60 · 1 table, 34 hands · 47 min'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import Event, HandEnded, HandStarted
from engine.table_events import ChipsAdded, ChipsReturned, PlayerSeated, SeatFreed


@dataclass
class TableResult:
    """One sitting at one table (or fast-fold pool): from sitting down to leaving."""

    table_id: str
    name: str
    started: float
    bought_in: int = 0  # the buy-in and every top-up (auto top-ups and rebuys included)
    cashed_out: int = 0  # chips back to the balance when the seat was freed
    stack: int = 0  # chips at the table now, while still seated (the stack at the end of the last hand)
    ended: float | None = None
    hands: set[str] = field(default_factory=set)  # ids: a hand replayed after a reconnect counts once

    @property
    def seated(self) -> bool:
        return self.ended is None

    @property
    def net(self) -> int:
        """Chips up (positive) or down: what came back, and what is still on the table, less what went in."""
        return self.cashed_out + (self.stack if self.seated else 0) - self.bought_in

    def seconds(self, now: float) -> float:
        return (self.ended if self.ended is not None else now) - self.started


class ResultBook:
    """Every sitting of this visit, in order (:func:`night_words` sums them)."""

    def __init__(self) -> None:
        self.results: list[TableResult] = []

    def current(self, table_id: str) -> TableResult | None:
        """The sitting still open at ``table_id``, if any."""
        for result in reversed(self.results):
            if result.table_id == table_id:
                return result if result.seated else None
        return None

    def seated(self, table_id: str, name: str, buy_in: int, now: float) -> None:
        """Sat down at ``table_id`` with ``buy_in`` chips from the balance (a second sit at a table still open
        — the room repeating itself — adds nothing)."""
        if self.current(table_id) is None:
            self.results.append(TableResult(table_id, name or table_id, now, buy_in, stack=buy_in))

    def added(self, table_id: str, amount: int) -> None:
        """A top-up (by hand, or the table's auto top-up or rebuy): more chips from the balance."""
        result = self.current(table_id)
        if result is not None:
            result.bought_in += amount
            result.stack += amount

    def dealt(self, table_id: str, hand_id: str) -> None:
        result = self.current(table_id)
        if result is not None:
            result.hands.add(hand_id)

    def stack_now(self, table_id: str, stack: int) -> None:
        result = self.current(table_id)
        if result is not None:
            result.stack = stack

    def cashed_out(self, table_id: str, chips: int, now: float) -> TableResult | None:
        """The seat was freed with ``chips`` back to the balance: the sitting ends; returned (once)."""
        result = self.current(table_id)
        if result is None:
            return None
        result.cashed_out += chips
        result.stack = 0
        result.ended = now
        return result

    def observe(self, table_id: str, name: str, event: Event, me: str, my_seat: int | None, hand_id: str,
                now: float) -> TableResult | None:
        """Fold one event of ``table_id`` into the tally; the sitting it ended, if it ended one."""
        if isinstance(event, PlayerSeated) and event.player == me:
            self.seated(table_id, name, event.buy_in, now)
        elif isinstance(event, ChipsAdded) and event.player == me:
            self.added(table_id, event.amount)
        elif isinstance(event, HandStarted) and my_seat is not None and hand_id \
                and any(seat == my_seat for seat, _ in event.stacks):
            self.dealt(table_id, hand_id)
        elif isinstance(event, HandEnded) and my_seat is not None:
            for seat, stack in event.stacks:
                if seat == my_seat:
                    self.stack_now(table_id, stack)
        elif isinstance(event, ChipsReturned) and event.player == me:
            return self.cashed_out(table_id, event.amount, now)
        elif isinstance(event, SeatFreed) and event.player == me:
            result = self.current(table_id)  # freed with no chips back (busted and gone)
            return self.cashed_out(table_id, 0, now) if result is not None else None
        return None

    @property
    def played(self) -> bool:
        return bool(self.results)


def chips_of(value: object) -> int:
    """A chip count from a room message: a whole number >= 0, else 0 (nothing from the wire is trusted).

    >>> chips_of(150), chips_of(None), chips_of(-5), chips_of(True), chips_of("9")
    (150, 0, 0, 0, 0)"""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def chips_words(net: int) -> str:
    """The net in words.

    >>> chips_words(60), chips_words(-20), chips_words(0)
    ('up 60', 'down 20', 'even')"""
    return f"up {net}" if net > 0 else f"down {-net}" if net < 0 else "even"


def duration_words(seconds: float) -> str:
    """A sitting's length as a player says it.

    >>> duration_words(40), duration_words(47 * 60), duration_words(3900)
    ('under a minute', '47 min', '1 h 05 min')"""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def table_words(result: TableResult, now: float) -> str:
    """One sitting in a line: bought in, cashed out (or still on the table), up or down, hands, time."""
    money = f"bought in {result.bought_in}, " + (f"cashed out {result.cashed_out}" if not result.seated
                                                   else f"{result.stack} on the table")
    return (f"{result.name}: {money} — {chips_words(result.net)} · {_count(len(result.hands), 'hand')} · "
            f"{duration_words(result.seconds(now))}")


def night_words(book: ResultBook, now: float) -> str:
    """Every sitting of this visit summed in a line ("" when you sat nowhere)."""
    results = book.results
    if not results:
        return ""
    bought = sum(result.bought_in for result in results)
    cashed = sum(result.cashed_out for result in results)
    still = sum(result.stack for result in results if result.seated)
    net = sum(result.net for result in results)
    hands = sum(len(result.hands) for result in results)
    tables = len({result.table_id for result in results})
    first = min(result.started for result in results)
    last = now if any(result.seated for result in results) else max(result.ended or now for result in results)
    return (f"Tonight: bought in {bought}, cashed out {cashed}" + (f" ({still} still on the table)" if still else "")
            + f" — {chips_words(net)} · {_count(tables, 'table')}, {_count(hands, 'hand')} · "
            f"{duration_words(last - first)}")


def farewell(book: ResultBook, now: float) -> str:
    """What the terminal shows after you quit: each sitting, then the night ("" when you sat nowhere)."""
    if not book.played:
        return ""
    return "\n".join(["Your result:", *(f"  {table_words(result, now)}" for result in book.results),
                      f"  {night_words(book, now)}"])
