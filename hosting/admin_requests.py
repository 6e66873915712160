"""The host console's requests, one schema for both ways in: the ``host`` message of a host's connection
(hosting.protocol) and a line on the admin socket (hosting.admin_socket, ``croupier admin``).

A request is ``{"action": NAME, ...fields}``. :func:`parse_request` checks it against :data:`ACTIONS` — every
field known, of its type, within its bounds, names and table ids of the right shape, texts cleaned of control
characters — and returns an :class:`AdminRequest`; anything else is an :class:`AdminRefusal` naming the first
problem. Nothing here knows the room: whether the table or player exists is the console's business.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.text import clean_text
from hosting.identity import check_name, normalize_key

MAX_ADJUST: Final = 10**9
"""Largest stack or balance adjustment, either way, in chips."""
MAX_TEXT: Final = 200
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_.-]{1,32}\Z")
FINGERPRINT: Final = re.compile(r"SHA256:[A-Za-z0-9+/]{43}\Z")
"""A key's fingerprint as ``ssh-keygen -l`` and the room show it (hosting.identity.key_fingerprint)."""
SPECTATORS: Final = ("everyone", "registered", "nobody")
LEVEL_FIELDS: Final = ("small_blind", "big_blind", "ante", "straddle", "rake", "action_seconds",
                       "time_bank_seconds")


class AdminRefusal(Exception):
    """A host request refused; ``code`` for programs, the message for the host."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Field:
    """One field of a request: its kind (``table``, ``player``, ``chips``, ``signed``, ``text``, ``bool``,
    ``choice``, ``seconds``, ``key``, ``fingerprint``, ``name``) and whether it may be left out."""

    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()


def _f(kind: str, optional: bool = False, choices: tuple[str, ...] = ()) -> Field:
    return Field(kind, optional, choices)


ACTIONS: Final[dict[str, dict[str, Field]]] = {
    "status": {"follow": _f("bool", True)},
    "approve": {"table": _f("table"), "player": _f("player"), "stack": _f("chips", True)},
    "deny": {"table": _f("table"), "player": _f("player"), "reason": _f("text", True)},
    "pause": {"table": _f("table")},
    "resume": {"table": _f("table")},
    "pause_all": {},
    "resume_all": {},
    "level": {"table": _f("table"), "small_blind": _f("chips", True), "big_blind": _f("chips", True),
              "ante": _f("count", True), "straddle": _f("bool", True), "rake": _f("name", True),
              "action_seconds": _f("seconds", True), "time_bank_seconds": _f("seconds", True)},
    "adjust_stack": {"table": _f("table"), "player": _f("player"), "amount": _f("signed"), "reason": _f("text")},
    "adjust_balance": {"player": _f("player"), "amount": _f("signed"), "reason": _f("text")},
    "kick": {"player": _f("player"), "reason": _f("text", True)},
    "ban": {"player": _f("player", True), "key": _f("key", True), "reason": _f("text", True)},
    "unban": {"player": _f("player", True), "key": _f("key", True)},
    "reset_key": {"player": _f("player"), "confirm": _f("bool")},
    "make_host": {"player": _f("player"), "key": _f("fingerprint", True)},
    "close": {"message": _f("text"), "seconds": _f("seconds")},
    "spectators": {"table": _f("table"), "who": _f("choice", choices=SPECTATORS)},
    "chat": {"table": _f("table"), "on": _f("bool")},
    "mute": {"table": _f("table"), "player": _f("player"), "on": _f("bool")},
    "night": {"name": _f("text", True), "end": _f("bool", True)},
    "game": {"table": _f("table"), "game": _f("text")},
    "cancel_tournament": {"tournament": _f("table"), "refund": _f("choice", True, ("equal", "chips"))},
}
"""Every host action and its fields (README "Hosting a home game" lists them with their commands)."""


@dataclass(frozen=True)
class AdminRequest:
    """A checked request: ``action`` and its fields (absent optional fields are left out of ``fields``)."""

    action: str
    fields: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def parse_request(data: Any) -> AdminRequest:
    """``{"action": ..., fields}`` → :class:`AdminRequest`; :class:`AdminRefusal` names the first problem."""
    if not isinstance(data, dict):
        raise AdminRefusal("bad_request", "a host request is a JSON object with an \"action\"")
    action = data.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise AdminRefusal("unknown_action", f"unknown host action {str(action)[:40]!r}; known: "
                                             f"{', '.join(sorted(ACTIONS))}")
    schema = ACTIONS[action]
    for name in data:
        if name != "action" and name not in schema:
            raise AdminRefusal("unknown_field", f"{action} has no field {str(name)[:40]!r}")
    values: dict[str, Any] = {}
    for name, spec in schema.items():
        if name not in data or data[name] is None:
            if not spec.optional:
                raise AdminRefusal("missing_field", f"{action} needs {name!r}")
            continue
        values[name] = _check(action, name, spec, data[name])
    if action in ("ban", "unban") and ("player" in values) == ("key" in values):
        raise AdminRefusal("bad_field", f"{action} takes a player or a key (one of them)")
    if action == "level" and len(values) == 1:
        raise AdminRefusal("missing_field", f"level changes at least one of {', '.join(LEVEL_FIELDS)}")
    return AdminRequest(action, values)


def _check(action: str, name: str, spec: Field, value: Any) -> Any:
    def bad(what: str) -> AdminRefusal:
        return AdminRefusal("bad_field", f"{action}.{name}: expected {what}, got {str(value)[:40]!r}")

    kind = spec.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if kind in ("chips", "count", "signed", "seconds"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad("a whole number")
        low, high = {"chips": (1, MAX_ADJUST), "count": (0, MAX_ADJUST), "signed": (-MAX_ADJUST, MAX_ADJUST),
                     "seconds": (0, 3600)}[kind]
        if not low <= value <= high or (kind == "signed" and value == 0):
            raise bad(f"a number from {low} to {high}" + (", not 0" if kind == "signed" else ""))
        return value
    if not isinstance(value, str):
        raise bad("text")
    if kind == "table":
        if not TABLE_ID.match(value):
            raise bad("a table id")
        return value
    if kind == "player":
        if check_name(value) is not None:
            raise bad("a player name")
        return value
    if kind == "name":
        if not TABLE_ID.match(value):
            raise bad("a name (letters, digits, _ . -)")
        return value
    if kind == "choice":
        if value not in spec.choices:
            raise bad("one of " + ", ".join(spec.choices))
        return value
    if kind == "fingerprint":
        if not FINGERPRINT.match(value):
            raise bad("a key fingerprint (SHA256: and 43 letters, as the refused login showed)")
        return value
    if kind == "key":
        try:
            if len(value) > 4096:
                raise ValueError("too long")
            return normalize_key(value)
        except ValueError:
            raise bad("an OpenSSH public key (ssh-ed25519 AAAA…)") from None
    text = clean_text(value)[:MAX_TEXT].strip()
    if not text and not spec.optional:
        raise bad("some words")
    return text
