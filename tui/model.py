"""What the client knows about one table, rebuilt from the room's messages (protocol v1, hosting/protocol.py).

Pure and synchronous: :meth:`TableModel.apply` takes one decoded message (``table``, ``event``,
``action_request``, ``seeds``, ``fairness``, ``verification_result``, ``chat``, ``error``, ``ack``) and
updates the state; widgets only read it. Times are seconds from the caller's ``now`` (the room's clock is
never compared with ours: the room sends how many seconds are left, we count down locally).

The hand itself — stacks, bets, chips in, pots, cards, who folded or is all-in, who won — is the one reducer's
(:class:`engine.view.HandView`, :attr:`TableModel.hand`): each hand event is folded into it and the seats the
widgets draw are copied from it. What this model adds is the screen's: names, seat states between hands, the
log's words, last actions, clocks, fairness badges, records for the viewer. Chips are integers; the main and side
pots (R-POT-1) are on screen as soon as someone is all-in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.events import (
    PLAYER_ACTIONS,
    AntePosted,
    BetPlaced,
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
    BombPotStarted,
    BringInPosted,
    Called,
    CardsDealtFaceDown,
    CardsDrawn,
    Checked,
    DrawnCardsDealt,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    RakeTaken,
    RunItTwiceAnswered,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
    UncalledBetReturned,
    UpCardsDealt,
)
from engine.home.rabbit_hunt import RabbitHuntShown
from engine.table import AFTER_HAND_EVENTS
from engine.table_events import (
    CardsShownAfterWin,
    ChipsAdded,
    GameChanged,
    HandFinished,
    HandPlanned,
    LeavingAfterHand,
    LevelChanged,
    PlayerAway,
    PlayerDisconnected,
    PlayerReconnected,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PlayerSettingChanged,
    SeatFreed,
    TimeBanksRefilled,
    TimeBankUsed,
    TimedOut,
    TurnStarted,
)
from engine.text import clean_text, counted
from engine.variants import VARIANTS, ForcedBetKind, game_name
from engine.view import HAND_EVENTS, HandView
from hosting.hand_codec import TABLE_EVENT_TYPES, CodecError, event_from_json

LOG_LIMIT = 400
AWAY_WARNING_SECONDS = 60.0
"""An away player is warned (a line in the table, a notice and the bell) this long before his seat is freed."""
HAND_STARTS: tuple[type[Event], ...] = (HandPlanned, HandStarted)
DURING_PLAY: tuple[type[Event], ...] = (HandPlanned, TurnStarted, TimeBankUsed, TimedOut)
"""Table events that belong to a hand's play (its plan, its turns and clocks)."""
TABLE_EVENTS: tuple[type[Event], ...] = tuple(cls for cls in TABLE_EVENT_TYPES.values() if cls not in DURING_PLAY)
"""Table events (engine.table_events) that may carry a hand's id without being part of its play: seeing
one first says nothing about whether the hand was seen from its start."""
HOME_EVENTS: tuple[type[Event], ...] = (BombPotStarted, RunItTwiceOffered, RunItTwiceAnswered, RunItTwiceDecided,
                                        SecondBoardDealt, SevenDeuceBountyPaid, RabbitHuntShown)
"""The home-game options' events (R-HOME-1..4, docs/rules-home.md)."""
SECOND_PERSON = {"says": "say",
                 "is": "are", "was": "were", "has": "have", "ran": "ran", "lost": "lost", "reconnected": "reconnected",
                 "adds": "add", "uses": "use", "brings": "bring", "leaves": "leave", "sits": "sit", "will": "will",
                 "wins": "win", "mucks": "muck", "shows": "show", "draws": "draw", "bets": "bet",
                 "raises": "raise", "completes": "complete", "collects": "collect",
                 "calls": "call", "checks": "check", "folds": "fold", "posts": "post"}


SHORT_WORDS = {"pair": "pair", "three": "trips", "four": "quads"}
RANK_DIGITS = {"deuce": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
               "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def short_hand_names(name: str) -> list[str]:
    """A shown hand's name, longest first, for a seat box to take the first that fits: the whole name, its
    head, then the category in a word or two ("pair of jacks, ace kicker" → "pair of jacks" → "pair"; a low
    by its digits, "7-5 low"). Hi/lo names ("… / eight-six low") keep the high half's forms.

    >>> short_hand_names("two pair, kings and nines, ace kicker")
    ['two pair, kings and nines, ace kicker', 'two pair, kings and nines', 'two pair']
    >>> short_hand_names("three queens")[-1], short_hand_names("seven-five low")[-1], short_hand_names("")
    ('trips', '7-5 low', [])
    """
    high = name.split(" / ")[0]
    parts = [part for part in high.split(", ") if part]
    forms = [name] if high != name else []
    forms += [", ".join(parts[:count]) for count in range(len(parts), 0, -1)]
    if parts:
        head = parts[0]
        first = head.split(" ")[0]
        if head.endswith((" low", " high")) and "-" in first:
            forms.append("-".join(RANK_DIGITS.get(word, word) for word in first.split("-")) + head[len(first):])
        elif first in SHORT_WORDS:
            forms.append(SHORT_WORDS[first])
    return list(dict.fromkeys(forms))


RECORD_LIMIT = 50
"""Hands kept for the hand-history viewer per table."""


def hand_steps(events: list[Event]) -> list[tuple[str, int]]:
    """A hand's events cut into the viewer's steps, street by street: ``(title, events up to)`` — one step per
    betting round (its cards dealt, its actions), then the showdown and result.

    >>> from engine.cards import parse_cards
    >>> start, board = HandStarted("texas_holdem", "no_limit", 0, ((0, 100), (1, 100))), parse_cards("2c 3d 4h")
    >>> events = [start, BettingRoundStarted(0, "preflop", 3), Called(0, 1), BoardDealt("flop", board, board),
    ...           BettingRoundStarted(1, "flop", 4), Checked(1), HandShown(0, ()), PotAwarded(0, 0, 4),
    ...           HandEnded(((0, 102), (1, 98)))]
    >>> hand_steps(events)
    [('pre-flop', 3), ('flop', 6), ('showdown', 9)]
    >>> hand_steps([start, Folded(0), PotAwarded(0, 1, 3)])
    [('result', 3)]
    """
    starts: list[tuple[str, int]] = []
    for index, event in enumerate(events):
        if isinstance(event, BettingRoundStarted):
            begin = index  # a street's cards come before its betting round: they open its step
            while starts and begin > starts[-1][1] + 1 and isinstance(events[begin - 1], DEALS):
                begin -= 1
            starts.append((street_words(event.street), begin if starts else 0))
    ends = [begin for _, begin in starts[1:]] + [len(events)] if starts else []
    steps = [(title, end) for (title, _), end in zip(starts, ends, strict=True)]
    last_start = starts[-1][1] if starts else 0
    shown = next((index for index, event in enumerate(events) if index >= last_start
                  and isinstance(event, HandShown | HandMucked | PotAwarded)), None)
    if shown is None:
        return steps or [("result", len(events))]
    title = "showdown" if any(isinstance(event, HandShown) for event in events[shown:]) else "result"
    if steps:
        steps[-1] = (steps[-1][0], shown)
    return [*steps, (title, len(events))]


def street_words(street: str) -> str:
    """A street's id (engine.variants) as a player says it.

    >>> street_words("first_draw"), street_words("fourth"), street_words("flop")
    ('first draw', 'fourth street', 'flop')
    """
    return STREET_WORDS.get(street, street.replace("_", " "))


SEAT_WORDS: dict[type[Event], str] = {
    PlayerSeated: "sits down", SeatFreed: "leaves the table", PlayerSatOut: "sits out", PlayerSatIn: "is back",
    PlayerAway: "is away", PlayerDisconnected: "lost connection", PlayerReconnected: "reconnected",
    LeavingAfterHand: "will leave after this hand", ChipsAdded: "adds chips"}
"""What the log says when a player's seat changes (a top-up says how many chips)."""
SEAT_WORDS_EVENTS = tuple(SEAT_WORDS)
DEALS = (BoardDealt, UpCardsDealt, HoleCardsDealt, CardsDealtFaceDown)
STREET_WORDS = {"preflop": "pre-flop", "predraw": "before the draw", "draw": "the draw", "first_draw": "first draw",
                "second_draw": "second draw", "third_draw": "third draw", "third": "third street",
                "fourth": "fourth street", "fifth": "fifth street", "sixth": "sixth street",
                "seventh": "seventh street"}


def table_hand_number(hand: str, planned: tuple[str, int] | None = None) -> int | None:
    """The table's own number of ``hand``, the one the room, its hand records and exports use: from the hand's
    ``hand_planned`` event (``planned``: its hand and number) or else the room's hand id, which ends with it.
    ``None`` when neither says (a hand id of another shape).

    >>> table_hand_number("holdem-1-2-9a611a-7"), table_hand_number("t1-h-2", ("t1-h-2", 12)), table_hand_number("h")
    (7, 12, None)
    """
    if planned is not None and planned[0] == hand:
        return planned[1]
    _, _, last = hand.rpartition("-")
    return int(last) if last.isdigit() else None


def split_clock(total: float, left: float, bank: float | None) -> tuple[float, float, float | None]:
    """A turn of ``total`` seconds with ``left`` to go, whose last ``bank`` seconds are the time bank, as
    ``(action seconds left, action seconds in all, bank seconds left)``; the bank is ``None`` when unknown
    (or not inside the turn), and then the whole turn counts as action time.

    >>> split_clock(80.0, 70.0, 60.0), split_clock(80.0, 45.0, 60.0), split_clock(20.0, 5.0, None)
    ((10.0, 20.0, 60.0), (0.0, 20.0, 45.0), (5.0, 20.0, None))
    """
    if bank is None or bank <= 0 or bank >= total:
        return left, total, None
    return max(0.0, left - bank), total - bank, min(bank, left)


CLAIM_NOTICE_SECONDS = 60.0
"""At most one notice a minute per table of other players' claims (each hand's claims stay in its history)."""
MAX_CLAIMS = 20
"""Claims kept per hand."""


def violation_words(item: Any) -> str:
    """One violation in words: this client's own check says it in a sentence; another player's alarm, relayed by
    the room, has only its kind (``card_mismatch`` → ``card mismatch``)."""
    if not isinstance(item, dict):
        return str(item)
    return str(item.get("message") or str(item.get("kind") or "check failed").replace("_", " "))


@dataclass
class SeatInfo:
    """One seat as shown: ``bet`` is this street's chips in front of the player, ``committed`` the hand's."""

    seat: int
    name: str
    stack: int = 0
    sitting_out: bool = False
    away: bool = False
    wait_for_big_blind: bool = False
    bet: int = 0
    committed: int = 0
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    cards: list[str] = field(default_factory=list)
    down_cards: list[str] = field(default_factory=list)  # which of ``cards`` were dealt face down (stud: mine)
    face_down: int = 0
    last_action: str = ""
    won: int = 0
    hand_name: str = ""
    """The hand as shown at showdown ("two pair, kings and nines"), until the next deal."""

    @property
    def state(self) -> str:
        """``"folded"``, ``"all-in"``, ``"away"``, ``"sitting out"`` or ``""``."""
        if self.away:
            return "away"
        if self.sitting_out:
            return "sitting out"
        if self.all_in:
            return "all-in"
        if self.folded:
            return "folded"
        return ""


@dataclass
class HandSummary:
    """One finished (or running) hand for the hand log: its id, a one-line result, the fairness verdict."""

    hand_id: str
    number: int
    result: str = ""
    fairness: bool | None = None  # None: not checked yet; True: verified; False: violation
    violations: list[str] = field(default_factory=list)
    cancelled: bool = False
    """The room cancelled the hand before its end (it stopped: R-CRASH-1 gave every chip back): never checked."""
    joined_late: bool = False
    """This client saw the hand only after its commitments were published (joined or opened the table
    mid-hand): seeds and seen cards were checked, but not that the commitments came before the deal."""
    unverified: str = ""
    """Why this client could not check the hand fully (its connection missed the commitments); not a violation."""
    claims: list[str] = field(default_factory=list)
    """Other players' reports of a problem with this hand, relayed by the room (``ana: card mismatch``): claims to
    look into, not this client's verdict — a dealt-in player could send one for every hand."""

    @property
    def verdict(self) -> str:
        """The badge in words: ``"verified"``, ``"verified (joined late)"``, ``"VIOLATION"``, ``"cancelled"`` or
        ``"checking"``."""
        if self.fairness is None:
            return "cancelled" if self.cancelled else "checking"
        if self.fairness is False:
            return "VIOLATION"
        if self.unverified:
            return "not verified (slow connection)"
        return "verified (joined late)" if self.joined_late else "verified"


@dataclass
class HandRecord:
    """One hand as this client saw it, for the hand-history viewer: who sat where when it began and every event
    of it in order (each player's view: his own cards, everyone's shown cards), replayed street by street."""

    hand_id: str
    seats: dict[int, tuple[str, int]] = field(default_factory=dict)  # seat → (name, stack) as the hand began
    events: list[Event] = field(default_factory=list)


@dataclass
class TableModel:
    """Client-side state of one table seen by ``me`` (a player name)."""

    table_id: str
    me: str
    max_seats: int = 6
    name: str = ""
    game: str = ""  # the lobby row's game id ("texas_holdem", "seven_card_stud"…), "" until known
    structure: str = ""  # the lobby row's betting structure ("no_limit", "pot_limit"…), "" until known
    stakes: tuple[int, int] = (0, 0)  # the table's, as the lobby and snapshots say: a new level shows at once
    hand_big_blind: int = 0
    """The running hand's big blind (its own post, or the table's at its start; 0 between hands): a level the
    host sets during a hand (``stakes`` above) starts with the next one, so the hand's sizes keep this."""
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    hand_id: str = ""
    hand_number: int = 0  # the table's number of the hand shown (table_hand_number)
    _planned: tuple[str, int] | None = None  # the last hand_planned: its hand and number
    hand_running: bool = False
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    board: list[str] = field(default_factory=list)  # the hand's board and street, as the view has them
    street: str = ""
    hand: HandView = field(default_factory=HandView)
    """The running hand as this client sees it: the one reducer (engine.view) folds its events; the seats, the
    board, the pots read from it. What is kept here beside it is the screen's: names, words, clocks, notices."""
    to_act: int | None = None
    turn_seconds: float = 0.0
    turn_started: float = 0.0
    room_clock_offset: float | None = None  # the room's clock minus this client's, from the last turn started
    seat_freed_at: float | None = None  # away: when the room frees my seat, on this client's clock
    away_warned: bool = False  # the warning before that was given
    time_bank: float | None = None  # my own time bank in seconds, once the room told it
    time_banks: dict[int, float] = field(default_factory=dict)  # seat → time bank left, as the room told it
    clock: dict[str, float] = field(default_factory=dict)  # the lobby row's clock settings, if the room sends them
    legal: dict[str, Any] | None = None
    legal_hand: str = ""
    log: list[str] = field(default_factory=list)
    hands: list[HandSummary] = field(default_factory=list)
    chat: list[tuple[str, str]] = field(default_factory=list)
    error: str = ""
    watching: bool = False
    waiting: list[str] = field(default_factory=list)
    alarm: str = ""
    """A fairness violation this client's own check found (the red banner); never another player's word."""
    claim: str = ""
    """Another player's report of a problem, as a notice to show once (empty: none new, or held back by
    :data:`CLAIM_NOTICE_SECONDS`)."""
    claim_shown_at: float | None = None
    dealing: str = "commit-reveal"  # "host-blind": the players' clients deal; the table message says which
    jackpot: dict[str, Any] | None = None  # the table's jackpot pool as the room last said (R-JACK-1, R-JACK-2)
    tournament_clock: str = ""  # a tournament table's level and time to the next (tui.tournament_lobby)
    kind: str = "cash"  # whose table: "cash", "tournament" or "pool" (the room's table message says)
    jackpot_banner: str = ""  # a jackpot just paid at this table, until the next hand starts
    revision: int = 0
    answered: dict[str, Any] | None = None  # the legal actions of the turn we last answered (see turn_back)
    joined_mid_hand: bool = False  # the running hand was already under way when we looked: its chips so far unknown
    requests: int = 0
    shown_after_win: bool = False
    auto_muck: bool = False
    """My auto-muck setting as the room last confirmed it (R-SHOW-1: losing hands mucked at showdown unasked)."""
    records: dict[str, HandRecord] = field(default_factory=dict)
    """The last hands' events by hand id (at most :data:`RECORD_LIMIT`), for the hand-history viewer."""
    results: list[tuple[int, int, str]] = field(default_factory=list)
    """The last hand's winners as ``(seat, chips, hand name)`` in award order, until the next deal."""
    pending_top_up: int = 0  # chips asked for during a hand I am in: sent when it ends (the room refuses sooner)
    auto_top_up: dict[str, int | bool | None] = field(default_factory=dict)
    """My auto top-up / rebuy order here as the room accepted it (``below``, ``rebuy``, ``to``); {}: none."""
    home: dict[str, Any] = field(default_factory=dict)
    """The table's home-game options that are on (R-HOME-1..4), as the room's table message says."""
    second_board: list[str] = field(default_factory=list)  # R-HOME-1: a hand run twice, shared cards included
    rabbit: list[str] = field(default_factory=list)  # R-HOME-2: the cards that would have come (not played)
    offered_hand: str = ""
    """The hand that ended before the one being dealt, while what it offered me still stands: the room takes a
    rabbit hunt or a show after an uncontested win until the new hand's first action."""
    offered_rabbit: bool = False  # that hand's rabbit is mine to ask for
    offered_cards: list[str] = field(default_factory=list)  # my cards of that hand, mine to show (I won it)
    acted: set[int] = field(default_factory=set)
    """Seats that acted in this betting round since its last bet or raise: the round is over when every seat
    that can still bet is in it (a draw game then draws)."""
    drew: bool = False  # a draw of this street has started (someone drew or stood pat)
    up_cards: list[tuple[str, list[str]]] = field(default_factory=list)  # stud: this street's up cards, by name
    last_event: Event | None = None  # the event the last message applied carried (the app's tallies read it)
    notes: dict[str, tuple[str, str]] = field(default_factory=dict)
    """The player's notes on others by name: ``(colour tag, text)`` (tui.notes; the app's, shared by its tables)."""
    mixed: dict[str, Any] = field(default_factory=dict)
    """A mixed table's rotation as the room's table message says (R-MIX-1..4): the mix, the game being dealt,
    the next one, hands left, and who picks (dealer's choice); empty at a table of one game."""

    # --- derived -------------------------------------------------------------------------------------

    @property
    def auto_top_up_words(self) -> str:
        """My standing order in a few words ("" when none).

        >>> model = TableModel("t1", "ana")
        >>> model.auto_top_up = {"below": 50, "rebuy": True, "to": None}
        >>> model.auto_top_up_words
        'auto: top up below 50 to the max, rebuy'
        """
        order = self.auto_top_up
        below, to = order.get("below"), order.get("to")
        target = f"to {to}" if isinstance(to, int) and not isinstance(to, bool) else "to the max"
        parts = [f"top up below {below} {target}"] if isinstance(below, int) and below > 0 else []
        if order.get("rebuy"):
            parts.append("rebuy" if parts else f"rebuy {target}")
        return f"auto: {', '.join(parts)}" if parts else ""

    @property
    def my_seat(self) -> int | None:
        return next((info.seat for info in self.seats.values() if info.name == self.me), None)

    @property
    def mixed_words(self) -> str:
        """A mixed table's header (R-MIX-1..4): the mix and its game, then what comes next, e.g.
        ``HORSE: Razz · next 7-card Stud in 3 hands``; empty at a table of one game.

        >>> model = TableModel("horse", "ana", mixed={"name": "HORSE", "game": "Razz", "next": "7-card Stud",
        ...                                         "hands_left": 3, "choice": "rotation"})
        >>> model.mixed_words
        'HORSE: Razz · next 7-card Stud in 3 hands'
        >>> model.mixed["chooser"] = "ana"
        >>> model.mixed_words
        'HORSE: Razz · your pick of the next game (G)'
        """
        mixed = self.mixed
        if not mixed:
            return ""
        head = f"{mixed.get('name', 'Mixed')}: {mixed.get('game', '')}"
        chooser, left, upcoming = mixed.get("chooser"), mixed.get("hands_left"), mixed.get("next")
        if chooser == self.me:
            return f"{head} · your pick of the next game (G)"
        if chooser:
            return f"{head} · {chooser} picks the next game"
        when = f" in {counted(left, 'hand')}" if isinstance(left, int) and left > 0 else \
            " from the next hand" if left == 0 else ""
        if upcoming:
            return f"{head} · next {upcoming}{when}"
        if mixed.get("choice") == "button":
            return f"{head} · dealer's choice{when}"
        return f"{head} · the host picks the next game" if mixed.get("choice") == "host" else head

    @property
    def big_blind_to_wait_for(self) -> bool:
        """Whether a seat here may wait for the big blind: a cash table with blinds. Not in stud (no blinds),
        not at a tournament (the director posts for everyone), not at a fast-fold pool's table (each hand is
        dealt afresh at the table the pool picks, the blinds following the players, R-FAST-1)."""
        return self.uses_blinds and self.kind not in ("tournament", "pool")

    @property
    def uses_blinds(self) -> bool:
        """Whether the game has blinds and a button (stud games post antes and a bring-in instead, R-STUD-1)."""
        variant = VARIANTS.get(self.game)
        return variant is None or variant.forced_bets is not ForcedBetKind.ANTE_BRING_IN

    @property
    def my_hand_name(self) -> str:
        """My made hand so far in words ("pair of kings", "seven-five low"), ``""`` when I hold none, have folded
        or the game is unknown (engine.showdown.made_hand_name; the board counts in the board games).

        >>> model = TableModel("t1", "me", game="texas_holdem", board=["Kc", "7d", "2s"],
        ...                    seats={0: SeatInfo(0, "me", cards=["Kd", "7h"], in_hand=True)})
        >>> model.my_hand_name
        'two pair, kings and sevens'
        """
        variant = VARIANTS.get(self.game)
        mine = self.seats.get(self.my_seat) if self.my_seat is not None else None
        if variant is None or mine is None or mine.folded or not mine.cards:
            return ""
        from engine.showdown import made_hand_name  # the evaluators' tables take a moment: built on first use

        try:
            hole = [Card.parse(card) for card in mine.cards]
            board = [Card.parse(card) for card in self.board]
            return made_hand_name(variant, hole, board)
        except ValueError:  # a card the room sent that this engine cannot read: name nothing rather than guess
            return ""

    @property
    def drawing(self) -> bool:
        """A draw game between its betting rounds: the players are drawing (the round before has closed, or
        someone drew already, or the room asks me to draw)."""
        if self.legal and self.legal.get("max_discards"):
            return True
        variant = VARIANTS.get(self.game)
        if variant is None or not variant.has_draws or not self.hand_running or self.results:
            return False
        if self.drew:
            return True
        live = [info for info in self.seats.values() if info.in_hand and not info.folded]
        betting = [info for info in live if not info.all_in]
        top = self.current_bet()
        closed = len(live) > 1 and all(info.seat in self.acted and info.bet == top for info in betting)
        return closed and self.next_draw_street() != ""

    def next_draw_street(self) -> str:
        """The draw street after the betting round now (``"first_draw"``…), ``""`` when no draw is left."""
        variant = VARIANTS.get(self.game)
        names = [street.name for street in variant.streets] if variant is not None else []
        if self.street not in names:
            return ""
        later = variant.streets[names.index(self.street) + 1:] if variant is not None else ()
        return later[0].name if later and later[0].draw else ""

    @property
    def street_label(self) -> str:
        """The middle of a board-less table while no card is on it: the street as a player says it — a draw
        game's betting round after a draw is "after the first draw", the draw itself "first draw"."""
        if self.drawing:
            return street_words(self.next_draw_street() or self.street)
        variant = VARIANTS.get(self.game)
        draws = {street.name for street in variant.streets if street.draw} if variant is not None else set()
        words = street_words(self.street)
        if self.street in draws:
            return "after " + (words if words.startswith("the ") else f"the {words}")
        return words

    @property
    def run_twice(self) -> str:
        """R-HOME-1: ``""`` not asked, ``"asked"``, ``"twice"``, ``"once"`` (as the view has it)."""
        return self.hand.run_twice

    @property
    def bomb_pot(self) -> int:
        """R-HOME-3: this hand is a bomb pot with this ante (0: not one)."""
        return self.hand.bomb_pot

    @property
    def hand_over(self) -> bool:
        """The shown hand has ended (its rabbit may be hunted until the next hand's first action)."""
        return self.hand.ended

    @property
    def rabbit_available(self) -> bool:
        """R-HOME-2: the table hunts rabbits, the last hand ended before its board was complete, I was dealt into
        it and nobody asked yet (the room says the last word)."""
        variant = VARIANTS.get(self.game)
        board_size = variant.board_card_count if variant is not None else 5
        mine = self.seats.get(self.my_seat) if self.my_seat is not None else None
        ended_early = (bool(self.home.get("rabbit_hunt")) and self.hand_over and not self.rabbit
                       and mine is not None and mine.in_hand and len(self.board) < board_size)
        return ended_early or self.offered_rabbit

    @property
    def can_show_after_win(self) -> bool:
        """I won the last hand with nobody left to show against: I may show a card or my hand (once, until the
        next hand's first action)."""
        return bool(self.after_win_cards)

    @property
    def after_win_cards(self) -> list[str]:
        """My cards of the hand I won uncontested, while I may still show them ([]: nothing to show)."""
        mine = self.my_seat
        if (mine is not None and bool(self.results) and {seat for seat, _, _ in self.results} == {mine}
                and not any(info.hand_name for info in self.seats.values()) and not self.shown_after_win
                and bool(self.seats[mine].cards) and self.legal is None):
            return list(self.seats[mine].cards)
        return list(self.offered_cards)

    def cancel(self, hand: str) -> bool:
        """The room says ``hand`` was cancelled (it stopped mid-hand, R-CRASH-1): its badge says so instead of
        checking forever, and the log says its chips went back. False when this table never showed that hand."""
        summary = next((item for item in self.hands if item.hand_id == hand), None)
        if summary is None or summary.fairness is not None or summary.cancelled:
            return False
        summary.cancelled = True
        self.note(f"Hand {summary.number} was cancelled: every chip put into it was returned")
        if hand == self.hand_id:
            self._clear_hand()
            self.hand_running = False
        return True

    @property
    def in_running_hand(self) -> bool:
        """Whether I am dealt into the running hand (folded or not: the room takes no top-up until it ends)."""
        mine = self.seats.get(self.my_seat) if self.my_seat is not None else None
        return mine is not None and mine.in_hand and self.hand_running

    @property
    def free_seats(self) -> int:
        return max(0, self.max_seats - len(self.seats))

    @property
    def big_blind(self) -> int:
        """The big blind bet sizes count in (keys 7-9, the slider's step): the running hand's, else the table's."""
        return self.hand_big_blind if self.hand_running and self.hand_big_blind else self.stakes[1]

    def facing(self) -> int:
        """Chips I would have to put in to call now (0: I may check, or I am not in the hand)."""
        mine = self.seats.get(self.my_seat) if self.my_seat is not None else None
        if mine is None or not mine.in_hand or mine.folded or not self.hand_running:
            return 0
        return max(0, min(self.current_bet() - mine.bet, mine.stack))

    @property
    def seated(self) -> bool:
        return self.my_seat is not None

    @property
    def needs_action(self) -> bool:
        return self.legal is not None

    @property
    def pot_total(self) -> int:
        """Every chip this client saw go into the middle or in front of the players (R-POT-1)."""
        hand = self.hand
        return hand.dead_money + sum(info.committed for info in hand.seats.values())

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """Main pot then side pots as ``(amount, eligible seats)`` from the chips gathered in at the end of the
        previous betting rounds (this round's bets are still in front of the players); empty when none."""
        return [(pot.amount, tuple(sorted(pot.eligible))) for pot in self.hand.pots(include_bets=False)]

    def away_warning(self, now: float) -> str | None:
        """The warning to give now that my seat is about to be freed (I am away, its time is less than
        :data:`AWAY_WARNING_SECONDS` off), once; ``None`` otherwise. Noted in the table's log when given."""
        mine = self.seats.get(self.my_seat) if self.my_seat is not None else None
        if self.seat_freed_at is None or self.away_warned or mine is None or not (mine.away or mine.sitting_out):
            return None
        left = self.seat_freed_at - now
        if left > AWAY_WARNING_SECONDS:
            return None
        self.away_warned = True
        state = "away" if mine.away else "sitting out"
        words = (f"You are {state}: your seat is given up in {max(1, round(left))} s and your chips go back. "
                 "Press O — I'm back to keep it.")
        self.note(words)
        return words

    def seconds_left(self, now: float) -> float:
        return max(0.0, self.turn_seconds - (now - self.turn_started))

    def current_bet(self) -> int:
        return max((info.bet for info in self.seats.values()), default=0)

    def bank_of(self, seat: int | None) -> float | None:
        """Seconds left in ``seat``'s time bank: as the room last told it (used or refilled), else the table's
        starting bank when the lobby row gives it, else ``None`` (unknown: the clock shows one bar)."""
        if seat is None:
            return None
        if seat in self.time_banks:
            return self.time_banks[seat]
        if seat == self.my_seat and self.time_bank is not None:
            return self.time_bank
        starting = self.clock.get("time_bank_seconds")
        return float(starting) if starting is not None else None

    def turn_clock(self, now: float) -> tuple[float, float, float | None]:
        """The running turn as ``(action seconds left, action seconds in all, time bank seconds left)``.

        The room's deadline counts the acting player's time bank too (R-CLOCK-1: the bank is used only once
        the action time has run out), so when the bank is known it is split off the end of the turn:

        >>> model = TableModel("t1", "me", turn_seconds=80.0, turn_started=10.0, to_act=2, time_banks={2: 60.0})
        >>> model.turn_clock(now=15.0), model.turn_clock(now=40.0)
        ((15.0, 20.0, 60.0), (0.0, 20.0, 50.0))
        """
        return split_clock(self.turn_seconds, self.seconds_left(now), self.bank_of(self.to_act))

    # --- updates -------------------------------------------------------------------------------------

    def turn_back(self) -> None:
        """The room refused our answer (illegal action, invalid amount) and it is still our turn in the same
        hand: the same choices again (the room does not send a new ``action_request``)."""
        if self.answered is not None and self.legal is None and self.to_act == self.my_seat \
                and self.hand_running and self.legal_hand == self.hand_id:
            self.legal = self.answered
        self.answered = None

    def note(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LIMIT]

    def _seat(self, number: int) -> SeatInfo:
        info = self.seats.get(number)
        if info is None:
            info = self.seats[number] = SeatInfo(number, f"seat {number + 1}")
        return info

    def _who(self, name: str, verb: str) -> str:
        """``"ana folds"``, or ``"You fold"`` when ``name`` is this client's player.

        >>> model = TableModel("t1", "me")
        >>> model._who("ana", "raises to"), model._who("me", "raises to"), model._who("me", "is back")
        ('ana raises to', 'You raise to', 'You are back')
        """
        if name != self.me:
            return f"{name} {verb}"
        first, _, rest = verb.partition(" ")
        second = SECOND_PERSON.get(first, first.removesuffix("s") if first.endswith("s") else first)
        return f"You {second}" + (f" {rest}" if rest else "")

    def _name(self, number: int | None) -> str:
        if number is None:
            return "?"
        info = self.seats.get(number)
        return info.name if info is not None else f"seat {number + 1}"

    def apply(self, message: dict[str, Any], now: float = 0.0) -> None:
        """Update from one room message about this table. Unknown kinds are ignored (newer rooms)."""
        kind = message.get("type")
        self.revision += 1
        self.last_event = None
        if kind == "table":
            self._snapshot(message)
        elif kind == "event":
            event = message.get("event")
            if not isinstance(event, Event):  # a body straight from JSON: typed by the one event encoding
                try:
                    event = event_from_json(event or {})
                except CodecError:
                    return  # an event this client does not know (a newer room): nothing of it to show
            self.last_event = event
            self._event(event, str(message.get("hand") or ""), now)
        elif kind == "jackpot_paid":  # after the hand it belongs to: a banner, not a hand event
            self.jackpot_banner = jackpot_banner_text(message)
            self.note(self.jackpot_banner)
        elif kind == "hand_cancelled":
            self.cancel(str(message.get("hand") or ""))
        elif kind == "action_request":
            self.legal = dict(message.get("legal") or {})
            self.requests += 1
            self.legal_hand = str(message.get("hand"))
            self.to_act = int(message.get("seat", self.my_seat or 0))
            self.turn_seconds = float(message.get("deadline") or 0.0)
            self.turn_started = now
            self.error = ""
        elif kind == "fairness":
            self._fairness(str(message.get("hand")), bool(message.get("ok")), message.get("violations") or [],
                           joined_late=bool(message.get("joined_late")),
                           unverified=str(message.get("unverified") or ""))
        elif kind == "verification_result" and not message.get("ok"):
            self._claim(str(message.get("hand")), str(message.get("name") or "a player"),
                        message.get("violations") or [], now)
        elif kind == "chat":
            self.chat.append((str(message.get("sender", "")), str(message.get("text", ""))))
            del self.chat[:-200]
        elif kind == "error":
            self.error = str(message.get("message") or message.get("code") or "the room refused that")

    def _snapshot(self, message: dict[str, Any]) -> None:
        self.max_seats = int(message.get("max_seats", self.max_seats))
        self.kind = str(message.get("kind", self.kind))
        stakes = message.get("stakes")
        if isinstance(stakes, list) and len(stakes) == 2 and all(isinstance(value, int) for value in stakes):
            self.stakes = (int(stakes[0]), int(stakes[1]))  # the next hand's: a new level shows at once
        jackpot = message.get("jackpot")
        self.jackpot = dict(jackpot) if isinstance(jackpot, dict) else None
        home = message.get("home")
        self.home = dict(home) if isinstance(home, dict) else {}
        self.dealing = str(message.get("dealing") or "commit-reveal")
        mixed = message.get("mixed")
        self.mixed = dict(mixed) if isinstance(mixed, dict) else {}
        for key in ("game", "structure"):  # a mixed table's game changes between hands (R-MIX-1)
            value = message.get(key)
            if isinstance(value, str) and value and not self.hand_running:
                setattr(self, key, value)
        self.waiting = [str(name) for name in message.get("waiting", [])]
        running = bool(message.get("hand_running"))
        present = set()
        for row in message.get("seats", []):
            number = int(row["seat"])
            present.add(number)
            info = self.seats.get(number)
            if info is None or info.name != row.get("name"):
                info = self.seats[number] = SeatInfo(number, str(row.get("name", "")))
            if not (running and self.hand_running and info.in_hand):  # in a hand, the events keep the stacks
                info.stack = int(row.get("stack", info.stack))
            info.sitting_out = bool(row.get("sitting_out"))
            info.away = bool(row.get("away"))
            info.wait_for_big_blind = bool(row.get("wait_for_big_blind"))
        for number in [seat for seat in self.seats if seat not in present]:
            del self.seats[number]
        if self.hand_running and not running:
            self.to_act = None
        self.hand_running = running

    def _new_hand(self, hand: str) -> None:
        self._keep_offers(hand)
        self.hand_id = hand
        # one numbering: the table's (a tab opened at the table's sixth hand shows hand 6, as the records do)
        self.hand_number = table_hand_number(hand, self._planned) or self.hand_number + 1
        self.joined_mid_hand = False
        self._clear_hand()
        self.hands.append(HandSummary(hand, self.hand_number))
        del self.hands[:-100]
        self.records.setdefault(hand, HandRecord(hand, {seat: (info.name, info.stack)
                                                        for seat, info in self.seats.items()}))
        for old in list(self.records)[:-RECORD_LIMIT]:
            del self.records[old]
        self.note(self._hand_header())

    def _keep_offers(self, hand: str) -> None:
        """``hand`` is being dealt: what the hand that just ended still offers me stays on offer (W, S) until
        ``hand``'s first action, as the room takes it."""
        ended = bool(self.hand_id) and hand != self.hand_id and self.hand_over
        self.offered_hand = (self.hand_id or "") if ended else ""
        self.offered_rabbit = ended and self.rabbit_available
        self.offered_cards = self.after_win_cards if ended else []

    def _end_offers(self) -> None:
        self.offered_hand, self.offered_rabbit, self.offered_cards = "", False, []

    def _after_an_earlier_hand(self, event: Event, hand: str) -> None:
        """A rabbit or a show asked for after ``hand``, which is no longer the one on the felt (the next one is
        being dealt): into that hand's record and the log, named, never onto the new hand's board or seats."""
        record = self.records.get(hand)
        if record is not None:
            record.events.append(event)
        number = next((summary.number for summary in self.hands if summary.hand_id == hand), None)
        said = f"Hand {number}" if number is not None else "The last hand"
        player = str(getattr(event, "player", ""))
        who = "you" if player == self.me else player
        if isinstance(event, RabbitHuntShown):
            if hand == self.offered_hand:
                self.offered_rabbit = False
            streets = "; ".join(f"{street} {' '.join(map(str, cards))}" for street, cards in event.streets)
            self.note(f"{said}: rabbit hunt (asked by {who}), not played: {streets}")
        elif isinstance(event, CardsShownAfterWin):
            if player == self.me and hand == self.offered_hand:
                self.offered_cards = []
            verb = "show" if player == self.me else "shows"
            self.note(f"{said}: {who} {verb} {' '.join(str(card) for card in event.cards)}")

    def _hand_header(self) -> str:
        """The hand's first log line; a host-blind table's hands carry its badge (the host saw no hole card)."""
        badge = " [host-blind]" if self.dealing == "host-blind" else ""
        return f"── hand {self.hand_number} ({self.hand_id}){badge} ──"

    def _clear_hand(self) -> None:
        """Forget the running hand's cards, bets and pots (a new hand, or the room replaying this one)."""
        self.hand = HandView()
        self.hand_big_blind = 0
        self.board = []
        self.street = "preflop"
        self.to_act = None
        self.legal = None
        self.small_blind_seat = None
        self.big_blind_seat = None
        self.results = []
        self.shown_after_win = False
        self.second_board, self.rabbit = [], []
        self.acted, self.drew, self.up_cards = set(), False, []
        for info in self.seats.values():
            info.bet = info.committed = info.face_down = info.won = 0
            info.in_hand = info.folded = info.all_in = False
            info.cards = []
            info.down_cards = []
            info.last_action = info.hand_name = ""

    def _forget_notes_of_running_hand(self) -> None:
        """The room replays the running hand after a reconnect: its lines are about to come again, so the
        log keeps the hand's header and one line saying so instead of every line twice."""
        header = self._hand_header()
        if header in self.log:
            start = len(self.log) - self.log[::-1].index(header)
            del self.log[start:]
        self.note("(reconnected: the hand so far, as the room replays it)")

    def _sync(self, seat: int | None) -> None:
        """The hand state of ``seat`` (``None``: every seat) as the view has it, for the widgets (which read
        :class:`SeatInfo`), and the board."""
        hand = self.hand
        stud = not self.uses_blinds  # stud: my down cards are marked apart from my up cards
        states = hand.seats.items() if seat is None or seat not in hand.seats else ((seat, hand.seats[seat]),)
        for number, state in states:
            info = self._seat(number)
            info.stack = state.stack
            info.bet = state.bet
            info.committed = state.committed
            info.in_hand = state.in_hand
            info.folded = state.folded
            info.all_in = state.all_in
            info.cards = [str(card) for card in state.cards]
            info.down_cards = [str(card) for card in state.down_cards] if stud else []
            info.face_down = state.face_down
            info.won = state.won
            info.hand_name = state.description
        if len(self.board) != len(hand.board):
            self.board = [str(card) for card in hand.board]
        if len(self.second_board) != len(hand.second_board):
            self.second_board = [str(card) for card in hand.second_board]
        self.street = hand.street or self.street

    def _event(self, event: Event, hand: str, now: float) -> None:
        seat = getattr(event, "seat", None)
        player = getattr(event, "player", None)
        name = self._name(seat) if isinstance(seat, int) else str(player or "")
        if hand and hand != self.hand_id and isinstance(event, AFTER_HAND_EVENTS):
            self._after_an_earlier_hand(event, hand)
            return
        if self.offered_hand and isinstance(event, PLAYER_ACTIONS):
            self._end_offers()  # the new hand's first action: the room takes no rabbit or show of the last now
        if hand and hand != self.hand_id and not isinstance(event, HAND_STARTS + TABLE_EVENTS):
            # the table was opened (or a seat taken) during this hand: a hand of its own in the log, said so
            self._new_hand(hand)
            self.joined_mid_hand = True
            self.hand_running = True
            self.hand.seed_stacks({number: info.stack for number, info in self.seats.items()})
            self.note("(joined during this hand: what happened before is not shown)")
        self._record(hand, event)
        if isinstance(event, HandStarted):
            self._hand_started(event, hand)
        # stud: the first raise over a bring-in (to the full bet) is a completion (R-STUD-1)
        completing = bool(self.hand.bring_in) and self.current_bet() == self.hand.bring_in
        self.hand.apply(event)
        if type(event) in HAND_EVENTS:
            # An action, a deal or an award changes its own seat; a hand's start, a new round or its end them all.
            seat = getattr(event, "seat", None)
            self._sync(seat if isinstance(seat, int) and not isinstance(event, SevenDeuceBountyPaid) else None)
        if isinstance(event, HandPlanned):
            self._planned = (hand, event.hand_number)
            self.button_seat = event.button_seat
            self.small_blind_seat = event.small_blind_seat
            self.big_blind_seat = event.big_blind_seat
        elif isinstance(event, HandStarted):
            self.hand_big_blind = self.stakes[1]  # the level in force as it starts; its big blind's post says
        elif isinstance(event, AntePosted):
            self.note(f"{self._who(name, 'posts')} the ante {event.amount}")
        elif isinstance(event, BlindPosted):
            if event.kind == "small_blind":
                self.small_blind_seat = event.seat
            elif event.kind == "big_blind":
                self.big_blind_seat = event.seat
                if not event.all_in:  # a short all-in blind is not the level's
                    self.hand_big_blind = event.amount
            self.note(f"{self._who(name, 'posts')} the {event.kind.replace('_', ' ')} {event.amount}")
        elif isinstance(event, HoleCardsDealt):
            if name == self.me:
                down = "" if self.uses_blinds else " (face down)"
                self.note(f"Dealt to you: {' '.join(str(card) for card in event.cards)}{down}")
        elif isinstance(event, UpCardsDealt):
            self.up_cards.append(("you" if name == self.me else name, [str(card) for card in event.cards]))
            if name == self.me:
                self.note(f"Dealt to you: {' '.join(str(card) for card in event.cards)} (face up)")
        elif isinstance(event, BoardDealt):
            self.note(f"{self.street.capitalize()}: {' '.join(self.board)}")
        elif isinstance(event, BettingRoundStarted):
            self._street_line(event.street)
            self.acted, self.drew = set(), False
            for info in self.seats.values():
                if not info.folded and not info.all_in:
                    info.last_action = ""
        elif isinstance(event, Folded):
            self.acted.add(event.seat)
            self._seat(event.seat).last_action = "fold"
            self.note(self._who(name, "folds"))
        elif isinstance(event, Checked):
            self.acted.add(event.seat)
            self._seat(event.seat).last_action = "check"
            self.note(self._who(name, "checks"))
        elif isinstance(event, Called):
            self.acted.add(event.seat)
            self._seat(event.seat).last_action = "call"
            self.note(f"{self._who(name, 'calls')} {event.amount}" + (" (all-in)" if event.all_in else ""))
        elif isinstance(event, BetPlaced | Raised):
            betting = isinstance(event, BetPlaced)
            self.acted = {event.seat}  # a bet or raise: everyone else acts again
            verb = "completes to" if completing else "bets" if betting else "raises to"
            self._seat(event.seat).last_action = "complete" if completing else "bet" if betting else "raise"
            self.note(f"{self._who(name, verb)} {event.to}" + (" (all-in)" if event.all_in else ""))
        elif isinstance(event, BringInPosted):
            self._seat(event.seat).last_action = "bring-in"  # stud's forced bet, where hold'em shows its blinds
            self.note(f"{self._who(name, 'brings in')} {event.amount}")
        elif isinstance(event, CardsDrawn):
            if not self.drew:  # the draw's first player: the log says which draw this is
                self.note(street_words(self.next_draw_street() or "draw").capitalize())
            self.drew = True
            count = event.count
            self._seat(event.seat).last_action = f"draws {count}" if count else "pat"
            self.note(f"{self._who(name, 'draws')} {count}" if count else self._who(name, "stands pat"))
        elif isinstance(event, DrawnCardsDealt):
            if name == self.me:
                thrown = " ".join(str(card) for card in event.discarded)
                line = f"You throw {thrown}, draw {' '.join(str(card) for card in event.cards)}"
                if self.log and self.log[-1].startswith("You draw "):  # the count's line, now with the cards
                    self.log[-1] = line
                else:
                    self.note(line)
        elif isinstance(event, UncalledBetReturned):
            self.note(f"Uncalled bet of {event.amount} returned to {'you' if name == self.me else name}")
        elif isinstance(event, HandShown):
            line = f"{self._who(name, 'shows')} {' '.join(str(card) for card in event.cards)}"
            self.note(line + (f" ({event.description})" if event.description else ""))
        elif isinstance(event, CardsShownAfterWin):
            info = self._seat(event.seat)
            revealed = [str(card) for card in event.cards]
            if info.name != self.me:
                info.cards = revealed + [card for card in info.cards if card not in revealed]
                info.face_down = max(0, info.face_down - len(revealed))
            else:
                self.shown_after_win = True
            self.note(f"{self._who(name, 'shows')} {' '.join(revealed)}")
        elif isinstance(event, HandMucked):
            self._seat(event.seat).last_action = "muck"
            self.note(self._who(name, "mucks"))
        elif isinstance(event, RakeTaken):
            self.note(f"Rake {event.amount}")
        elif isinstance(event, PotAwarded):  # a BoardPotAwarded too: half a pot won on one board (R-HOME-1)
            self._pot_awarded(event, hand, name)
        elif isinstance(event, HandVoided):  # R-CRASH-1: no pot is won
            self.note(void_words(event, lambda seat: "you" if self._name(seat) == self.me else self._name(seat)))
            if self.hands and self.hands[-1].hand_id == hand:
                self.hands[-1].result = "void"
        elif isinstance(event, HOME_EVENTS):
            self._home_event(event, name)
        elif isinstance(event, HandEnded | HandFinished):
            self.to_act = None
            self.legal = None
        else:
            self._table_event(event, name, now)

    def _hand_started(self, event: HandStarted, hand: str) -> None:
        """A new hand, or the room replaying the running one after a reconnect (hand resync): a fresh view."""
        plan = (self.small_blind_seat, self.big_blind_seat)
        if hand != self.hand_id:
            self._new_hand(hand)
            self.jackpot_banner = ""
        else:
            self._clear_hand()
            self._forget_notes_of_running_hand()
            self.joined_mid_hand = False  # the replay brings the whole hand
        self.small_blind_seat, self.big_blind_seat = plan
        self.button_seat = event.button_seat
        self.hand_running = True

    def _street_line(self, street: str) -> None:
        """Stud: each street's line in the log with everyone's up cards ("Fourth street: ana 7h, you 9c")."""
        if self.uses_blinds:
            return
        shown = ", ".join(f"{who} {' '.join(cards)}" for who, cards in self.up_cards)
        self.up_cards = []
        self.note(f"{street_words(street).capitalize()}: {shown}" if shown else
                  f"{street_words(street).capitalize()}: dealt face down")

    def _pot_awarded(self, event: PotAwarded, hand: str, name: str) -> None:
        amount = event.amount
        pot = "the main pot" if event.pot_index == 0 else f"side pot {event.pot_index}"
        share_text = "" if event.share == "whole" else f" ({event.share})"
        on_board = {1: " on the first board", 2: " on the second board"}.get(getattr(event, "board", 0), "")
        line = f"{self._who(name, 'wins')} {amount} from {pot}{share_text}{on_board}"
        line += f" with {event.description}" if event.description else ""
        self.note(line)
        self._add_result(event.seat, amount, event.description)
        if self.hands and self.hands[-1].hand_id == hand:
            summary = self.hands[-1]
            # what each took from the pot (not a profit: a chop gives back what was put in)
            collects = "you collect" if name == self.me else f"{name} collects"
            summary.result = (summary.result + "; " if summary.result else "") + f"{collects} {amount}"

    def _table_event(self, event: Event, name: str, now: float) -> None:
        """The table's own events (turns, clocks, seats) that the log or the seats show."""
        if isinstance(event, TurnStarted):
            self.to_act = event.seat
            self.turn_seconds = max(0.0, event.deadline - event.started_at)
            self.turn_started = now
            self.room_clock_offset = event.started_at - now
            if self.to_act != self.my_seat:
                self.legal = None
        elif isinstance(event, TimeBankUsed):
            if event.disconnection:  # the disconnection bank is another clock: not the time bank
                self.note(f"{self._who(name, 'uses')} the disconnection bank ({event.left:.0f}s left)")
            else:
                self.time_banks[event.seat] = event.left
                if name == self.me:
                    self.time_bank = event.left
                self.note(f"{self._who(name, 'uses')} the time bank ({event.left:.0f}s left)")
        elif isinstance(event, TimeBanksRefilled):
            self.time_banks[event.seat] = event.time_bank
            if event.player == self.me:
                self.time_bank = event.time_bank
        elif isinstance(event, TimedOut):
            self.note(f"{self._who(name, 'ran out')} of time ({event.action})")
            if event.player == self.me:
                self.legal = None
        elif isinstance(event, PlayerSettingChanged) and event.setting == "auto_muck":
            if event.player == self.me:
                self.auto_muck = event.value == "true"
                self.note("You will muck losing hands at showdown" if self.auto_muck else
                          "You will be asked to show or muck at showdown")
        elif isinstance(event, LevelChanged):  # a level up, the host's new blinds: from the next hand on
            level = f"level {event.level}, " if event.level else ""  # a tournament's, its number
            self.note(f"From hand {event.from_hand}: {level}{level_words(event)}")
        elif isinstance(event, GameChanged):  # a mixed table's next game (R-MIX-1)
            self.game, self.structure = event.game, event.structure
            self.stakes = (event.small_blind, event.big_blind)
            self.note(f"From hand {event.from_hand}: {game_words(event)}")
        elif isinstance(event, SEAT_WORDS_EVENTS):
            who = str(getattr(event, "player", name))
            if who == self.me:  # away: the room frees my seat at seat_freed_at (its clock), unless I come back
                self.seat_freed_at = None
                if isinstance(event, PlayerAway | PlayerSatOut) and self.room_clock_offset is not None:
                    self.seat_freed_at = event.seat_freed_at - self.room_clock_offset
                self.away_warned = False
            words = f"adds {event.amount} chips" if isinstance(event, ChipsAdded) else SEAT_WORDS[type(event)]
            self.note(self._who(who, words))
            if isinstance(event, PlayerSeated | SeatFreed):
                self.time_banks.pop(event.seat, None)  # a new player in the seat brings his own bank
            if isinstance(event, SeatFreed) and self._name(event.seat) == who:
                self.seats.pop(event.seat, None)

    def _home_event(self, event: Event, name: str) -> None:
        """The home-game options' events (R-HOME-1..4): the question, the second board, the bomb, the bounty,
        the rabbit."""
        if isinstance(event, BombPotStarted):
            self.note(f"Bomb pot: everyone antes {self.bomb_pot}, no preflop betting, straight to the flop")
        elif isinstance(event, RunItTwiceOffered):
            self.note("All-in: run it twice? Each player still in answers (Y yes, N no; no answer is no)")
        elif isinstance(event, RunItTwiceAnswered):
            self.note(f"{self._who(name, 'says')} {'yes' if event.agreed else 'no'} to running it twice")
        elif isinstance(event, RunItTwiceDecided):
            self.note("Running it twice: two boards, each pot halved" if event.twice else "Running it once")
        elif isinstance(event, SecondBoardDealt):
            self.note(f"Second board {event.street}: {' '.join(self.second_board)}")
        elif isinstance(event, SevenDeuceBountyPaid):  # the chips moved in the view
            payers = ", ".join(f"{self._name(payer)} {chips}" for payer, chips in event.paid)
            self.note(f"{self._who(name, 'collects')} the 7-2 bounty: {event.total}"
                      + (f" ({payers})" if payers else ""))
        elif isinstance(event, RabbitHuntShown):
            self.rabbit = [str(card) for _, cards in event.streets for card in cards]
            streets = "; ".join(f"{street} {' '.join(map(str, cards))}" for street, cards in event.streets)
            self.note(f"Rabbit hunt (asked by {'you' if name == self.me else name}), not played: {streets}")

    def _record(self, hand: str, event: Event) -> None:
        """Keep ``event`` for the viewer, in the record of its hand (a replayed hand after a reconnect starts
        its record again: the room sends the whole hand once more)."""
        if not hand and isinstance(event, CardsShownAfterWin):
            hand = self.hand_id  # shown after the hand's end: the viewer shows it with that hand
        if not hand:
            return
        if isinstance(event, HandStarted) and hand in self.records:
            self.records[hand].events = [item for item in self.records[hand].events if isinstance(item, HandPlanned)]
        record = self.records.get(hand)
        if record is None and isinstance(event, HAND_STARTS):  # recorded from before its first line
            record = self.records[hand] = HandRecord(
                hand, {seat: (info.name, info.stack) for seat, info in self.seats.items()})
            for old in list(self.records)[:-RECORD_LIMIT]:
                del self.records[old]
        if record is not None:
            record.events.append(event)

    def replay(self, hand: str, steps: int | None = None) -> TableModel:
        """The table as it stood in ``hand`` after its first ``steps`` steps (:func:`hand_steps`; ``None``: the
        whole hand): a fresh model fed the recorded events, for the viewer to draw with the table's widgets."""
        record = self.records[hand]
        copy = TableModel(self.table_id, self.me, max_seats=self.max_seats, name=self.name, game=self.game,
                          stakes=self.stakes)
        copy.seats = {seat: SeatInfo(seat, name, stack) for seat, (name, stack) in record.seats.items()}
        events = record.events
        if steps is not None:
            events = events[:hand_steps(events)[steps][1]]
        for event in events:
            copy._event(event, hand, 0.0)
        copy.log = [line for line in copy.log if not line.startswith("── hand")]
        copy.hand_number = next((item.number for item in self.hands if item.hand_id == hand), 0)
        return copy

    def _add_result(self, seat: int, amount: int, description: str) -> None:
        """One more pot (or half pot) for ``seat``: the same hand winning several pots is one line."""
        for index, (other, chips, name) in enumerate(self.results):
            if other == seat and name == description:
                self.results[index] = (seat, chips + amount, name)
                return
        self.results.append((seat, amount, description))

    def result_lines(self, width: int = 0) -> list[str]:
        """The last hand's winners in words: ``"ana wins 120 with pair of jacks, ace kicker"``, ``"You win 8"``;
        with a ``width``, each hand's name as long as still fits it (down to the category, else none).

        >>> model = TableModel("t1", "me", seats={0: SeatInfo(0, "ana"), 1: SeatInfo(1, "me")})
        >>> model.results = [(0, 120, "pair of jacks, ace kicker"), (1, 8, "")]
        >>> model.result_lines()
        ['ana wins 120 with pair of jacks, ace kicker', 'You win 8']
        >>> model.result_lines(width=26)
        ['ana wins 120 with pair', 'You win 8']
        """
        lines = []
        for seat, chips, name in self.results:
            won = self._who(self._name(seat), "wins") + f" {chips}"
            forms = [f"{won} with {form}" for form in short_hand_names(name)] + [won]
            lines.append(next((form for form in forms if not width or len(form) <= width), won))
        return lines

    def _summary_of(self, hand: str) -> HandSummary:
        summary = next((item for item in reversed(self.hands) if item.hand_id == hand), None)
        if summary is None:
            summary = HandSummary(hand, table_hand_number(hand) or 0)
            self.hands.append(summary)
        return summary

    def _fairness(self, hand: str, ok: bool, violations: list[Any], joined_late: bool = False,
                  unverified: str = "") -> None:
        """This client's own verdict on ``hand``: the only one that raises the alarm."""
        summary = self._summary_of(hand)
        summary.joined_late = joined_late
        summary.unverified = unverified
        texts = [violation_words(item) for item in violations]
        if summary.fairness is not False:
            summary.fairness = ok
            summary.violations += texts
        if not ok:
            number = f"#{summary.number}" if summary.number else hand
            self.alarm = f"FAIRNESS VIOLATION: your own check failed on hand {number}"
            self.note(f"FAIRNESS VIOLATION on hand {hand}: {'; '.join(texts) or 'check failed'}")

    def _claim(self, hand: str, reporter: str, violations: list[Any], now: float) -> None:
        """Another player says ``hand`` failed his check: kept with the hand as his claim, shown as a notice at most
        once a :data:`CLAIM_NOTICE_SECONDS` per table — never as this client's alarm (issue 25 item 9)."""
        summary = self._summary_of(hand)
        texts = [violation_words(item) for item in violations] or ["check failed"]
        summary.claims += [f"{reporter}: {text}" for text in texts]
        del summary.claims[:-MAX_CLAIMS]
        if self.claim_shown_at is not None and now - self.claim_shown_at < CLAIM_NOTICE_SECONDS:
            self.claim = ""
            return
        own = {True: "your own check passed", False: "your own check failed too",
               None: "your own check is still running"}[summary.fairness]
        number = f"#{summary.number}" if summary.number else hand
        self.claim_shown_at = now
        self.claim = f"{reporter} reports a problem with hand {number}; {own} — details in the hand history (V)"
        self.note(f"{reporter} reports a problem with hand {number} ({own})")


def void_words(void: HandVoided, name_of: Callable[[int], str]) -> str:
    """The log line of a void hand: why, who lost what, what came back.

    >>> names = {0: "ana", 1: "you", 2: "cy", 3: "dee"}.__getitem__
    >>> void_words(HandVoided("too few players were left to open the cards", ((0, 4), (1, 4)), ((2, 2), (3, 2))),
    ...            names)
    'Hand void: too few players were left to open the cards. cy 2, dee 2 lost to the others; back: ana 4, you 4'
    """
    line = f"Hand void: {void.reason}."
    if void.forfeited:
        line += " " + ", ".join(f"{name_of(seat)} {chips}" for seat, chips in void.forfeited) + " lost to the others;"
    back = ", ".join(f"{name_of(seat)} {chips}" for seat, chips in void.returned)
    return line + (f" back: {back}" if back else " nothing was in the pot")


def level_words(level: LevelChanged) -> str:
    """The forced bets of a level in words.

    >>> level_words(LevelChanged(from_hand=7, small_blind=2, big_blind=4, ante=1, big_blind_ante=0, bring_in=0))
    'blinds 2/4, ante 1'
    >>> level_words(LevelChanged(from_hand=7, small_blind=0, big_blind=0, ante=1, big_blind_ante=0, bring_in=2))
    'ante 1, bring-in 2'
    """
    parts = [f"blinds {level.small_blind}/{level.big_blind}"] if level.big_blind else []
    parts += [f"ante {level.ante}"] if level.ante else []
    parts += [f"big-blind ante {level.big_blind_ante}"] if level.big_blind_ante else []
    parts += [f"bring-in {level.bring_in}"] if level.bring_in else []
    return ", ".join(parts)


def game_words(change: GameChanged) -> str:
    """A mixed table's new game in words (R-MIX-1).

    >>> game_words(GameChanged(9, "razz", "fixed_limit", 0, 2, 0, 1))
    'Razz (fixed limit), bring-in 1'
    >>> game_words(GameChanged(1, "omaha_hi_lo", "fixed_limit", 1, 2, 0, 0))
    'Omaha Hi/Lo 8-or-better (fixed limit), blinds 1/2'
    """
    stud = change.bring_in > 0
    level = LevelChanged(change.from_hand, 0 if stud else change.small_blind, 0 if stud else change.big_blind,
                         change.ante, 0, change.bring_in)
    return f"{game_name(change.game)} ({change.structure.replace('_', ' ')}), {level_words(level)}"


def jackpot_banner_text(event: Mapping[str, Any]) -> str:
    """The banner of a ``jackpot_paid`` message (PROTOCOL.md): which jackpot, the hand, who got how much.

    >>> jackpot_banner_text({"jackpot": "monte_carlo_holdem", "winning_hand": "four of a kind",
    ...                      "paid": [{"name": "ana", "role": "winner", "amount": 8002}], "next_pool": 2001})
    'JACKPOT! Monte-Carlo: four of a kind — ana 8002. Next pool 2001.'
    """
    pool = str(event.get("jackpot", ""))
    kind = "Monte-Carlo" if pool.startswith("monte_carlo") else "Smart bad beat" if pool.startswith("smart") \
        else "Bad beat"
    hand = str(event.get("winning_hand") or (f"{event.get('losing_hand')} lost" if event.get("losing_hand") else ""))
    paid = ", ".join(f"{clean_text(str(row.get('name', '')))} {int(row.get('amount', 0))}"
                     for row in event.get("paid", []) if isinstance(row, dict))
    return f"JACKPOT! {kind}: {clean_text(hand)} — {paid}. Next pool {int(event.get('next_pool', 0))}."
