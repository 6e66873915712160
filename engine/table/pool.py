"""A fast-fold pool (R-FAST-1): players join the pool, not a table, and each hand is dealt to a fresh group.

Pure: time comes in as ``now`` (seconds of any monotonic clock); nothing sleeps, draws or reads a clock. The
host's pool owner (``hosting.pools``) asks :meth:`FastFoldPool.next_hand` whenever a player comes back to the
pool (he folded, or his hand ended: :meth:`FastFoldPool.released`) and at :meth:`FastFoldPool.next_deadline`.

What the pool decides, written here once:

* **Who plays next.** Players wait in the order they came back. A hand is dealt as soon as a full table
  (``seat_count``) is ready, or, with fewer, when nobody else is still playing (no one else can come) or the
  first in line has waited ``fill_seconds``. A player is ready when he waits, has chips, and his commitment
  for his next hand is in (commit ahead, DESIGN.md "Fairness": a fold never waits for a commit round).
* **New opponents.** The group is taken in line order, each time the first who met the fewest of those already
  taken in his last hand: strangers first, and as few players of one old hand together as the line allows.
* **Its tables.** A :class:`PoolTable` is a neutral table seated by the pool one group at a time with the
  group's stacks and blind plan; a player who folds leaves it at once with his chips behind
  (:meth:`~engine.table.neutral.Table.remove_player`) and the others when the hand ends.
* **Blinds follow the player** (as online pools do: the player who went longest without posting the big blind
  posts it). Each player counts the hands he was dealt since his last big blind. In a fresh group the highest
  count takes the big blind, the next the small blind, the next the button, and the rest sit from the cutoff
  (highest) down to under the gun (lowest, who just had the big blind) — one orbit of a real table. A player
  at a **fresh seat** (just joined the pool) posts a big blind in his first hand: in the big blind if he is
  first in the order, otherwise out of position (live, R-BLIND-3); never from the small blind or the button
  while the group has anyone else to put there. When every player in a group is fresh (the pool's first
  hands) only the big blind posts one; the others' debts are forgiven, as a new table's first hand starts.

>>> pool = FastFoldPool(PoolSettings(seat_count=6))
>>> for name in ["ana", "bo", "cy"]:
...     _ = pool.join(name, 1_000, now=0.0)
...     pool.committed(name)
>>> hand = pool.next_hand(now=0.0)
>>> [hand.seats[seat] for seat in sorted(hand.seats)], hand.plan.button_seat, hand.plan.big_blind_seat
(['cy', 'bo', 'ana'], 0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from engine.button import BlindPlan
from engine.cards import Card
from engine.draw import Reshuffle
from engine.errors import AlreadySeated, HandInProgress, InvalidAmount, NotSeated, TableRuleError
from engine.events import Event
from engine.table.config import TableConfig
from engine.table.hands import HandStarter, start_real_hand
from engine.table.neutral import Table
from engine.table.policy import OwnerStacksPolicy


class PoolState(Enum):
    """Where a pool player is between hands."""

    WAITING = "waiting"
    """In line for a fresh hand."""
    PLAYING = "playing"
    """Dealt into a hand that has not released him yet."""
    SITTING_OUT = "sitting_out"
    """In the pool but not dealt in (asked, or no chips)."""


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """``seat_count``: seats of each hand (2..10). ``fill_seconds``: how long the first player in line waits
    for a full table before a short-handed hand is dealt. ``min_buy_in``/``max_buy_in``: chips brought to the
    pool (R-BUYIN-1, as at a cash table; ``None``: no maximum). Raises ``ValueError`` naming a bad setting."""

    seat_count: int
    fill_seconds: float = 2.0
    min_buy_in: int = 1
    max_buy_in: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.seat_count <= 10:
            raise ValueError(f"a pool's hands have 2 to 10 seats, not {self.seat_count}")
        if self.fill_seconds < 0:
            raise ValueError(f"fill_seconds must be >= 0, got {self.fill_seconds}")
        if self.min_buy_in <= 0:
            raise ValueError(f"the minimum buy-in must be > 0 chips, got {self.min_buy_in}")
        if self.max_buy_in is not None and self.max_buy_in < self.min_buy_in:
            raise ValueError(f"maximum buy-in {self.max_buy_in} is below the minimum {self.min_buy_in}")


@dataclass(slots=True)
class PoolPlayer:
    """One player in the pool. ``stack``: his chips while he is not in a hand (in a hand, the hand has them).
    ``hands_since_big_blind``: hands dealt since he last posted a big blind. ``fresh``: just joined, owes a big
    blind. ``commitment_ready``: his commitment for his next hand is in. ``last_opponents``: who sat in his
    last hand. ``leaving``: asked to leave while playing: he goes when his hand releases him.
    ``sitting_out_next``: asked to sit out: not dealt in again until he sits in."""

    name: str
    stack: int
    order: int
    state: PoolState = PoolState.WAITING
    waiting_since: float = 0.0
    hands_since_big_blind: int = 0
    fresh: bool = True
    commitment_ready: bool = False
    last_opponents: frozenset[str] = frozenset()
    leaving: bool = False
    sitting_out_next: bool = False
    hands_dealt: int = 0
    player_id: str = ""
    """Who he is beyond his name (the host's: one SSH key's names share it); two players of one id are never
    dealt into one hand. Empty: his name alone."""

    @property
    def person(self) -> str:
        return self.player_id or f"name:{self.name}"

    @property
    def ready(self) -> bool:
        """Whether he can be dealt into the next hand."""
        return self.state is PoolState.WAITING and self.stack > 0 and self.commitment_ready and not self.leaving


@dataclass(frozen=True, slots=True)
class PoolHand:
    """A fresh hand for a group: ``seats`` (seat → player), his ``stacks`` there, and the blind ``plan``
    (seats 0..n-1; the button in seat 0 — heads-up the button posts the small blind, R-BET-ORDER)."""

    seats: dict[int, str]
    stacks: dict[int, int]
    plan: BlindPlan
    fresh_forgiven: tuple[int, ...] = ()

    def seat_of(self, player: str) -> int:
        return next(seat for seat, name in self.seats.items() if name == player)


def blind_order(players: Iterable[PoolPlayer]) -> list[PoolPlayer]:
    """Who owes the big blind most, first: fresh seats, then the most hands since a big blind, then who joined
    the pool first.

    >>> names = [p.name for p in blind_order([PoolPlayer("a", 1, 0, hands_since_big_blind=2, fresh=False),
    ...                                       PoolPlayer("b", 1, 1, hands_since_big_blind=5, fresh=False),
    ...                                       PoolPlayer("c", 1, 2)])]
    >>> names
    ['c', 'b', 'a']
    """
    return sorted(players, key=lambda player: (not player.fresh, -player.hands_since_big_blind, player.order))


def seat_group(players: Sequence[PoolPlayer]) -> PoolHand:
    """Seat a group of 2..10 players for one hand and plan its blinds (the module's rules).

    Seats clockwise: button 0, small blind 1, big blind 2, then under the gun … cutoff. Heads-up: button and
    small blind 0, big blind 1.
    """
    if not 2 <= len(players) <= 10:
        raise ValueError(f"a hand needs 2 to 10 players, got {len(players)}")
    order = blind_order(players)
    big_blind, rest = order[0], order[1:]
    settled = [player for player in rest if not player.fresh]
    owing = [player for player in rest if player.fresh]
    # the small blind and the button come from players already in the rotation when there are any
    in_position = (settled + owing)[:2] if len(rest) >= 2 else rest[:1]
    small_blind = in_position[0]
    button = in_position[1] if len(in_position) > 1 else None
    others = [player for player in rest if player not in in_position]
    # under the gun is the one who posted a big blind most recently: lowest count first, fresh posters last
    others.sort(key=lambda player: (player.fresh, player.hands_since_big_blind, -player.order))
    if button is None:  # heads-up: the button posts the small blind
        seating = [small_blind, big_blind]
        seats = {0: small_blind.name, 1: big_blind.name}
        plan = BlindPlan(button_seat=0, small_blind_seat=0, big_blind_seat=1, straddle_seat=None, dealt_in=(0, 1),
                         settled=(0, 1), heads_up=True, small_blind_position=0,
                         blinds_forgiven=tuple(seat for seat, player in enumerate(seating)
                                               if player.fresh and player is not big_blind))
        return PoolHand(seats, {seat: player.stack for seat, player in enumerate(seating)}, plan,
                        plan.blinds_forgiven)
    seating = [button, small_blind, big_blind, *others]
    seats = {seat: player.name for seat, player in enumerate(seating)}
    everyone_fresh = all(player.fresh for player in seating)
    out_of_position = () if everyone_fresh else tuple(
        seat for seat, player in enumerate(seating) if player.fresh and seat > 2)
    forgiven = tuple(seat for seat, player in enumerate(seating)
                     if player.fresh and seat != 2 and seat not in out_of_position)
    dealt_in = tuple(range(len(seating)))
    plan = BlindPlan(button_seat=0, small_blind_seat=1, big_blind_seat=2, straddle_seat=None, dealt_in=dealt_in,
                     out_of_position_big_blinds=out_of_position, settled=dealt_in, small_blind_position=1,
                     blinds_forgiven=forgiven)
    return PoolHand(seats, {seat: player.stack for seat, player in enumerate(seating)}, plan, forgiven)


def pick_group(waiting: Sequence[PoolPlayer], seat_count: int) -> list[PoolPlayer]:
    """Up to ``seat_count`` of ``waiting`` (in line order) for one hand, avoiding opponents of each other's
    last hand while enough others wait (the module's "new opponents").

    >>> line = [PoolPlayer("a", 1, 0, last_opponents=frozenset({"b"})), PoolPlayer("b", 1, 1),
    ...         PoolPlayer("c", 1, 2), PoolPlayer("d", 1, 3)]
    >>> [player.name for player in pick_group(line, 3)]
    ['a', 'c', 'd']
    >>> [player.name for player in pick_group(line, 4)]
    ['a', 'c', 'd', 'b']
    >>> twins = [PoolPlayer("a", 1, 0, player_id="k1"), PoolPlayer("b", 1, 1, player_id="k1"), PoolPlayer("c", 1, 2)]
    >>> [player.name for player in pick_group(twins, 6)]
    ['a', 'c']
    """
    group: list[PoolPlayer] = []
    candidates = list(waiting)
    while candidates and len(group) < seat_count:
        # the first in line who met the fewest of those already taken: the first in line always goes
        chosen = min(candidates, key=lambda player: sum(_met(player, other) for other in group))
        group.append(chosen)
        # one person, one seat per hand: his other names wait for another hand
        candidates = [player for player in candidates if player.person != chosen.person]
    return group


def _met(player: PoolPlayer, other: PoolPlayer) -> bool:
    return player.name in other.last_opponents or other.name in player.last_opponents


@dataclass
class FastFoldPool:
    """The players of one pool and the rules above. Names are player ids; chips are integers."""

    settings: PoolSettings
    players: dict[str, PoolPlayer] = field(default_factory=dict)
    _joined: int = 0

    # --- questions ----------------------------------------------------------------------------------

    def player(self, name: str) -> PoolPlayer:
        """``name``'s :class:`PoolPlayer`; :class:`NotSeated` if he is not in the pool."""
        try:
            return self.players[name]
        except KeyError:
            raise NotSeated(f"{name} is not in this pool") from None

    def waiting(self) -> list[PoolPlayer]:
        """The ready players in line order (first back, first dealt)."""
        ready = [player for player in self.players.values() if player.ready]
        return sorted(ready, key=lambda player: (player.waiting_since, player.order))

    def playing(self) -> int:
        """How many players are in a hand now."""
        return sum(player.state is PoolState.PLAYING for player in self.players.values())

    def chips(self) -> int:
        """Chips of players between hands (chips in hands are the hands')."""
        return sum(player.stack for player in self.players.values() if player.state is not PoolState.PLAYING)

    def next_deadline(self) -> float | None:
        """When :meth:`next_hand` may deal a short-handed hand (the first in line waited ``fill_seconds``)."""
        line = self.waiting()
        if len({player.person for player in line}) < 2:
            return None
        return line[0].waiting_since + self.settings.fill_seconds

    # --- coming and going ---------------------------------------------------------------------------

    def join(self, name: str, buy_in: int, now: float, *, player_id: str = "") -> PoolPlayer:
        """``name`` joins with ``buy_in`` chips (a fresh seat: he owes a big blind); ``player_id``: see
        :attr:`PoolPlayer.player_id`. :class:`AlreadySeated`, :class:`InvalidAmount` (outside the buy-in limits)."""
        if name in self.players:
            raise AlreadySeated(f"{name} is already in this pool")
        self._check_buy_in(buy_in, stack=0)
        player = PoolPlayer(name, buy_in, self._joined, waiting_since=now, player_id=player_id)
        self._joined += 1
        self.players[name] = player
        return player

    def top_up(self, name: str, amount: int) -> int:
        """Add chips between hands, up to the maximum buy-in; his new stack. :class:`TableRuleError` while he
        plays a hand, :class:`InvalidAmount` over the maximum."""
        player = self.player(name)
        if player.state is PoolState.PLAYING:
            raise TableRuleError(f"{name} is in a hand: top up after it")
        self._check_buy_in(amount, stack=player.stack)
        player.stack += amount
        return player.stack

    def leave(self, name: str) -> int | None:
        """``name`` leaves the pool: his chips (to give back) if he is between hands, else ``None`` — he leaves
        when his hand releases him (:meth:`released` then returns them)."""
        player = self.player(name)
        if player.state is PoolState.PLAYING:
            player.leaving = True
            return None
        del self.players[name]
        return player.stack

    def sit_out(self, name: str) -> None:
        """Not dealt in from his next hand on (he stays in the pool with his chips)."""
        player = self.player(name)
        player.sitting_out_next = True
        if player.state is PoolState.WAITING:
            player.state = PoolState.SITTING_OUT

    def sit_in(self, name: str, now: float) -> None:
        """Back in line. :class:`TableRuleError` without chips."""
        player = self.player(name)
        if player.stack <= 0 and player.state is not PoolState.PLAYING:
            raise TableRuleError(f"{name} has no chips: top up before sitting in")
        player.sitting_out_next = False
        if player.state is PoolState.SITTING_OUT:
            player.state = PoolState.WAITING
            player.waiting_since = now

    def committed(self, name: str) -> None:
        """``name``'s commitment for his next hand arrived (commit ahead)."""
        self.player(name).commitment_ready = True

    def commitment_lost(self, name: str) -> None:
        """His commitment can no longer be used (his connection dropped): not dealt in until he commits again."""
        if name in self.players:
            self.players[name].commitment_ready = False

    def released(self, name: str, stack: int, now: float) -> int | None:
        """His hand let him go (he folded, or it ended) with ``stack`` chips: back in line (or sitting out with
        no chips). Returns his chips if he had asked to leave (he is then out of the pool), else ``None``."""
        player = self.player(name)
        if player.state is not PoolState.PLAYING:
            raise TableRuleError(f"{name} is not in a hand of this pool")
        player.stack = stack
        if player.leaving:
            del self.players[name]
            return stack
        player.state = PoolState.WAITING if stack > 0 and not player.sitting_out_next else PoolState.SITTING_OUT
        player.waiting_since = now
        return None

    # --- hands --------------------------------------------------------------------------------------

    def next_hand(self, now: float) -> PoolHand | None:
        """The next fresh hand if one should be dealt now (the module's rules), else ``None``. Its players are
        then playing: their chips are the hand's, their commitments used, their blind counts moved on."""
        line = self.waiting()
        size = self.settings.seat_count
        if len({player.person for player in line}) < 2:  # one person's names are never dealt in together
            return None
        if len(line) < size and self.playing() and now < line[0].waiting_since + self.settings.fill_seconds:
            return None
        group = pick_group(line, size)
        hand = seat_group(group)
        names = set(hand.seats.values())
        posted_big_blind = {hand.seats[hand.plan.big_blind_seat],
                            *(hand.seats[seat] for seat in hand.plan.out_of_position_big_blinds)}
        for player in group:
            player.state = PoolState.PLAYING
            player.commitment_ready = False
            player.last_opponents = frozenset(names - {player.name})
            player.hands_dealt += 1
            player.fresh = False
            player.hands_since_big_blind = 0 if player.name in posted_big_blind else player.hands_since_big_blind + 1
        return hand

    def _check_buy_in(self, amount: int, *, stack: int) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidAmount(f"chips brought to a pool must be a whole number > 0, got {amount!r}")
        if stack == 0 and amount < self.settings.min_buy_in:
            raise InvalidAmount(f"the minimum buy-in is {self.settings.min_buy_in} chips, got {amount}")
        maximum = self.settings.max_buy_in
        if maximum is not None and stack + amount > maximum:
            raise InvalidAmount(f"the maximum buy-in is {maximum} chips: {amount} more would make {stack + amount}")


class PoolTable(Table):
    """A table of a pool (its policy: :class:`~engine.table.policy.OwnerStacksPolicy` ``"pool"``): empty between
    hands, seated with a whole :class:`PoolHand` by :meth:`seat_group`, and dealt that hand's blind plan (no
    dealer draw, no dead button: the pool placed everyone)."""

    def __init__(self, config: TableConfig, *, hand_starter: HandStarter = start_real_hand) -> None:
        super().__init__(config, policy=OwnerStacksPolicy("pool"), hand_starter=hand_starter)
        self._group: PoolHand | None = None

    def seat_group(self, group: PoolHand, now: float) -> list[Event]:
        """Seat ``group`` for its hand. :class:`HandInProgress` while a hand runs, :class:`TableRuleError` if
        anyone still sits here or the group does not fit."""
        if self.hand is not None:
            raise HandInProgress("a pool table takes its next group when its hand has ended")
        if self.players:
            raise TableRuleError(f"{len(self.players)} player(s) still sit at this pool table")
        if max(group.seats) >= self.config.seat_count:
            raise TableRuleError(f"a group of {len(group.seats)} does not fit {self.config.seat_count} seats")
        events: list[Event] = []
        for seat, name in sorted(group.seats.items()):
            events += self.seat_with_stack(name, group.stacks[seat], now, seat=seat, reason="pool")
        self._group = group
        self.positions = group.plan.positions  # placed by the pool: the next plan is the group's
        return events

    @property
    def group(self) -> PoolHand | None:
        """The group seated for the next hand, until it is dealt."""
        return self._group

    def plan_next_hand(self, *, drawn_button: int | None = None) -> BlindPlan | None:
        """The seated group's plan while every one of them still sits here, else ``None``. The group is dealt as
        the pool formed it: one who disconnected since is dealt in and his turns time out, as mid-hand."""
        group = self._group
        if group is None or self.hand is not None:
            return None
        if any(self.players.get(seat) is None or self.players[seat].player != group.seats[seat]
               for seat in group.plan.dealt_in):
            return None
        return group.plan

    def can_start_hand(self) -> bool:
        return self.plan_next_hand() is not None

    def start_hand(self, deck: Sequence[Card], now: float, *, button_draw_deck: Sequence[Card] | None = None,
                   reshuffle: Reshuffle | None = None) -> list[Event]:
        events = super().start_hand(deck, now, button_draw_deck=button_draw_deck, reshuffle=reshuffle)
        self._group = None
        return events

    def give_up_group(self) -> list[str]:
        """The seated group will not be dealt (someone left or missed his shuffle step): its players, to go back
        to the pool with their stacks (the caller removes them)."""
        self._group = None
        return [seated.player for seated in self.players.values()]
