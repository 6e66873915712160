"""A tournament's stored state (R-CRASH-1, issue 18; issue 28 "Stored state is data, versioned"): its director's
last snapshot, and the calls of each step since, replayed in order (:mod:`engine.tournament.journal`; written by
:meth:`hosting.tournaments.TournamentOwner._keep` through :meth:`hosting.store.Store.tournament_step`).

Both are JSON written with msgspec, the wire's codec, and carry the version of their format::

    {"version": 1, "tournament": {...}}                      a snapshot: engine.tournament.stored.TournamentRecord
    {"version": 1, "calls": [{"method": "register", "player": "ann", "payment": {"type": "balance"},
                              "now": 12.5, "password": null, "draws": [], "outcome": 2}, ...]}

A call is a typed record of one journaled director method: its arguments under their parameters' names (typed
by the method's own annotations: a card as its text ``"As"``, an event as the wire's body, a payment as its
record), ``draws`` (what the fair draw gave during it) and ``outcome`` (how many events it returned).

**Versions.** Like the store's schema (:mod:`hosting.migrations`): :data:`MIGRATIONS` lists one
:class:`Migration` per version after the first, each turning a snapshot and a call of the version before into the
next one's (plain JSON data in, plain JSON data out); never edit one that has shipped, add the next.
:data:`VERSION` is the version written. A state of a newer version is refused with one line (nothing is read);
an older one is upgraded as it is read, and rewritten in this version by the room's next snapshot (a restored
tournament's first step is one). States written before versions existed were pickles: store migration 10
(:mod:`hosting.tournament_legacy`) converts them once.
"""

from __future__ import annotations

import functools
import inspect
import operator
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Final, Union, get_args, get_origin, get_type_hints

import msgspec

from engine.cards import Card
from engine.events import Event
from engine.tournament.director import Tournament
from engine.tournament.journal import Call, journaled_methods, replay
from engine.tournament.money import Payment
from engine.tournament.seating import Draw
from engine.tournament.stored import PaymentRecord, TournamentRecord, director_of, payment_of, payment_record, record_of
from hosting.hand_codec import CodecError, event_from_json, event_to_json, kind_of

PlainData = dict[str, Any]


@dataclass(frozen=True)
class Migration:
    """How a state of one version becomes the next version's: ``snapshot`` turns the body of a snapshot (its
    ``tournament``), ``call`` one call of a step."""

    snapshot: Callable[[PlainData], PlainData]
    call: Callable[[PlainData], PlainData]


MIGRATIONS: Final[tuple[Migration, ...]] = ()
"""``MIGRATIONS[n - 1]`` upgrades a state of version ``n`` to version ``n + 1``."""
VERSION: Final = len(MIGRATIONS) + 1


class StoredStateError(ValueError):
    """A stored state this croupier cannot read (a newer format, or not a tournament's state)."""


# --- the calls' records -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Form:
    """How a value of one annotated type is kept: ``stored``, the type msgspec reads and writes, and the
    conversions to it and back."""

    stored: Any
    to_stored: Callable[[Any], Any]
    from_stored: Callable[[Any], Any]

    @property
    def plain(self) -> bool:
        return self.to_stored is _same


def _same(value: Any) -> Any:
    return value


def _list_type(item: Any) -> Any:
    return types.GenericAlias(list, (item,))


def _dict_type(key: Any, value: Any) -> Any:
    return types.GenericAlias(dict, (key, value))


def _union(members: Iterable[Any]) -> Any:
    return functools.reduce(operator.or_, members)


def _tuple_of(form: _Form) -> _Form:
    return _Form(_list_type(form.stored), lambda values: [form.to_stored(value) for value in values],
                 lambda values: tuple(form.from_stored(value) for value in values))


def _list_of(form: _Form) -> _Form:
    return _Form(_list_type(form.stored), lambda values: [form.to_stored(value) for value in values],
                 lambda values: [form.from_stored(value) for value in values])


def _optional(form: _Form) -> _Form:
    return _Form(form.stored | None, lambda value: None if value is None else form.to_stored(value),
                 lambda value: None if value is None else form.from_stored(value))


def _tagged(classes: Sequence[type]) -> _Form:
    """A union of dataclasses (an action): each a struct tagged with its wire name (``{"type": "bet_or_raise",
    "to": 60}``), its fields in their stored forms."""
    structs: dict[type, tuple[type[msgspec.Struct], dict[str, _Form]]] = {}
    for cls in classes:
        hints = get_type_hints(cls)
        forms = {item.name: _form(hints[item.name]) for item in fields(cls)}
        struct = msgspec.defstruct(cls.__name__, [(name, form.stored) for name, form in forms.items()],
                                   tag=kind_of(cls), frozen=True)
        structs[cls] = (struct, forms)
    by_struct = {struct: (cls, forms) for cls, (struct, forms) in structs.items()}

    def to_stored(value: Any) -> Any:
        struct, forms = structs[type(value)]
        return struct(**{name: form.to_stored(getattr(value, name)) for name, form in forms.items()})

    def from_stored(value: Any) -> Any:
        cls, forms = by_struct[type(value)]
        made: Any = object.__new__(cls)
        for name, form in forms.items():  # some actions have no __init__ (Fold, Check, ...): set as dataclasses do
            object.__setattr__(made, name, form.from_stored(getattr(value, name)))
        return made

    return _Form(_union(struct for struct, _ in structs.values()), to_stored, from_stored)


_CARD: Final = _Form(str, str, Card.parse)
_SPECIAL: Final[dict[Any, _Form]] = {
    Card: _CARD,
    Event: _Form(dict[str, Any], event_to_json, event_from_json),
    Payment: _Form(PaymentRecord, payment_record, payment_of),
}
_SEQUENCES: Final = (list, Sequence, Iterable, typing.Sequence, typing.Iterable)


def _form(hint: Any) -> _Form:
    """How an argument annotated ``hint`` is kept (see the module's docstring)."""
    if hint in _SPECIAL:
        return _SPECIAL[hint]
    origin, arguments = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        members = [member for member in arguments if member is not type(None)]
        if len(members) < len(arguments) and len(members) == 1:
            inner = _form(members[0])
            return _Form(hint, _same, _same) if inner.plain else _optional(inner)
        if all(is_dataclass(member) for member in members) and len(members) == len(arguments):
            return _tagged(members)
    elif origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        inner = _form(arguments[0])
        return _tuple_of(inner)
    elif origin in _SEQUENCES:
        inner = _form(arguments[0])
        return _Form(_list_type(inner.stored), list, list) if inner.plain else _list_of(inner)
    elif origin in (Mapping, dict, typing.Mapping):
        keys, values = _form(arguments[0]), _form(arguments[1])
        if keys.plain and values.plain:
            return _Form(_dict_type(keys.stored, values.stored), dict, dict)
    elif origin is None and (not is_dataclass(hint)
                             or all(_form(item).plain for item in get_type_hints(hint).values())):
        return _Form(hint, _same, _same)
    raise TypeError(f"no stored form for {hint!r}: add one to hosting.tournament_state")


@dataclass(frozen=True)
class _CallForm:
    method: str
    record: type[msgspec.Struct]
    arguments: dict[str, _Form]
    signature: inspect.Signature
    plain: frozenset[str]
    """The arguments kept as they are given (most: numbers, names)."""


_RESERVED: Final = frozenset({"method", "draws", "outcome"})


def _call_forms() -> dict[str, _CallForm]:
    forms: dict[str, _CallForm] = {}
    for name, method in journaled_methods(Tournament).items():
        hints = get_type_hints(method)
        parameters = list(inspect.signature(method).parameters.values())[1:]  # after self
        arguments = {parameter.name: _form(hints[parameter.name]) for parameter in parameters}
        assert not _RESERVED & set(arguments), f"{name}: a parameter named as a call record's own field"
        defaults = {parameter.name: parameter.default for parameter in parameters
                    if parameter.default is not inspect.Parameter.empty}
        record_fields: list[Any] = [(key, form.stored, arguments[key].to_stored(defaults[key])) if key in defaults
                                    else (key, form.stored) for key, form in arguments.items()]
        record_fields += [("draws", list[int]), ("outcome", int)]
        record = msgspec.defstruct(f"{name}_call", record_fields, tag=name, tag_field="method", kw_only=True,
                                   frozen=True)
        forms[name] = _CallForm(name, record, arguments, inspect.signature(method),
                                frozenset(key for key, form in arguments.items() if form.plain))
    return forms


_CALLS: Final = _call_forms()
"""Every journaled director method's call record, by the method's name."""
CallRecord: Final = _union(form.record for form in _CALLS.values())
"""Any call's record (tagged by ``method``)."""


def call_record(call: Call) -> msgspec.Struct:
    """One noted call as its record."""
    form = _CALLS[call.method]
    given = form.signature.bind(None, *call.arguments, **call.keywords).arguments
    plain = form.plain
    return form.record(**{name: value if name in plain else form.arguments[name].to_stored(value)
                          for name, value in given.items() if name != "self"},
                       draws=list(call.draws), outcome=call.outcome)


def call_of(record: Any) -> Call:
    """The call a record describes (its arguments by name)."""
    form = _CALLS[type(record).__struct_config__.tag]
    keywords = {name: argument.from_stored(getattr(record, name)) for name, argument in form.arguments.items()}
    return Call(form.method, (), keywords, tuple(record.draws), record.outcome)


# --- the files ----------------------------------------------------------------------------------------------------


class _Snapshot(msgspec.Struct):
    version: int
    tournament: TournamentRecord


_Step: Final = msgspec.defstruct("_Step", [("version", int), ("calls", _list_type(CallRecord))])


class _Envelope(msgspec.Struct):
    version: int
    tournament: msgspec.Raw = msgspec.Raw(b"null")
    calls: msgspec.Raw = msgspec.Raw(b"null")


_ENCODER: Final = msgspec.json.Encoder()
_ENVELOPE: Final = msgspec.json.Decoder(_Envelope)
_SNAPSHOT: Final = msgspec.json.Decoder(_Snapshot)
_STEP: Final[msgspec.json.Decoder[Any]] = msgspec.json.Decoder(_Step)


def encode_snapshot(director: Tournament) -> bytes:
    """The director's state as stored (``ValueError`` while it deals a hand on its own table)."""
    return _ENCODER.encode(_Snapshot(VERSION, record_of(director)))


def encode_calls(calls: Iterable[Call]) -> bytes:
    """One step's calls as stored."""
    return _ENCODER.encode(_Step(VERSION, [call_record(call) for call in calls]))


def _upgraded(data: bytes, name: str, migrations: Sequence[Migration]) -> tuple[_Envelope, Sequence[Migration]]:
    """The stored item's envelope, and the migrations it needs (refused when it is newer than ``migrations``)."""
    try:
        envelope = _ENVELOPE.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        raise StoredStateError(f"{name}: its stored state is not a tournament's ({problem})") from None
    newest = len(migrations) + 1
    if envelope.version > newest or envelope.version < 1:
        raise StoredStateError(f"{name}: its stored state is format version {envelope.version}, and this croupier "
                               f"reads versions 1 to {newest}: upgrade croupier (nothing was changed)")
    return envelope, migrations[envelope.version - 1:]


def _converted(data: Any, cls: type[Any], name: str) -> Any:
    """Upgraded plain data read as ``cls``, by JSON's rules exactly as a state of this version is read."""
    try:
        return msgspec.json.decode(_ENCODER.encode(data), type=cls)
    except msgspec.ValidationError as problem:
        raise StoredStateError(f"{name}: its stored state does not read as this version's ({problem})") from None


def decode_snapshot(data: bytes, *, name: str = "the tournament",
                    migrations: Sequence[Migration] = MIGRATIONS) -> TournamentRecord:
    """A stored snapshot's record, upgraded to the newest of ``migrations``' versions."""
    envelope, needed = _upgraded(data, name, migrations)
    if not needed:
        try:
            record: TournamentRecord = _SNAPSHOT.decode(data).tournament
        except (msgspec.DecodeError, msgspec.ValidationError) as problem:
            raise StoredStateError(f"{name}: its stored state does not read ({problem})") from None
        return record
    body = msgspec.json.decode(envelope.tournament)
    for migration in needed:
        body = migration.snapshot(body)
    converted: TournamentRecord = _converted(body, TournamentRecord, name)
    return converted


def decode_calls(data: bytes, *, name: str = "the tournament",
                 migrations: Sequence[Migration] = MIGRATIONS) -> list[Call]:
    """A stored step's calls, upgraded to the newest of ``migrations``' versions."""
    envelope, needed = _upgraded(data, name, migrations)
    try:
        if not needed:
            return [call_of(record) for record in _STEP.decode(data).calls]
        bodies = msgspec.json.decode(envelope.calls)
        for migration in needed:
            bodies = [migration.call(body) for body in bodies]
        records = _converted(bodies, _list_type(CallRecord), name)
        return [call_of(record) for record in records]
    except (msgspec.DecodeError, msgspec.ValidationError, CodecError, ValueError) as problem:
        if isinstance(problem, StoredStateError):
            raise
        raise StoredStateError(f"{name}: a stored step does not read ({problem})") from None


class _NoDraw:
    """The draw of a director read to be looked at (a summary), never played: it draws nothing."""

    def __call__(self, choices: int) -> int:
        raise RuntimeError("a tournament read from the store to be looked at draws nothing")


def load_director(state: bytes, steps: Sequence[bytes] = (), *, name: str = "the tournament",
                  draw: Draw | None = None, migrations: Sequence[Migration] = MIGRATIONS) -> Tournament:
    """The director as it was after its last stored step, drawing with ``draw`` from now on (None: a director
    only looked at). Raises :class:`StoredStateError` when the state or a step cannot be read (a newer format, or
    not a tournament's), ``ValueError`` when the record is not a tournament's, and
    :class:`engine.tournament.journal.ReplayMismatch` when a step does not replay."""
    record = decode_snapshot(state, name=name, migrations=migrations)
    try:
        director = director_of(record, draw if draw is not None else _NoDraw())
    except (ValueError, KeyError, TypeError) as problem:
        raise StoredStateError(f"{name}: its stored state is not a tournament ({problem})") from None
    for step in steps:
        replay(director, decode_calls(step, name=name, migrations=migrations))
    return director
