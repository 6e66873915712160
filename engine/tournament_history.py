"""Tournament hand histories and summaries as PokerStars writes them (issue 18 "History").

A tournament hand's first two lines (everything after them is a cash hand's, :func:`engine.history.pokerstars_text`,
with stacks and bets in tournament chips — no currency sign):

    PokerStars Hand #12: Tournament #7, $10+$1 USD Hold'em No Limit - Level I (10/20) - 2026/12/01 18:00:00 UTC
    Table '7 2' 9-max Seat #3 is the button

The entry is written as PokerStars does: ``$buy-in+$fee USD`` (cents on every part when any part has them),
``$buy-in+$bounty+$fee USD`` in a knockout, ``buy-in+fee`` for play money (no sign, no code; what a room whose
balances are plain chips writes), ``NFPP`` for a points entry, ``Freeroll`` for no price. The level is a Roman
numeral up to 100 (``Level XI``), its decimal number above. The table is ``'<tournament> <table number>'``.

The summary (:func:`summary_text`) is the "Tournament summary" file PokerStars sends after a tournament:

    PokerStars Tournament #7, No Limit Hold'em
    Buy-In: $10/$1 USD
    9 players
    Total Prize Pool: $90 USD
    Tournament started 2026/12/01 18:00:00 UTC [2026/12/01 13:00:00 ET]
      1: ann, $45 (50%)
      2: bob, $27 (30%)
      4: dan,
    Bounties won:
      ann, $10
    You finished in 2nd place.

(PokerStars writes each player's country after his name; a croupier room knows none, so none is written.)

Pure: the times come in as arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

_ROMAN = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(number: int) -> str:
    """PokerStars' level number: Roman up to 100, decimal above.

    >>> roman(1), roman(4), roman(14), roman(49), roman(100), roman(101)
    ('I', 'IV', 'XIV', 'XLIX', 'C', '101')
    """
    if number <= 0:
        raise ValueError(f"a level is numbered from 1, got {number}")
    if number > 100:
        return str(number)
    out = ""
    for value, letters in _ROMAN:
        while number >= value:
            out += letters
            number -= value
    return out


@dataclass(frozen=True, slots=True)
class Currency:
    """How money (the room's units) is written: ``chip_value`` units per currency unit, its ``sign`` and
    ``code`` (``Currency(100, "$", "USD")``: 1,050 units → ``$10.50``); the default is play money (plain
    units, no sign, no code). ``points``: the entry was paid in points (``70FPP``)."""

    chip_value: int = 1
    sign: str = ""
    code: str = ""
    points: bool = False

    def amount(self, units: int, *, cents: bool = False) -> str:
        whole, part = divmod(units, self.chip_value)
        if self.chip_value == 1 or (part == 0 and not cents):
            return f"{self.sign}{whole}"
        digits = len(str(self.chip_value - 1))
        return f"{self.sign}{whole}.{part:0{digits}d}"

    def parts(self, amounts: Sequence[int], separator: str) -> str:
        """Amounts joined as PokerStars joins an entry's parts: cents on all when one has them."""
        cents = any(units % self.chip_value for units in amounts)
        text = separator.join(self.amount(units, cents=cents) for units in amounts)
        return f"{text} {self.code}" if self.code else text


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What a tournament hand's header says: the tournament's number, its entry (``buy_in`` to the prize pool,
    ``bounty`` to the bounty, ``fee`` to the house, in the room's units) and how money is written."""

    tournament_id: int
    buy_in: int
    fee: int
    bounty: int = 0
    currency: Currency = Currency()

    def entry(self) -> str:
        """``$10+$1 USD``, ``$4.40+$5+$0.60 USD``, ``100+10``, ``70FPP`` or ``Freeroll``.

        >>> TournamentInfo(1, 980, 120, currency=Currency(100, "$", "USD")).entry()
        '$9.80+$1.20 USD'
        >>> TournamentInfo(1, 440, 60, 500, Currency(100, "$", "USD")).entry()
        '$4.40+$5.00+$0.60 USD'
        >>> TournamentInfo(1, 100, 10).entry(), TournamentInfo(1, 0, 0).entry()
        ('100+10', 'Freeroll')
        """
        if self.buy_in == self.fee == self.bounty == 0:
            return "Freeroll"
        if self.currency.points:
            return f"{self.buy_in + self.bounty + self.fee}FPP"
        parts = [self.buy_in, *([self.bounty] if self.bounty else []), self.fee]
        return self.currency.parts(parts, "+")

    def header(self, hand_id: int, game: str, level: int, small_blind: int, big_blind: int) -> str:
        """The hand's first line up to the date (stakes in tournament chips).

        >>> TournamentInfo(7, 1000, 100, currency=Currency(100, "$", "USD")).header(12, "Hold'em No Limit", 1, 10, 20)
        "PokerStars Hand #12: Tournament #7, $10+$1 USD Hold'em No Limit - Level I (10/20)"
        """
        return (f"PokerStars Hand #{hand_id}: Tournament #{self.tournament_id}, {self.entry()} {game}"
                f" - Level {roman(level)} ({small_blind}/{big_blind})")

    def table_name(self, table_number: int) -> str:
        return f"{self.tournament_id} {table_number}"


@dataclass(frozen=True, slots=True)
class BountyTaken:
    """A bounty taken in a hand: ``winner`` collects ``amount`` for eliminating ``loser``; in a progressive
    knockout ``added`` more went onto his own head, which is then ``head`` (PokerStars: "and their own bounty
    increases by $Y to $Z")."""

    winner: str
    loser: str
    amount: int
    added: int = 0
    head: int = 0

    def line(self, currency: Currency) -> str:
        """PokerStars' line.

        >>> BountyTaken("ann", "bob", 25).line(Currency())
        'ann wins the 25 bounty for eliminating bob'
        >>> BountyTaken("ann", "bob", 12, 13, 38).line(Currency())
        'ann wins 12 for eliminating bob and their own bounty increases by 13 to 38'
        """
        if self.added:
            return (f"{self.winner} wins {currency.amount(self.amount)} for eliminating {self.loser} and their own "
                    f"bounty increases by {currency.amount(self.added)} to {currency.amount(self.head)}")
        return f"{self.winner} wins the {currency.amount(self.amount)} bounty for eliminating {self.loser}"


@dataclass(frozen=True, slots=True)
class Finished:
    """A player who finished in this hand: ``place`` (1: he won the tournament) and his ``prize`` (0: none)."""

    player: str
    place: int
    prize: int = 0

    def line(self, currency: Currency) -> str:
        """PokerStars' line.

        >>> Finished("cy", 3, 40).line(Currency()), Finished("dee", 5).line(Currency())
        ('cy finished the tournament in 3rd place and received 40.', 'dee finished the tournament in 5th place')
        >>> Finished("ann", 1, 300).line(Currency())
        'ann wins the tournament and receives 300 - congratulations!'
        """
        if self.place == 1:
            return f"{self.player} wins the tournament and receives {currency.amount(self.prize)} - congratulations!"
        text = f"{self.player} finished the tournament in {_ordinal(self.place)} place"
        return text + (f" and received {currency.amount(self.prize)}." if self.prize else "")


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """A hand of a tournament: the tournament, the level it was dealt at (1 = the first) and its table;
    ``bounties``: in a knockout, seat → the bounty on that player's head as the hand starts (PokerStars' seat line
    ``Seat 1: Ann (1500 in chips, $5 bounty)``); ``taken`` and ``finished``: the bounties taken and the places
    finished in this hand (their lines come after the pots, before the summary, as PokerStars writes them)."""

    info: TournamentInfo
    level: int
    table_number: int
    bounties: Mapping[int, int] = field(default_factory=dict)
    taken: Sequence[BountyTaken] = ()
    finished: Sequence[Finished] = ()

    def outcome_lines(self) -> list[str]:
        """The bounty lines, then who finished where (the winner last)."""
        currency = self.info.currency
        ordered = sorted(self.finished, key=lambda finish: (finish.place == 1, -finish.place, finish.player))
        return [taken.line(currency) for taken in self.taken] + [finish.line(currency) for finish in ordered]

    def seat_chips(self, seat: int, stack: int) -> str:
        """What the seat line says in brackets: ``1500 in chips`` or ``1500 in chips, $5 bounty``."""
        bounty = self.bounties.get(seat)
        return f"{stack} in chips" + (f", {self.info.currency.amount(bounty)} bounty" if bounty else "")


@dataclass(frozen=True, slots=True)
class Finish:
    """One line of a summary: ``place`` (1 = the winner), the player's name, his prize in the room's units."""

    place: int
    name: str
    prize: int = 0


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}".rstrip("0").rstrip(".") + "%"


def summary_text(info: TournamentInfo, game: str, *, entrants: int, prize_pool: int, started_at: datetime,
                 finishes: Sequence[Finish], finished_at: datetime | None = None, player: str | None = None,
                 bounties: Mapping[str, int] | None = None) -> str:
    """The tournament summary (module docstring). ``game``: PokerStars' summary name ("No Limit Hold'em");
    ``finishes``: every known place, best first; ``player``: whose copy ("You finished in …" for him);
    ``bounties``: a knockout's bounties won by each player (listed after the places, most first).

    >>> from datetime import UTC
    >>> print(summary_text(TournamentInfo(7, 100, 10), "No Limit Hold'em", entrants=3, prize_pool=300,
    ...       started_at=datetime(2026, 12, 1, 18, tzinfo=UTC), finishes=[Finish(1, "ann", 300), Finish(2, "bob")],
    ...       player="bob"), end="")
    PokerStars Tournament #7, No Limit Hold'em
    Buy-In: 100/10
    3 players
    Total Prize Pool: 300
    Tournament started 2026/12/01 18:00:00 UTC [2026/12/01 13:00:00 ET]
      1: ann, 300 (100%)
      2: bob,
    You finished in 2nd place.
    """
    money = info.currency
    if info.buy_in == info.fee == info.bounty == 0:
        buy_in = "Freeroll"
    elif money.points:
        buy_in = f"{info.buy_in + info.bounty + info.fee} FPP"
    else:
        buy_in = money.parts([info.buy_in, *([info.bounty] if info.bounty else []), info.fee], "/")
    pool = f"{money.amount(prize_pool)} {money.code}".rstrip()
    lines = [f"PokerStars Tournament #{info.tournament_id}, {game}", f"Buy-In: {buy_in}",
             f"{entrants} players", f"Total Prize Pool: {pool}", f"Tournament started {_when(started_at)}"]
    width = max(3, len(str(entrants)) + 1)
    for finish in finishes:
        prize = f" {money.amount(finish.prize)} ({_percent(finish.prize, prize_pool)})" if finish.prize else ""
        lines.append(f"{finish.place:>{width}}: {finish.name},{prize}")
    won = {name: amount for name, amount in (bounties or {}).items() if amount}
    if won:
        lines.append("Bounties won:")
        lines += [f"  {name}, {money.amount(amount)}" for name, amount in
                  sorted(won.items(), key=lambda item: (-item[1], item[0]))]
    if finished_at is not None:
        lines.append(f"Tournament finished {_when(finished_at)}")
    mine = next((finish for finish in finishes if finish.name == player), None)
    if mine is not None:
        lines.append(f"You finished in {_ordinal(mine.place)} place.")
        if mine.prize:
            lines.append(f"You received a total of {money.amount(mine.prize)}.")
    if player is not None and won.get(player):
        lines.append(f"You won {money.amount(won[player])} in bounties.")
    return "\n".join(lines) + "\n"


def eastern_time(moment: datetime) -> str:
    """``moment`` as PokerStars' bracketed Eastern Time (``2026/12/05 1:08:03``, the hour unpadded): UTC−5, or
    UTC−4 from the second Sunday of March 2:00 to the first Sunday of November 2:00 (the US rule since 2007).
    Worked out here, not from a time zone database: the engine reads nothing from the machine.

    >>> eastern_time(datetime(2026, 12, 5, 6, 8, 3, tzinfo=UTC)), eastern_time(datetime(2026, 7, 1, 12, tzinfo=UTC))
    ('2026/12/05 1:08:03', '2026/07/01 8:00:00')
    >>> eastern_time(datetime(2026, 3, 8, 6, 59, tzinfo=UTC)), eastern_time(datetime(2026, 3, 8, 7, tzinfo=UTC))
    ('2026/03/08 1:59:00', '2026/03/08 3:00:00')
    """
    utc = moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

    def sunday(month: int, nth: int) -> datetime:
        first = datetime(utc.year, month, 1, tzinfo=UTC)
        return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (nth - 1))

    summer = sunday(3, 2) + timedelta(hours=7) <= utc < sunday(11, 1) + timedelta(hours=6)
    local = utc - timedelta(hours=4 if summer else 5)
    return f"{local:%Y/%m/%d} {local.hour}:{local:%M:%S}"


def _when(moment: datetime) -> str:
    return f"{moment:%Y/%m/%d %H:%M:%S} {moment.tzname() or 'UTC'} [{eastern_time(moment)} ET]"
