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
from typing import Final

from engine.cards import Card

#: PHH action verbs: deal hole / deal board (dealer), fold, check or call, complete/bet/raise to, show or muck,
#: stand pat or discard, post bring-in.
VERBS: Final = frozenset({"dh", "db", "f", "cc", "cbr", "sm", "sd", "pb"})

_REQUIRED: Final = ("variant", "antes", "starting_stacks", "actions")
_KNOWN: Final = frozenset({
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
    "starting_stacks", "actions", "finishing_stacks", "players", "seats", "seat_count",
})


class PhhError(ValueError):
    """A PHH record cannot be read, written or replayed; the message says which field or action and why."""


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


def loads(text: str) -> HandRecord:
    """Read one PHH record. Raises :class:`PhhError` on bad TOML, a missing field or a malformed action."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from None
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
