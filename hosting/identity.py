"""Who may come in: player names bound to SSH public keys, the room's gates, and per-address rate limits.

Identity is the SSH key (DESIGN.md "server"): the first login with a name registers that key for it; a later
login with the name must present a registered key. Accounts persist as a small JSON file in the data directory
(``accounts.json``); the store issue moves them into the SQLite store.

Keys are handled as OpenSSH public-key text (``"ssh-ed25519 AAAA…"``, comment dropped), so this module does not
depend on asyncssh.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Final

from hosting.config import AccessConfig
from hosting.protocol import TokenBucket

NAME_PATTERN: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,23}\Z")


def check_name(name: str) -> str | None:
    """``None`` if ``name`` can be a player name, else the reason (1-24 of A-Z a-z 0-9 _ . -)."""
    if NAME_PATTERN.match(name):
        return None
    return f"{name[:30]!r} is not a player name: use 1-24 letters, digits, _ . - (not starting with . or -)"


def normalize_key(public_key: str) -> str:
    """``"type base64 [comment]"`` → ``"type base64"``; ``ValueError`` if it is not that shape."""
    parts = public_key.split()
    if len(parts) < 2 or not parts[0].isascii() or not re.fullmatch(r"[A-Za-z0-9+/=]+", parts[1]):
        raise ValueError("expected an OpenSSH public key such as 'ssh-ed25519 AAAA…'")
    return f"{parts[0]} {parts[1]}"


class KeyStatus(Enum):
    KNOWN = "known"
    """The name is registered and this key is one of its keys."""
    NEW_NAME = "new_name"
    """Nobody has the name yet: this login may register it."""
    TAKEN = "taken"
    """The name is registered to other keys: refused."""


class AccountStore:
    """Names and their keys, kept in ``accounts.json``: ``{"version": 1, "accounts": {name: {"keys": [...],
    "registered_at": seconds}}}``. Writes are atomic (temporary file, then rename)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._accounts: dict[str, dict[str, Any]] = {}
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("accounts"), dict):
                raise ValueError(f"{path}: not a croupier accounts file (version 1)")
            self._accounts = data["accounts"]

    def status(self, name: str, public_key: str) -> KeyStatus:
        account = self._accounts.get(name)
        if account is None:
            return KeyStatus.NEW_NAME
        return KeyStatus.KNOWN if normalize_key(public_key) in account["keys"] else KeyStatus.TAKEN

    def is_registered(self, name: str) -> bool:
        return name in self._accounts

    def register(self, name: str, public_key: str, now: float) -> None:
        """Bind ``name`` to ``public_key``; ``ValueError`` if the name is bad or taken by another key."""
        problem = check_name(name)
        if problem:
            raise ValueError(problem)
        if self.status(name, public_key) is KeyStatus.TAKEN:
            raise ValueError(f"the name {name!r} is registered to another key")
        if name in self._accounts:
            return
        self._accounts[name] = {"keys": [normalize_key(public_key)], "registered_at": now}
        self._save()

    def names(self) -> Iterator[str]:
        return iter(sorted(self._accounts))

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".accounts-")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump({"version": 1, "accounts": self._accounts}, file, indent=1, sort_keys=True)
        os.replace(temporary, self.path)


@dataclass(frozen=True)
class LoginDecision:
    """The SSH-level verdict on a (name, key): ``allowed``, and if so the gates still to pass in the protocol."""

    allowed: bool
    reason: str = ""
    new_name: bool = False
    needs: tuple[str, ...] = ()


class Gatekeeper:
    """Applies the room's :class:`AccessConfig` and the :class:`AccountStore` to logins."""

    def __init__(self, access: AccessConfig, accounts: AccountStore) -> None:
        self.access = access
        self.accounts = accounts
        self._addresses: dict[str, TokenBucket] = {}

    def connection_allowed(self, address: str, now: float) -> bool:
        """Per-address connection rate limit (``connections_per_minute``, burst of the same size)."""
        per_minute = self.access.connections_per_minute
        if len(self._addresses) > 10_000:  # forget idle addresses so the table cannot grow without bound
            self._addresses = {key: bucket for key, bucket in self._addresses.items()
                               if bucket.tokens(now) < bucket.capacity}
        bucket = self._addresses.setdefault(address, TokenBucket(per_minute, per_minute / 60.0, now))
        return bucket.take(now)

    def name_allowed(self, name: str) -> str | None:
        """``None`` if the name may try to log in, else why not (bad name, not on the allow-list)."""
        problem = check_name(name)
        if problem:
            return problem
        if self.access.allow is not None and name not in self.access.allow:
            return f"{name!r} is not on this room's allow-list"
        return None

    def check_key(self, name: str, public_key: str) -> LoginDecision:
        problem = self.name_allowed(name)
        if problem:
            return LoginDecision(False, problem)
        status = self.accounts.status(name, public_key)
        if status is KeyStatus.TAKEN:
            return LoginDecision(False, f"the name {name!r} is registered to another key")
        needs: list[str] = []
        if self.access.password is not None:
            needs.append("password")
        if status is KeyStatus.NEW_NAME and self.access.invite_codes:
            needs.append("invite")
        return LoginDecision(True, new_name=status is KeyStatus.NEW_NAME, needs=tuple(needs))

    def check_gates(self, password: str | None, invite: str | None, needs: tuple[str, ...]) -> str | None:
        """``None`` when the protocol ``auth`` passes every gate in ``needs``, else the reason."""
        if "password" in needs and password != self.access.password:
            return "wrong room password"
        if "invite" in needs and invite not in self.access.invite_codes:
            return "a new name needs a valid invite code"
        return None
