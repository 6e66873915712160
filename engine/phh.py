"""PHH, the Poker Hand History format (TOML-based, phh-std): read it, write it, replay it through the engine.

Pure: functions take and return text and values, never paths (hosting reads the files).

- :func:`loads` reads one record into a :class:`HandRecord` (fields as in the PHH spec: ``variant``, ``antes``,
  ``blinds_or_straddles``, ``bring_in``, ``small_bet``, ``big_bet``, ``min_bet``, ``starting_stacks``,
  ``actions``, ``finishing_stacks``…; everything else is kept in ``metadata``).
- :func:`dumps` writes a record; :func:`record_from_events` builds one from a finished hand's events.
- :func:`replay` plays a record through :class:`engine.hand.Hand` and compares the finishing stacks.

Numbering (PHH): ``p1`` is the first seat left of the button, ``pN`` the button; heads-up ``p1`` is the big
blind and ``p2`` the button, who posts the small blind — and, as in PokerKit, ``blinds_or_straddles`` and
``antes`` are then listed as ``[small blind, big blind]`` / reversed. Amounts in a record may be fractional
(a few Pluribus records split an odd chip as .5/.5); they are kept as :class:`~fractions.Fraction`.

>>> record = loads('''variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [50, 100, 0]
... min_bet = 100
... starting_stacks = [10000, 10000, 10000]
... actions = ['d dh p1 AsKd', 'd dh p2 ????', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 300', 'p2 f']
... finishing_stacks = [10100, 9900, 10000]''')
>>> record.variant, record.player_count, record.actions[4]
('NT', 3, PhhAction(actor=1, verb='cbr', cards=(), amount=Fraction(300, 1), commentary=None))
>>> record.actions[1].cards
(None, None)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import gcd
from typing import Final

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Muck, Show
from engine.cards import Card
from engine.draw import Reshuffle
from engine.events import (
    BetPlaced,
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
    HoleCardsDealt,
    Raised,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
    UpCardsDealt,
)
from engine.hand import ForcedBets, Hand, HandConfig
from engine.rake import RecordedRake
from engine.structures import BettingStructure, StructureKind
from engine.variants import VARIANTS, ForcedBetKind, Variant
from engine.view import HandView

#: PHH action verbs: deal hole / deal board (dealer), fold, check or call, complete/bet/raise to, show or muck,
#: stand pat or discard, post bring-in.
VERBS: Final = frozenset({"dh", "db", "f", "cc", "cbr", "sm", "sd", "pb"})
RAKE_FIELD: Final = "_rake"
"""The chips the room took from a hand. A PHH user-defined field (leading underscore): PokerKit 0.7.7 keeps it in
``HandHistory.user_defined_fields``, whereas a plain ``rake`` key would be taken for PokerKit's rake *function*
and fail when the hand is played (``'int' object is not callable``)."""

_REQUIRED: Final = ("variant", "antes", "starting_stacks", "actions")
_KNOWN: Final = frozenset({
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
    "starting_stacks", "actions", "finishing_stacks", "players", "seats", "seat_count",
})


class PhhError(ValueError):
    """A PHH record cannot be read, written or replayed; the message says which field or action and why."""


class PhhCannotName(PhhError):
    """The game and structure have no PHH variant code (the spec's codes are fixed: NT, FT, PO, FO/8, F7S…;
    spread limit, pot-limit hold'em, 5-card draw, the 32-card games… have none), so PHH cannot record it."""

    def __init__(self, variant_id: str, structure_id: str) -> None:
        super().__init__(f"PHH has no variant code for {variant_id} with {structure_id}")
        self.variant_id = variant_id
        self.structure_id = structure_id


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``.

    ``actor``: 0 for the dealer (``d``), else the player number (``p1`` → 1). ``verb``: one of :data:`VERBS`.
    ``cards``: the cards named (``None`` for an unknown ``??``); for ``dh`` the receiving player is ``target``.
    ``amount``: the street total of ``cbr``. ``commentary``: the text after ``#``.
    """

    actor: int
    verb: str
    cards: tuple[Card | None, ...] = ()
    amount: Fraction | None = None
    commentary: str | None = None
    target: int = field(default=0, compare=False, repr=False)

    def __str__(self) -> str:
        return format_action(self)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One PHH hand. Amounts are :class:`~fractions.Fraction` (whole chips in all but a few records)."""

    variant: str
    antes: tuple[Fraction, ...]
    starting_stacks: tuple[Fraction, ...]
    actions: tuple[PhhAction, ...]
    blinds_or_straddles: tuple[Fraction, ...] | None = None
    bring_in: Fraction | None = None
    small_bet: Fraction | None = None
    big_bet: Fraction | None = None
    min_bet: Fraction | None = None
    ante_trimming_status: bool = False
    finishing_stacks: tuple[Fraction, ...] | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    metadata: Mapping[str, object] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        """Number of players in the hand (the length of ``starting_stacks``)."""
        return len(self.starting_stacks)


# --- reading ------------------------------------------------------------------------------------------------


def _amount(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhError(f"{where}: expected a number, got {value!r}")
    amount = Fraction(value)
    if amount < 0:
        raise PhhError(f"{where}: amounts cannot be negative, got {value}")
    return amount


def _amounts(data: Mapping[str, object], name: str, length: int | None) -> tuple[Fraction, ...]:
    values = data[name]
    if not isinstance(values, list):
        raise PhhError(f"{name}: expected a list of numbers, got {values!r}")
    if length is not None and len(values) != length:
        raise PhhError(f"{name}: expected {length} entries (one per player), got {len(values)}")
    return tuple(_amount(value, f"{name}[{index}]") for index, value in enumerate(values))


def _optional_amount(data: Mapping[str, object], name: str) -> Fraction | None:
    return None if data.get(name) is None else _amount(data[name], name)


def parse_cards_field(text: str, where: str) -> tuple[Card | None, ...]:
    """Cards written back to back (``"AsKd"``, ``"????"``); ``None`` stands for an unknown card.

    >>> parse_cards_field("Ac??", "test")
    (Card('Ac'), None)
    """
    if len(text) % 2:
        raise PhhError(f"{where}: {text!r} is not a list of two-character cards")
    cards: list[Card | None] = []
    for index in range(0, len(text), 2):
        token = text[index:index + 2]
        if token == "??":
            cards.append(None)
            continue
        try:
            cards.append(Card.parse(token))
        except ValueError as error:
            raise PhhError(f"{where}: {error}") from None
    return tuple(cards)


def _player(token: str, where: str) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit() or int(token[1:]) < 1:
        raise PhhError(f"{where}: {token!r} is not a player (expected p1, p2, …)")
    return int(token[1:])


def parse_action(text: str, where: str = "action") -> PhhAction:
    """Read one PHH action such as ``"d dh p1 AsKd"``, ``"p3 cbr 300"``, ``"p2 cc"``, ``"p1 sm"``.

    >>> parse_action("p2 sd AsKs # draws two")
    PhhAction(actor=2, verb='sd', cards=(Card('As'), Card('Ks')), amount=None, commentary='draws two')
    """
    body, _, comment = text.partition("#")
    commentary = comment.strip() or None
    words = body.split()
    where = f"{where} {text!r}"
    match words:
        case ["d", "dh", player, cards]:
            target = _player(player, where)
            return PhhAction(0, "dh", parse_cards_field(cards, where), None, commentary, target)
        case ["d", "db", cards]:
            return PhhAction(0, "db", parse_cards_field(cards, where), None, commentary)
        case [player, "cbr", amount]:
            try:
                value = Fraction(amount)
            except ValueError:
                raise PhhError(f"{where}: {amount!r} is not an amount") from None
            if value <= 0:
                raise PhhError(f"{where}: a bet or raise must be positive")
            return PhhAction(_player(player, where), "cbr", (), value, commentary)
        case [player, ("f" | "cc" | "pb") as verb]:
            return PhhAction(_player(player, where), verb, (), None, commentary)
        case [player, ("sm" | "sd") as verb]:
            return PhhAction(_player(player, where), verb, (), None, commentary)
        case [player, ("sm" | "sd") as verb, cards]:
            shown = () if cards == "-" else parse_cards_field(cards, where)
            return PhhAction(_player(player, where), verb, shown, None, commentary)
    raise PhhError(f"{where}: not a PHH action (expected e.g. 'd dh p1 AsKd', 'd db Jc3d5c', 'p3 cbr 300', 'p2 cc')")


def format_action(action: PhhAction) -> str:
    """The PHH text of an action (inverse of :func:`parse_action`).

    >>> format_action(parse_action("d dh p3 ????"))
    'd dh p3 ????'
    """
    cards = "".join("??" if card is None else str(card) for card in action.cards)
    if action.verb == "dh":
        text = f"d dh p{action.target} {cards}"
    elif action.verb == "db":
        text = f"d db {cards}"
    elif action.verb == "cbr":
        assert action.amount is not None
        text = f"p{action.actor} cbr {_format_number(action.amount)}"
    elif action.verb in ("sm", "sd") and cards:
        text = f"p{action.actor} {action.verb} {cards}"
    else:
        text = f"p{action.actor} {action.verb}"
    return text if action.commentary is None else f"{text} # {action.commentary}"


def _toml(text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None


def loads(text: str) -> HandRecord:
    """Read one PHH record. Raises :class:`PhhError` on bad TOML, a missing field or a malformed action
    (a several-hands ``.phhs`` text names what to use instead: :func:`split_records`)."""
    data = _toml(text)
    if "variant" not in data and data and all(isinstance(value, dict) for value in data.values()):
        raise PhhError(f"this is a several-hands (.phhs) text with {len(data)} sections ([{next(iter(data))}]…);"
                       " read it section by section")
    return record_from_toml(data)


def split_records(text: str) -> list[tuple[str | None, Mapping[str, object]]]:
    """The hands of a PHH text: one record (``.phh``: name ``None``) or the sections of a several-hands file
    (``.phhs``: ``[1]``, ``[2]``… or any table names, in file order) as (section name, TOML table); read each
    with :func:`record_from_toml`. Raises :class:`PhhError` only for text that is not TOML.

    >>> [name for name, _ in split_records("[1]\\nvariant = 'NT'\\n[2]\\nvariant = 'FT'\\n")]
    ['1', '2']
    >>> split_records("variant = 'NT'")[0][0] is None
    True
    """
    data = _toml(text)
    if "variant" in data or not data or not all(isinstance(value, dict) for value in data.values()):
        return [(None, data)]
    return [(name, value) for name, value in data.items() if isinstance(value, dict)]


def record_from_toml(data: Mapping[str, object]) -> HandRecord:
    """One record from its TOML table (a whole ``.phh`` file or one section of a ``.phhs``); :class:`PhhError`
    for a missing field or a malformed action."""
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise PhhError(f"missing required field(s): {', '.join(missing)}")
    variant = data["variant"]
    if not isinstance(variant, str):
        raise PhhError(f"variant: expected a string such as 'NT', got {variant!r}")
    starting_stacks = _amounts(data, "starting_stacks", None)
    count = len(starting_stacks)
    if count < 2:
        raise PhhError(f"starting_stacks: a hand needs at least 2 players, got {count}")
    actions_field = data["actions"]
    if not isinstance(actions_field, list) or not all(isinstance(item, str) for item in actions_field):
        raise PhhError("actions: expected a list of strings")
    actions = tuple(parse_action(item, f"actions[{index}]") for index, item in enumerate(actions_field))
    for action in actions:
        player = action.target or action.actor
        if player > count:
            raise PhhError(f"action {format_action(action)!r} names p{player}, but the hand has {count} players")
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != count):
        raise PhhError(f"players: expected {count} names")
    seats = data.get("seats")
    seat_count = data.get("seat_count")
    return HandRecord(
        variant=variant,
        antes=_amounts(data, "antes", count),
        starting_stacks=starting_stacks,
        actions=actions,
        blinds_or_straddles=(
            _amounts(data, "blinds_or_straddles", count) if data.get("blinds_or_straddles") is not None else None
        ),
        bring_in=_optional_amount(data, "bring_in"),
        small_bet=_optional_amount(data, "small_bet"),
        big_bet=_optional_amount(data, "big_bet"),
        min_bet=_optional_amount(data, "min_bet"),
        ante_trimming_status=bool(data.get("ante_trimming_status", False)),
        finishing_stacks=(
            _amounts(data, "finishing_stacks", count) if data.get("finishing_stacks") is not None else None
        ),
        players=None if players is None else tuple(str(name) for name in players),
        seats=tuple(int(seat) for seat in seats) if isinstance(seats, list) else None,
        seat_count=seat_count if isinstance(seat_count, int) else None,
        metadata={key: value for key, value in data.items() if key not in _KNOWN},
    )


# --- writing ------------------------------------------------------------------------------------------------


def _format_number(value: Fraction | int) -> str:
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    decimal = Decimal(fraction.numerator) / Decimal(fraction.denominator)
    return format(decimal.normalize(), "f")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction | int):
        return _format_number(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise PhhError(f"cannot write {value!r} in PHH")


def dumps(record: HandRecord) -> str:
    """The PHH text of a record (fields in the spec's order, actions one per line).

    >>> print(dumps(loads("variant = 'NT'\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\nmin_bet = 2\\n"
    ...                   "starting_stacks = [200, 200]\\nactions = ['p2 f']")), end="")
    variant = "NT"
    ante_trimming_status = false
    antes = [0, 0]
    blinds_or_straddles = [1, 2]
    min_bet = 2
    starting_stacks = [200, 200]
    actions = [
      "p2 f",
    ]
    """
    lines = [f"variant = {_toml_value(record.variant)}",
             f"ante_trimming_status = {_toml_value(record.ante_trimming_status)}",
             f"antes = {_toml_value(record.antes)}"]
    for name in ("blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(record, name)
        if value is not None:
            lines.append(f"{name} = {_toml_value(value)}")
    lines.append(f"starting_stacks = {_toml_value(record.starting_stacks)}")
    lines.append("actions = [")
    lines.extend(f"  {_toml_value(format_action(action))}," for action in record.actions)
    lines.append("]")
    for name in ("players", "seats", "seat_count", "finishing_stacks"):
        value = getattr(record, name)
        if value is not None:
            lines.append(f"{name} = {_toml_value(value)}")
    for key, value in record.metadata.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def whole_chips(values: Iterable[Fraction]) -> tuple[int, ...]:
    """Values as ``int`` chips; :class:`PhhError` if any is fractional."""
    result: list[int] = []
    for value in values:
        if value.denominator != 1:
            raise PhhError(f"{value} is not a whole number of chips")
        result.append(value.numerator)
    return tuple(result)


def stacks_match(
    computed: Sequence[Fraction | int], expected: Sequence[Fraction], unit: Fraction = Fraction(1)
) -> bool:
    """Whether computed finishing stacks match a record's (corpus README on .5-chip records).

    Exact equality, or: the totals agree, every expected stack that is a whole number of ``unit`` (the
    smallest chip of the replay) is equal, and every other one (an odd chip split .5/.5 in the record) is
    within half a ``unit`` — the engine gives the whole chip to one player by the odd-chip rule (R-POT-2).

    >>> stacks_match([10113, 9775, 10112], [Fraction("10112.5"), 9775, Fraction("10112.5")])
    True
    >>> stacks_match([10114, 9774, 10112], [Fraction("10112.5"), 9775, Fraction("10112.5")])
    False
    """
    if len(computed) != len(expected) or sum(computed) != sum(expected):
        return False
    for mine, theirs in zip(computed, expected, strict=True):
        if (theirs / unit).denominator == 1:
            if mine != theirs:
                return False
        elif abs(mine - theirs) > unit / 2:
            return False
    return True


# --- replaying a record through the engine --------------------------------------------------------------------

#: PHH variant codes the engine plays: code → (engine variant ids, first one the engine has wins; structure kind),
#: read from each variant's ``phh_codes`` (engine.variants). Games PHH has no code for (5-card draw, 32-card games)
#: are exported as PokerStars-style text only.
ENGINE_VARIANTS: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    code: ((variant.id,), structure) for variant in VARIANTS.values() for structure, code in variant.phh_codes
}


def engine_variant(code: str) -> tuple[Variant, str] | None:
    """The engine's variant and structure kind for a PHH code, or None when the engine does not play it.

    >>> variant, structure = engine_variant("PO")
    >>> variant.id, structure
    ('omaha', 'pot_limit')
    >>> engine_variant("FK") is None  # Kuhn poker
    True
    """
    entry = ENGINE_VARIANTS.get(code)
    if entry is None:
        return None
    for variant_id in entry[0]:
        if variant_id in VARIANTS:
            return VARIANTS[variant_id], entry[1]
    return None


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of :func:`replay`.

    ``finishing_stacks``: the engine's, in the record's units and player order (``None`` when it failed).
    ``expected``: the record's ``finishing_stacks`` or ``None``. ``match``: ``None`` when there is nothing to
    compare (no expected stacks, an error, an unsupported variant). ``supported``: False for a variant the
    engine does not play (then ``error`` says so). ``error``: why the replay failed.
    """

    variant: str
    finishing_stacks: tuple[Fraction, ...] | None
    expected: tuple[Fraction, ...] | None
    match: bool | None
    supported: bool = True
    error: str | None = None


def _scale_of(record: HandRecord) -> int:
    """The smallest factor that makes every input amount of the record a whole number of chips."""
    amounts: list[Fraction] = [*record.starting_stacks, *record.antes, *(record.blinds_or_straddles or ())]
    amounts += [value for value in (record.bring_in, record.small_bet, record.big_bet, record.min_bet) if value]
    amounts += [action.amount for action in record.actions if action.amount is not None]
    scale = 1
    for amount in amounts:
        scale = scale * amount.denominator // gcd(scale, amount.denominator)
    return scale


def _structure(kind: str, record: HandRecord, scale: int) -> BettingStructure:
    if kind == "no_limit":
        return BettingStructure.no_limit()
    if kind == "pot_limit":
        return BettingStructure.pot_limit()
    if record.small_bet is None or record.big_bet is None:
        raise PhhError(f"variant {record.variant} needs small_bet and big_bet")
    return BettingStructure.fixed_limit(int(record.small_bet * scale), int(record.big_bet * scale))


def _forced_bets(record: HandRecord, scale: int) -> ForcedBets:
    """PHH blinds and antes as the engine's plan: seat = player number - 1, the button is the last player
    (stud: seat order). Unequal antes are accepted only as a big-blind ante."""
    count = record.player_count
    antes = [int(ante * scale) for ante in record.antes]
    blinds = [int(blind * scale) for blind in record.blinds_or_straddles or [Fraction(0)] * count]
    if count == 2:  # PHH lists heads-up blinds and antes as [small blind, big blind]: p2 (button) posts the first.
        blinds.reverse()
        antes.reverse()
        small_blind_seat: int | None = 1 if blinds[1] else None
        big_blind_seat: int | None = 0 if blinds[0] else None
        straddle_seat = None
    else:
        posting = [index for index, blind in enumerate(blinds) if blind]
        if len(posting) > 3 or posting != list(range(posting[0], posting[0] + len(posting)) if posting else []):
            raise PhhError(f"blinds_or_straddles {_format_list(record.blinds_or_straddles)}: only consecutive"
                           " small blind, big blind and one straddle are supported")
        small_blind_seat = posting[0] if len(posting) >= 2 else None
        big_blind_seat = posting[1] if len(posting) >= 2 else (posting[0] if posting else None)
        straddle_seat = posting[2] if len(posting) == 3 else None
    big_blind_ante = 0
    if len(set(antes)) > 1:
        nonzero = [index for index, ante in enumerate(antes) if ante]
        if len(nonzero) != 1 or nonzero[0] != big_blind_seat:
            raise PhhError(f"antes {_format_list(record.antes)}: unequal antes other than a big-blind ante")
        big_blind_ante = antes[nonzero[0]]
        antes = [0] * count

    def blind(seat: int | None) -> int:
        return 0 if seat is None else blinds[seat]

    plan = ForcedBets(
        button_seat=count - 1,
        small_blind_seat=small_blind_seat,
        small_blind=blind(small_blind_seat),
        big_blind_seat=big_blind_seat,
        big_blind=blind(big_blind_seat),
        straddle_seat=straddle_seat,
        straddle=blind(straddle_seat),
        ante=antes[0],
        bring_in=int((record.bring_in or 0) * scale),
        big_blind_ante=big_blind_ante,
        dead_antes=not record.ante_trimming_status,
    )
    return plan


def _format_list(values: Sequence[Fraction] | None) -> str:
    return "[" + ", ".join(_format_number(value) for value in values or ()) + "]"


def _deck(record: HandRecord, variant: Variant) -> tuple[list[Card], list[Card]]:
    """The deck in the engine's deal order (R-BLIND-1, engine.variants): hole cards one at a time clockwise
    from p1, round after round; board cards as dealt; draw replacements one player after another. Also the
    cards dealt a second time (discards reshuffled when the stub ran out, R-DRAW-1), in the order dealt.

    Unknown cards (``??``) are the player's shown cards when the record shows them, else the lowest cards of
    the deck that the record does not name (deterministic; such hands are never shown)."""
    shown: dict[int, list[Card]] = {}
    for action in record.actions:
        if action.verb == "sm" and action.cards:
            shown[action.actor] = [card for card in action.cards if card is not None]
    known = {card for action in record.actions for card in action.cards if card is not None}
    unnamed = [card for card in variant.deck if card not in known]
    if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN:
        # Stud: an unknown up card must not steal the bring-in (lowest card) from the player the record names.
        unnamed.reverse()
    spare = iter(unnamed)
    named_to: dict[int, set[Card]] = {}
    unknown_slots: dict[int, int] = {}
    for action in record.actions:
        if action.verb == "dh":
            named_to.setdefault(action.target, set()).update(card for card in action.cards if card is not None)
            unknown_slots[action.target] = unknown_slots.get(action.target, 0) + action.cards.count(None)
    hidden_of = {player: [card for card in cards if card not in named_to.get(player, set())]
                 for player, cards in shown.items()}
    used_slots: dict[int, int] = {}

    def resolve(player: int, cards: tuple[Card | None, ...]) -> list[Card]:
        # The shown cards fill the player's LAST unknown slots: in a draw game the earlier unknown cards are the
        # ones thrown (``sd ??``), and the shown hand is what was kept and drawn last.
        hidden = hidden_of.get(player, [])
        first_shown_slot = unknown_slots.get(player, 0) - len(hidden)
        resolved: list[Card] = []
        for card in cards:
            if card is None:
                slot = used_slots.get(player, 0)
                used_slots[player] = slot + 1
                card = hidden[slot - first_shown_slot] if slot >= first_shown_slot else next(spare)
            resolved.append(card)
        return resolved

    order: list[Card] = []
    block: list[tuple[int, list[Card]]] = []
    after_draw = False

    def flush() -> None:
        if after_draw:
            for _, cards in block:
                order.extend(cards)
        else:
            merged: dict[int, list[Card]] = {}
            for player, cards in block:
                merged.setdefault(player, []).extend(cards)
            for index in range(max((len(cards) for cards in merged.values()), default=0)):
                order.extend(cards[index] for _, cards in sorted(merged.items()) if index < len(cards))
        block.clear()

    for action in record.actions:
        if action.verb == "dh":
            block.append((action.target, resolve(action.target, action.cards)))
            continue
        flush()
        if action.verb == "db":
            order.extend(card if card is not None else next(spare) for card in action.cards)
        after_draw = action.verb == "sd" or (after_draw and action.verb not in ("cc", "cbr", "f", "pb"))
    flush()
    unique: list[Card] = []
    reused: list[Card] = []
    seen: set[Card] = set()
    for card in order:
        if card in seen:
            reused.append(card)
        else:
            seen.add(card)
            unique.append(card)
    return unique + [card for card in variant.deck if card not in seen], reused


def _check_each_card_dealt_once(record: HandRecord) -> None:
    """``PhhError`` for a card the record deals while someone holds it (``d dh p1 AsAs``, one card to two
    players, a board card in a hand) or deals again without its coming back: a card is dealt a second time only
    as a draw replacement, after another player threw it (R-DRAW-1: discards reshuffled when the stub runs out,
    never the drawer's own discards of that draw). The replay then deals exactly that card or fails
    (:func:`_check_dealt_as_recorded`)."""
    holder: dict[Card, int] = {}  # card -> the player holding it (0: the board)
    thrown: set[Card] = set()  # discarded and not dealt again: what a reshuffle can bring back
    own_discards: dict[int, set[Card]] = {}  # each player's discards of his latest draw
    dealt: set[Card] = set()
    after_draw = False
    for action in record.actions:
        known = [card for card in action.cards if card is not None]
        if action.verb == "sd":
            for card in known:
                if holder.get(card, action.actor) != action.actor:
                    raise PhhError(f"{format_action(action)!r}: {card} is not p{action.actor}'s to discard")
                holder.pop(card, None)
                thrown.add(card)
                dealt.add(card)
            own_discards[action.actor] = set(known)
        elif action.verb in ("dh", "db"):
            receiver = action.target if action.verb == "dh" else 0
            for card in known:
                if card in holder:
                    where = "on the board" if holder[card] == 0 else f"held by p{holder[card]}"
                    raise PhhError(f"{format_action(action)!r}: {card} is dealt twice (already {where})")
                if card in dealt:
                    if not (card in thrown and action.verb == "dh" and after_draw):
                        raise PhhError(f"{format_action(action)!r}: {card} is dealt twice (it was dealt before and"
                                       " did not come back through a reshuffle of discards)")
                    if card in own_discards.get(receiver, set()):
                        raise PhhError(f"{format_action(action)!r}: {card} is p{receiver}'s own discard of this"
                                       " draw; a reshuffle never deals it back to him (R-DRAW-1)")
                    thrown.discard(card)
                dealt.add(card)
                holder[card] = receiver
        after_draw = action.verb == "sd" or (after_draw and action.verb not in ("cc", "cbr", "f", "pb"))


def _check_dealt_as_recorded(hand: Hand, record: HandRecord) -> None:
    """``PhhError`` when the engine dealt a player a card other than the one the record names (a reused
    discard the replay's reshuffle could not bring back where the record has it)."""
    engine: dict[int, list[Card]] = {}
    for event in hand.events:
        if isinstance(event, HoleCardsDealt | UpCardsDealt | DrawnCardsDealt):
            engine.setdefault(event.seat, []).extend(event.cards)
    recorded: dict[int, list[Card | None]] = {}
    for action in record.actions:
        if action.verb == "dh":
            recorded.setdefault(action.target - 1, []).extend(action.cards)
    for seat, cards in sorted(recorded.items()):
        for slot, (wanted, got) in enumerate(zip(cards, engine.get(seat, []), strict=False)):
            if wanted is not None and wanted != got:
                raise PhhError(f"p{seat + 1}'s card {slot + 1} is {wanted} in the record but the replay dealt {got}:"
                               " a reused card must come back through a reshuffle of discards")


def _replay_reshuffle(reused: list[Card]) -> Reshuffle:
    """The reshuffle that deals the record's reused discards in the record's order (the rest after them)."""
    waiting = list(reused)

    def reshuffle(discards: tuple[Card, ...], reshuffle_number: int) -> list[Card]:
        first = []
        for card in list(waiting):
            if card in discards and card not in first:
                first.append(card)
                waiting.remove(card)
        return first + [card for card in discards if card not in first]

    return reshuffle


def _engine_action(action: PhhAction, legal: LegalActions, scale: int, hand: Hand, named: set[Card]) -> Action:
    if action.verb == "f":
        return Fold()
    if action.verb == "cc":
        return Check() if legal.can_check else Call()
    if action.verb == "cbr":
        assert action.amount is not None
        to = int(action.amount * scale)
        if legal.min_raise_to is not None and to < legal.min_raise_to and to == _covering(hand, legal.seat):
            # PokerKit caps a bet at what the others can match; the engine's full bet moves the same chips (the
            # rest comes back uncalled): a WSOP Razz record raises to exactly cover the one player left.
            return BetOrRaise(legal.min_raise_to)
        return BetOrRaise(to)
    if action.verb == "pb":
        return BringIn()
    if action.verb == "sd":
        discards = [card for card in action.cards if card is not None]
        unknown = len(action.cards) - len(discards)
        if unknown:
            # Unknown discards (``??``) are cards the record never names: the hand's own unknown cards.
            hidden = [card for card in hand.hole_cards(legal.seat) if card not in named and card not in discards]
            if len(hidden) < unknown:
                raise PhhError(f"{format_action(action)!r}: more unknown discards than unknown cards in the hand")
            discards += hidden[:unknown]
        return Draw(tuple(discards))
    raise PhhError(f"{format_action(action)!r} is not a player decision")


def _covering(hand: Hand, seat: int) -> int:
    """The most any other player still in could have in front: a bet of this much covers them all."""
    stacks, bets = hand.stacks(), hand.bets()
    return max((stacks[other] + bets[other] for other in hand.seats if other != seat and hand.in_hand(other)),
               default=0)


def _showdown_choice(pending: list[PhhAction], seat: int) -> Action:
    """The record's show-or-muck for ``seat`` (taken out of ``pending``); showing when the record is silent."""
    for index, action in enumerate(pending):
        if action.verb == "sm" and action.actor == seat + 1:
            del pending[index]
            return Show() if action.cards else Muck()
    return Show()


def replay(record: HandRecord) -> ReplayResult:
    """Play ``record`` through :class:`engine.hand.Hand` and compare the finishing stacks.

    Variants outside :data:`ENGINE_VARIANTS`, or whose engine variant is not built yet, come back with
    ``supported=False``. Amounts with fractions of a chip are scaled to whole chips for the replay and back.
    Never raises for a bad record or an engine refusal: the reason is in ``error``.
    """
    expected = record.finishing_stacks
    game = engine_variant(record.variant)
    if game is None:
        return ReplayResult(record.variant, None, expected, None, False, f"unsupported variant {record.variant}")
    variant, structure_kind = game
    try:
        scale = _scale_of(record)
        recorded_rake = _recorded_rake(record, scale)
        config = HandConfig(variant, _structure(structure_kind, record, scale), rake=recorded_rake,
                            manual_showdown=True)
        seats = {index: int(stack * scale) for index, stack in enumerate(record.starting_stacks)}
        forced_bets = _forced_bets(record, scale)
        _check_each_card_dealt_once(record)
        deck, reused = _deck(record, variant)
        hand = Hand.start(config, seats, deck, forced_bets, reshuffle=_replay_reshuffle(reused))
        stacks = _drive(hand, record, scale)
        _check_dealt_as_recorded(hand, record)
    except ValueError as error:  # PhhError and the engine's IllegalAction family are ValueErrors
        return ReplayResult(record.variant, None, expected, None, True, str(error))
    finishing = tuple(Fraction(stack, scale) for stack in stacks)
    match = None if expected is None else stacks_match(finishing, expected, Fraction(1, scale))
    return ReplayResult(record.variant, finishing, expected, match)


def _recorded_rake(record: HandRecord, scale: int) -> RecordedRake | None:
    """The rake the record says the room took (``_rake``, written by :func:`record_from_events`), in the
    replay's chips; ``None`` when it took none. :class:`PhhError` for a value that is not a chip amount."""
    value = record.metadata.get(RAKE_FIELD)
    if value is None or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | Fraction) or value < 0:
        raise PhhError(f"{RAKE_FIELD} = {value!r}: expected the chips the room took, a number >= 0")
    chips = Fraction(value) * scale
    if chips.denominator != 1:
        raise PhhError(f"{RAKE_FIELD} = {value!r} is not a whole number of the record's chips")
    return RecordedRake(int(chips))


def _drive(hand: Hand, record: HandRecord, scale: int) -> list[int]:
    """Feed the record's decisions to the hand; returns the final stacks in player order."""
    pending = [action for action in record.actions if action.actor != 0]
    named = {card for action in record.actions for card in action.cards if card is not None}
    while not hand.is_over:
        legal = hand.legal_actions()
        if legal is None:
            break
        if (legal.can_show or legal.can_muck) and not legal.can_fold:
            hand.act(legal.seat, _showdown_choice(pending, legal.seat))
            continue
        while pending and pending[0].verb == "sm":
            pending.pop(0)  # shown before the engine's showdown (all-in run-out): the engine turns hands up itself
        if not pending:
            raise PhhError(f"the record ends while the engine waits for p{legal.seat + 1} to act")
        action = pending.pop(0)
        if action.actor != legal.seat + 1:
            raise PhhError(f"{format_action(action)!r}: the engine expects p{legal.seat + 1} to act")
        hand.act(legal.seat, _engine_action(action, legal, scale, hand, named))
    left = [format_action(action) for action in pending if action.verb != "sm"]
    if left:
        raise PhhError(f"the hand ended with actions left in the record: {left[:3]}")
    ended = hand.events[-1]
    if not isinstance(ended, HandEnded):
        raise PhhError("the engine's hand did not end with HandEnded")
    final = dict(ended.stacks)
    return [final[seat] for seat in range(record.player_count)]


# --- writing a finished hand ----------------------------------------------------------------------------------


def variant_code(variant_id: str, structure_id: str) -> str:
    """The PHH variant code of an engine game and structure; :class:`PhhCannotName` when PHH has none.

    >>> variant_code("omaha", "pot_limit")
    'PO'
    """
    for code, (variant_ids, structure_kind) in ENGINE_VARIANTS.items():
        if variant_id in variant_ids and structure_id == structure_kind:
            return code
    raise PhhCannotName(variant_id, structure_id)


class _ActionWriter:
    """Turns events into PHH actions; hole cards dealt in one phase become one ``d dh`` per player."""

    def __init__(self, player_of: Mapping[int, int]) -> None:
        self.player_of = player_of
        self.actions: list[PhhAction] = []
        self.dealing: dict[int, list[Card | None]] = {}
        self.last_dealt: int | None = None
        self.drawn: set[int] = set()

    def flush(self) -> None:
        for player in sorted(self.dealing):
            self.actions.append(PhhAction(0, "dh", tuple(self.dealing[player]), target=player))
        self.dealing.clear()
        self.drawn.clear()

    def deal(self, seat: int, cards: Sequence[Card | None]) -> None:
        player = self.player_of[seat]
        if player in self.dealing and self.last_dealt != player:
            # A new round of dealing (stud up cards, streets dealt out after an all-in): one line per round.
            self.flush()
        self.dealing.setdefault(player, []).extend(cards)
        self.last_dealt = player

    def add(self, seat: int, verb: str, cards: Sequence[Card | None] = (), amount: int | None = None) -> None:
        player = self.player_of[seat]
        if verb != "sd" or player in self.drawn or (self.dealing and not self.drawn):
            # Every discard of a draw round comes before its replacements (PHH and PokerKit deal them after).
            self.flush()
        if verb == "sd":
            self.drawn.add(player)
        value = None if amount is None else Fraction(amount)
        self.actions.append(PhhAction(self.player_of[seat], verb, tuple(cards), value))

    def board(self, cards: Sequence[Card]) -> None:
        self.flush()
        self.actions.append(PhhAction(0, "db", tuple(cards)))


def home_option_phh_cannot_express(events: Sequence[Event], bomb_pot: bool) -> str:
    """What of the home-game options in a hand PHH (as PokerKit 0.7.7 reads it) has no words for, or "": a bomb pot
    skips the preflop betting round, a hand run twice has a second board, a 7-2 bounty moves chips outside the pots."""
    if bomb_pot or any(isinstance(event, BombPotStarted) for event in events):
        return "a bomb pot (no preflop betting round, R-HOME-3)"
    if any(isinstance(event, SecondBoardDealt) for event in events):
        return "a hand run twice (R-HOME-1)"
    if any(isinstance(event, SevenDeuceBountyPaid) for event in events):
        return "a 7-2 bounty (R-HOME-4)"
    return ""


def record_from_events(
    events: Sequence[Event],
    config: HandConfig,
    forced_bets: ForcedBets,
    *,
    players: Mapping[int, str] | None = None,
    metadata: Mapping[str, object] | None = None,
) -> HandRecord:
    """The PHH record of a finished hand, from its events (DESIGN.md: history is a consumer of the event stream).

    ``events``: the hand's whole stream (or one seat's :func:`~engine.events.view_for` view: other seats'
    cards then read ``??``). ``config``/``forced_bets``: what :meth:`Hand.start` got (for the nominal blinds
    and bet sizes). ``players``: seat → name. Players are numbered from the first seat left of the button
    (PHH). Rake, when taken, is written as the user field ``_rake`` (:data:`RAKE_FIELD`), which
    :func:`replay` takes from the pots again.
    Raises :class:`PhhError` for a game PHH cannot name, dead or out-of-position blinds, a home-game option (a bomb
    pot, a hand run twice, a 7-2 bounty: R-HOME-1/3/4), or an unfinished hand.
    """
    view = HandView.replay(events)  # seats in hand order, starting and finishing stacks, rake
    if not view.started or not view.ended or not isinstance(events[-1], HandEnded):
        raise PhhError("a PHH record needs a whole hand: HandStarted first and HandEnded last")
    if forced_bets.dead_small_blinds or forced_bets.big_blinds_out_of_position:
        raise PhhError("PHH cannot express dead or out-of-position blinds")
    home = home_option_phh_cannot_express(events, forced_bets.bomb_pot)
    if home:
        raise PhhError(f"PHH cannot express {home}")
    code = variant_code(config.variant.id, config.structure.id)
    order = list(view.order)
    player_of = {seat: index + 1 for index, seat in enumerate(order)}
    count = len(order)
    blinds = [0] * count
    for seat, amount in (
        (forced_bets.small_blind_seat, forced_bets.small_blind),
        (forced_bets.big_blind_seat, forced_bets.big_blind),
        (forced_bets.straddle_seat, forced_bets.straddle),
    ):
        if seat is not None and amount and seat in player_of:
            blinds[player_of[seat] - 1] = amount
    antes = [forced_bets.ante] * count
    if forced_bets.big_blind_ante and forced_bets.big_blind_seat in player_of:
        antes[player_of[forced_bets.big_blind_seat] - 1] += forced_bets.big_blind_ante
    if count == 2:  # PHH heads-up: listed as [small blind, big blind] although p1 is the big blind
        blinds.reverse()
        antes.reverse()
    writer = _ActionWriter(player_of)
    for index, event in enumerate(events):
        if isinstance(event, HoleCardsDealt | UpCardsDealt):
            writer.deal(event.seat, event.cards)
        elif isinstance(event, CardsDealtFaceDown):
            writer.deal(event.seat, [None] * event.count)
        elif isinstance(event, BoardDealt):
            writer.board(event.cards)
        elif isinstance(event, Folded):
            writer.add(event.seat, "f")
        elif isinstance(event, Checked | Called):
            writer.add(event.seat, "cc")
        elif isinstance(event, BetPlaced | Raised):
            writer.add(event.seat, "cbr", amount=event.to)
        elif isinstance(event, BringInPosted):
            writer.add(event.seat, "pb")
        elif isinstance(event, DrawnCardsDealt):
            writer.add(event.seat, "sd", event.discarded)
            writer.deal(event.seat, event.cards)
        elif isinstance(event, CardsDrawn):
            following = events[index + 1] if index + 1 < len(events) else None
            if event.count == 0:
                writer.add(event.seat, "sd")
            elif not (isinstance(following, DrawnCardsDealt) and following.seat == event.seat):
                # Another seat's draw in one player's view: only the count is known.
                writer.add(event.seat, "sd", [None] * event.count)
                writer.deal(event.seat, [None] * event.count)
        elif isinstance(event, HandShown):
            writer.add(event.seat, "sm", event.cards)
        elif isinstance(event, HandMucked):
            writer.add(event.seat, "sm")
    writer.flush()
    structure = config.structure
    fixed = structure.kind is StructureKind.FIXED_LIMIT
    extra = dict(metadata or {})
    if view.rake:
        extra[RAKE_FIELD] = view.rake
    final = view.final_stacks
    return HandRecord(
        variant=code,
        antes=tuple(Fraction(ante) for ante in antes),
        starting_stacks=tuple(Fraction(view.starting_stacks[seat]) for seat in order),
        actions=tuple(writer.actions),
        blinds_or_straddles=None if forced_bets.bring_in else tuple(Fraction(blind) for blind in blinds),
        bring_in=Fraction(forced_bets.bring_in) if forced_bets.bring_in else None,
        small_bet=Fraction(structure.small_bet) if fixed else None,
        big_bet=Fraction(structure.big_bet) if fixed else None,
        min_bet=None if fixed else Fraction(forced_bets.big_blind),
        ante_trimming_status=not forced_bets.dead_antes,
        finishing_stacks=tuple(Fraction(final[seat]) for seat in order),
        players=None if players is None else tuple(players.get(seat, f"seat {seat + 1}") for seat in order),
        seats=tuple(seat + 1 for seat in order),
        metadata=extra,
    )
