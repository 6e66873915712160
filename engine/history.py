"""Hand histories for people and trackers: a finished hand's events as PokerStars-style text (and as PHH).

:func:`pokerstars_text` writes the layout hand trackers import (PokerStars' "Hand #… / *** HOLE CARDS *** /
*** SUMMARY ***" text). It is a consumer of the event stream like every other view (DESIGN.md "engine/"):
give it the whole log for the host's copy, or one seat's :func:`engine.events.view_for` for that player's
export (then only that player's cards are "Dealt to" and other hands appear only when shown).
:func:`phh_text` writes the same hand as PHH (:mod:`engine.phh`).

Pure: the date and names come in as arguments. Amounts are chips; ``chip_value``/``currency`` print them in
money (``chip_value=100, currency="$"``: 150 chips → ``$1.50``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.cards import Card
from engine.events import (
    AntePosted,
    BetPlaced,
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
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
    RunItTwiceDecided,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
    UncalledBetReturned,
    UpCardsDealt,
)
from engine.hand import ForcedBets, HandConfig
from engine.phh import dumps, record_from_events
from engine.structures import StructureKind
from engine.tournament_history import TournamentHand, eastern_time
from engine.variants import Variant
from engine.view import HandView

_STRUCTURE_NAMES = {
    StructureKind.NO_LIMIT: "No Limit",
    StructureKind.POT_LIMIT: "Pot Limit",
    StructureKind.HALF_POT_LIMIT: "Half Pot Limit",
    StructureKind.FIXED_LIMIT: "Limit",
    StructureKind.SPREAD_LIMIT: "Spread Limit",
}
_STREET_HEADERS = {
    "flop": "FLOP", "turn": "TURN", "river": "RIVER",
    # Stud streets and draws, as PokerStars titles them; Americana/Telesina's second street and the vela.
    "second": "2nd STREET", "third": "3rd STREET", "fourth": "4th STREET", "fifth": "5th STREET",
    "sixth": "6th STREET", "seventh": "RIVER", "vela": "VELA",
    "draw": "DRAW", "first_draw": "FIRST DRAW", "second_draw": "SECOND DRAW", "third_draw": "THIRD DRAW",
}


class HistoryError(ValueError):
    """The events are not a whole hand (no HandStarted first or HandEnded last)."""


@dataclass(frozen=True, slots=True)
class _Money:
    chip_value: int
    currency: str

    def __call__(self, chips: int) -> str:
        if self.chip_value == 1:
            return f"{self.currency}{chips}"
        whole, part = divmod(chips, self.chip_value)
        if part == 0:
            return f"{self.currency}{whole}"
        digits = len(str(self.chip_value - 1))
        return f"{self.currency}{whole}.{part:0{digits}d}"


def _street_name(title: str) -> str:
    """``"4th STREET"`` → ``"4th Street"``, ``"FLOP"`` → ``"Flop"`` (the summary's "folded on the 4th Street")."""
    return " ".join(word if word[0].isdigit() else word.capitalize() for word in title.split())


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(card) for card in cards) + "]"


def game_title(config: HandConfig) -> str:
    """The PokerStars game title, e.g. ``"Hold'em No Limit"`` or ``"Omaha Hi/Lo Limit"``."""
    game = config.variant.pokerstars_name
    return f"{game} {_STRUCTURE_NAMES[config.structure.kind]}"


def summary_game_title(variant: Variant, structure: StructureKind) -> str:
    """The game as PokerStars' tournament summaries name it, structure first: ``"No Limit Hold'em"``."""
    return f"{_STRUCTURE_NAMES[structure]} {variant.pokerstars_name}"


def pokerstars_text(
    events: Sequence[Event],
    config: HandConfig,
    forced_bets: ForcedBets,
    *,
    hand_id: int,
    players: Mapping[int, str],
    table_name: str = "croupier",
    seat_count: int = 10,
    played_at: datetime | None = None,
    chip_value: int = 1,
    currency: str = "",
    tournament: TournamentHand | None = None,
) -> str:
    """The hand as PokerStars-style text.

    ``events``: the hand's stream, HandStarted first and HandEnded last (or one seat's view of it).
    ``players``: table seat (0-based; printed as seat + 1) → screen name; names must not contain ": ".
    ``forced_bets``: the hand's plan (for the stakes in the header). ``played_at``: printed as
    ``YYYY/MM/DD HH:MM:SS`` plus its time zone name (``UTC`` when naive). Raises :class:`HistoryError` for an
    unfinished hand and ``KeyError`` for a seat without a name. ``tournament``: a tournament's hand — its
    header and table name as PokerStars writes them (:mod:`engine.tournament_history`), amounts in tournament
    chips (``chip_value`` and ``currency`` are then ignored).
    """
    started = events[0] if events else None
    ended = events[-1] if events else None
    if not isinstance(started, HandStarted) or not isinstance(ended, HandEnded):
        raise HistoryError("a hand history needs a whole hand: HandStarted first and HandEnded last")
    money = _Money(chip_value, currency) if tournament is None else _Money(1, "")
    structure = config.structure
    if structure.kind is StructureKind.FIXED_LIMIT:
        stakes = f"{money(structure.small_bet)}/{money(structure.big_bet)}"
    else:
        stakes = f"{money(forced_bets.small_blind)}/{money(forced_bets.big_blind)}"
    header = f"PokerStars Hand #{hand_id}: {game_title(config)} ({stakes})"
    if tournament is not None:
        low, high = ((structure.small_bet, structure.big_bet) if structure.kind is StructureKind.FIXED_LIMIT
                     else (forced_bets.small_blind, forced_bets.big_blind))
        header = tournament.info.header(hand_id, game_title(config), tournament.level, low, high)
        table_name = tournament.info.table_name(tournament.table_number)
    if played_at is not None:
        zone = played_at.tzname() or "UTC"
        header += f" - {played_at:%Y/%m/%d %H:%M:%S} {zone}"
        if tournament is not None:  # PokerStars always adds Eastern Time; trackers read the hand's time there
            header += f" [{eastern_time(played_at)} ET]"
    stud = any(street.hole_up for street in config.variant.streets)
    # Stud has no button: PokerStars writes "Table 'Name' 8-max" alone.
    button = "" if stud else f" Seat #{started.button_seat + 1} is the button"
    lines = [header, f"Table '{table_name}' {seat_count}-max{button}"]
    for seat, stack in sorted(started.stacks):
        chips = f"{money(stack)} in chips" if tournament is None else tournament.seat_chips(seat, stack)
        lines.append(f"Seat {seat + 1}: {players[seat]} ({chips})")
    body = _BodyWriter(events, config, forced_bets, players, money).lines()
    if tournament is not None:  # bounties and places after the pots, before the summary (PokerStars' order)
        summary = body.index("*** SUMMARY ***") if "*** SUMMARY ***" in body else len(body)
        body[summary:summary] = tournament.outcome_lines()
    lines += body
    return "\n".join(lines) + "\n"


class _BodyWriter:
    """Everything after the seat list: forced bets, streets, actions, showdown, summary.

    The hand's state comes from :class:`engine.view.HandView`, folded as the lines are written (board so far,
    each seat's cards so far) and whole for the summary (shown and mucked hands, awards, blinds, rake).
    What is left here is PokerStars' layout: headers, words, the raise sizes as it counts them, the street a
    player folded on."""

    def __init__(self, events: Sequence[Event], config: HandConfig, forced_bets: ForcedBets,
                 players: Mapping[int, str], money: _Money):
        self.events = events
        self.config = config
        # R-STUD-1: the first full bet of the bring-in round "completes" it (the bring-in is below a full bet).
        structure = config.structure
        self.full_bet = (structure.small_bet if structure.kind is StructureKind.FIXED_LIMIT
                         else forced_bets.big_blind)
        self.big_blind = forced_bets.big_blind
        self.bring_in_round = forced_bets.bring_in > 0 and any(street.hole_up for street in config.variant.streets)
        self.players = players
        self.money = money
        # Looked up ahead: the pots' names and a shown hand's name during an all-in run-out need the whole hand.
        self.awards = [event for event in events if isinstance(event, PotAwarded)]
        self.board = next((list(event.board) for event in reversed(events) if isinstance(event, BoardDealt)), [])
        self.pot_count = len({award.pot_index for award in self.awards})
        # Shows after the last board card are the showdown; earlier ones are an all-in run-out (R-SHOW-1).
        self.last_board_index = max((index for index, event in enumerate(events)
                                     if isinstance(event, BoardDealt | SecondBoardDealt)), default=-1)
        # R-HOME-1, a hand run twice: the streets dealt after the question are the FIRST ones, then the SECOND
        self.twice_from = next((index for index, event in enumerate(events)
                                if isinstance(event, RunItTwiceDecided) and event.twice), None)

    def name(self, seat: int) -> str:
        return self.players[seat]

    def describe(self, cards: Sequence[Card], description: str) -> str:
        """The shown hand's name: the engine's, else the best high hand on the final board, else "cards"."""
        if description:
            return description
        variant = self.config.variant
        if variant.has_board and len(self.board) >= 3:
            ranking = variant.hand_ranking  # the game's own ranking (short deck: a flush over a full house)
            try:
                return ranking.category(ranking.strength(cards, self.board))
            except (ValueError, KeyError):
                return "cards"
        return "cards"

    def pot_name(self, pot_index: int) -> str:
        if self.pot_count <= 1:
            return "pot"
        return "main pot" if pot_index == 0 else f"side pot-{pot_index}"

    def lines(self) -> list[str]:
        out: list[str] = []
        view = HandView()
        # The street total to match, as PokerStars words a raise ("raises 4 to 8"): the highest bet made this round,
        # a big blind all-in for less counted in full (R-BET-ALLIN), a leaver's returned chips not taken off.
        highest = 0
        dealt_header = False
        showdown_header = False
        shown_any = False
        folded_on: dict[int, str] = {}
        street = "Flop"
        streets = self.config.variant.streets
        stud = any(street_data.hole_up for street_data in streets)
        street_index = -1
        dealing = drawing = False
        completing = False
        # Stud, as PokerStars writes it: one "Dealt to" line per player and street, the cards he had before (that
        # this copy may see) in the first brackets, the new ones in the second: "Dealt to Ann [5d 6s As] [4h]".
        stud_new: dict[int, list[Card]] = {}
        for index, event in enumerate(self.events):
            # Stud streets and draw rounds get their own headers (hold'em keeps HOLE CARDS + board streets).
            if isinstance(event, HoleCardsDealt | UpCardsDealt | CardsDealtFaceDown):
                if not dealing and stud:
                    street_index += 1
                    if street_index < len(streets):
                        title = _STREET_HEADERS.get(streets[street_index].name, streets[street_index].name.upper())
                        out.append(f"*** {title} ***")
                        street = _street_name(title)
                        dealt_header = True
                dealing = True
                if stud:
                    if not isinstance(event, CardsDealtFaceDown):
                        stud_new.setdefault(event.seat, []).extend(event.cards)
                    view.apply(event)
                    continue
            elif not isinstance(event, CardsDrawn | DrawnCardsDealt):
                dealing = False
            if stud_new:
                for seat, cards in sorted(stud_new.items()):
                    info = view.seats[seat]  # the cards dealt to him so far: face down first, then the up cards
                    before = [card for card in (*info.down_cards, *info.up_cards) if card not in cards]
                    out.append(f"Dealt to {self.name(seat)} {_cards(before) + ' ' if before else ''}{_cards(cards)}")
                stud_new.clear()
            if isinstance(event, CardsDrawn | DrawnCardsDealt) and not drawing:
                drawing = True
                street_index = next((number for number in range(street_index + 1, len(streets))
                                     if streets[number].draw), street_index)
                title = _STREET_HEADERS.get(streets[street_index].name, streets[street_index].name.upper())
                out.append(f"*** {title} ***")
                street = _street_name(title)
            elif not isinstance(event, CardsDrawn | DrawnCardsDealt):
                drawing = False
            if isinstance(event, BoardDealt) and stud:
                street_index += 1
            view.apply(event)
            if isinstance(event, BettingRoundStarted):
                # Every round's amounts are street totals: "bets 8" on 6th street is 8 whatever came before.
                # Round 0 keeps the blinds (live bets of that round); stud's round 0 opens with the bring-in.
                if event.round_index > 0:
                    highest = 0
                completing = event.round_index == 0 and self.bring_in_round
            elif isinstance(event, AntePosted):
                out.append(f"{self.name(event.seat)}: posts the ante {self.money(event.amount)}"
                           + (" and is all-in" if event.all_in else ""))
            elif isinstance(event, BlindPosted):
                kind = {"small_blind": "small blind", "big_blind": "big blind", "straddle": "straddle",
                        "dead_small_blind": "dead small blind",
                        "big_blind_out_of_position": "big blind"}.get(event.kind, event.kind)
                out.append(f"{self.name(event.seat)}: posts {kind} {self.money(event.amount)}"
                           + (" and is all-in" if event.all_in else ""))
                if event.live:
                    # R-BET-ALLIN: a big blind all-in for less is still called in full.
                    full = self.big_blind if event.kind == "big_blind" else event.amount
                    highest = max(highest, event.amount, full)
            elif isinstance(event, HoleCardsDealt | UpCardsDealt):
                if not dealt_header:
                    out.append("*** HOLE CARDS ***")
                    dealt_header = True
                out.append(f"Dealt to {self.name(event.seat)} {_cards(event.cards)}")
            elif isinstance(event, BoardDealt | SecondBoardDealt):
                if not dealt_header:
                    out.append("*** HOLE CARDS ***")
                    dealt_header = True
                title = _STREET_HEADERS.get(event.street, event.street.upper())
                if isinstance(event, SecondBoardDealt):
                    title = f"SECOND {title}"
                elif self.twice_from is not None and index > self.twice_from:
                    title = f"FIRST {title}"
                street = _street_name(title)
                if len(event.board) > len(event.cards):
                    out.append(f"*** {title} *** {_cards(event.board[:-len(event.cards)])} {_cards(event.cards)}")
                else:
                    out.append(f"*** {title} *** {_cards(event.cards)}")
                highest = 0
            elif isinstance(event, Folded):
                out.append(f"{self.name(event.seat)}: folds")
                # PokerStars: "folded before Flop" (blind games), "folded on the 3rd Street" (stud: its header).
                early = not view.board and street_index <= 0 and not stud
                folded_on[event.seat] = "before Flop" if early else f"on the {street}"
            elif isinstance(event, Checked):
                out.append(f"{self.name(event.seat)}: checks")
            elif isinstance(event, Called):
                out.append(f"{self.name(event.seat)}: calls {self.money(event.amount)}"
                           + (" and is all-in" if event.all_in else ""))
            elif isinstance(event, BetPlaced | Raised):
                all_in = " and is all-in" if event.all_in else ""
                if completing and highest < self.full_bet:
                    # PokerStars: "completes it to 4" after (or instead of) a bring-in of 2.
                    out.append(f"{self.name(event.seat)}: completes it to {self.money(event.to)}{all_in}")
                elif highest == 0:
                    out.append(f"{self.name(event.seat)}: bets {self.money(event.to)}{all_in}")
                else:
                    out.append(f"{self.name(event.seat)}: raises {self.money(event.to - highest)} to "
                               f"{self.money(event.to)}{all_in}")
                completing = False
                highest = max(highest, event.to)
            elif isinstance(event, BringInPosted):
                out.append(f"{self.name(event.seat)}: brings in for {self.money(event.amount)}"
                           + (" and is all-in" if event.all_in else ""))
                highest = max(highest, event.amount)
            elif isinstance(event, DrawnCardsDealt):
                out.append(f"{self.name(event.seat)}: discards {len(event.discarded)} card"
                           f"{'' if len(event.discarded) == 1 else 's'} {_cards(event.discarded)}")
                out.append(f"Dealt to {self.name(event.seat)} {_cards(event.cards)}")
            elif isinstance(event, CardsDrawn):
                if event.count == 0:
                    out.append(f"{self.name(event.seat)}: stands pat")
            elif isinstance(event, UncalledBetReturned):
                out.append(f"Uncalled bet ({self.money(event.amount)}) returned to {self.name(event.seat)}")
            elif isinstance(event, HandShown):
                if index > self.last_board_index and not showdown_header:
                    out.append("*** SHOW DOWN ***")
                    showdown_header = True
                shown_any = True
                out.append(f"{self.name(event.seat)}: shows {_cards(event.cards)} "
                           f"({self.describe(event.cards, event.description)})")
            elif isinstance(event, HandMucked):
                if index > self.last_board_index and not showdown_header:
                    out.append("*** SHOW DOWN ***")
                    showdown_header = True
                shown_any = True
                out.append(f"{self.name(event.seat)}: mucks hand")
            elif isinstance(event, PotAwarded) and self.twice_from is not None:
                if not showdown_header:  # R-HOME-1: each board's showdown, as PokerStars writes a hand run twice
                    out += self.twice_showdowns()
                    showdown_header = True
            elif isinstance(event, PotAwarded):
                if shown_any and not showdown_header:
                    out.append("*** SHOW DOWN ***")
                    showdown_header = True
                out.append(f"{self.name(event.seat)} collected {self.money(event.amount)} from "
                           f"{self.pot_name(event.pot_index)}")
            elif isinstance(event, HandVoided):  # R-CRASH-1: no pot is won
                out.append(f"*** HAND VOID *** {event.reason}")
                out += [f"{self.name(seat)}: loses {self.money(chips)} to the others"
                        for seat, chips in event.forfeited]
                out += [f"{self.name(seat)}: gets {self.money(chips)} back" for seat, chips in event.returned]
            elif isinstance(event, SevenDeuceBountyPaid):  # R-HOME-4
                payers = ", ".join(f"{self.name(payer)} {self.money(chips)}" for payer, chips in event.paid)
                out.append(f"{self.name(event.seat)}: receives a 7-2 bounty of {self.money(event.total)}"
                           + (f" ({payers})" if payers else ""))
        out += self.summary(view, folded_on)
        return out

    def twice_showdowns(self) -> list[str]:
        """R-HOME-1: "*** FIRST SHOW DOWN ***" with the first board's collections, then the second's."""
        out: list[str] = []
        for board in (1, 2):
            out.append(f"*** {'FIRST' if board == 1 else 'SECOND'} SHOW DOWN ***")
            out += [f"{self.name(award.seat)} collected {self.money(award.amount)} from "
                    f"{self.pot_name(award.pot_index)}"
                    for award in self.awards if getattr(award, "board", 1) == board]
        return out

    def twice_result(self, seat: int) -> str:
        """A shown seat's result on each board: " and won (452) with a pair of aces, and lost"."""
        results: list[str] = []
        for board in (1, 2):
            won = [award for award in self.awards if award.seat == seat and getattr(award, "board", 1) == board]
            if won:
                description = next((award.description for award in won if award.description), "")
                amount = self.money(sum(award.amount for award in won))
                results.append(f"won ({amount})" + (f" with {description}" if description else ""))
            else:
                results.append("lost")
        return " and " + ", and ".join(results)

    def summary(self, final: HandView, folded_on: dict[int, str]) -> list[str]:
        """The summary, from the view of the whole hand."""
        awarded = {award.seat for award in final.awards}
        total = sum(award.amount for award in final.awards) + final.rake
        out = ["*** SUMMARY ***", f"Total pot {self.money(total)} | Rake {self.money(final.rake)}"]
        if self.twice_from is not None:  # R-HOME-1, PokerStars' words for a hand run twice
            out += ["Hand was run twice", f"FIRST Board {_cards(self.board)}",
                    f"SECOND Board {_cards(final.second_board)}"]
        elif self.board:
            out.append(f"Board {_cards(self.board)}")
        stud = any(street.hole_up for street in self.config.variant.streets)
        roles: dict[int, str] = {} if stud or final.button_seat is None else {final.button_seat: " (button)"}
        for seat, role in ((final.small_blind_seat, " (small blind)"), (final.big_blind_seat, " (big blind)")):
            if seat is not None:
                roles[seat] = roles.get(seat, "") + role
        for seat in sorted(final.order):
            info = final.seats[seat]
            text = f"Seat {seat + 1}: {self.name(seat)}{roles.get(seat, '')}"
            if info.shown and self.twice_from is not None:
                text += f" showed {_cards(info.shown)}{self.twice_result(seat)}"
            elif info.shown:
                result = f" and won ({self.money(info.won)})" if seat in awarded else " and lost"
                text += f" showed {_cards(info.shown)}{result}"
            elif info.mucked:
                text += " mucked"
            elif seat in awarded:
                text += f" collected ({self.money(info.won)})"
            elif seat in folded_on:
                text += f" folded {folded_on[seat]}"
            out.append(text)
        return out


def phh_text(
    events: Sequence[Event],
    config: HandConfig,
    forced_bets: ForcedBets,
    *,
    players: Mapping[int, str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> str:
    """The hand as PHH text (see :func:`engine.phh.record_from_events` for the arguments and errors)."""
    return dumps(record_from_events(events, config, forced_bets, players=players, metadata=metadata))
