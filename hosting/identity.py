"""Who may come in: player names bound to SSH public keys, the room's gates, and per-address rate limits.

Identity is the SSH key (DESIGN.md "server"): the first login with a name registers that key for it; a later
login with the name must present a registered key. Accounts persist as a small JSON file in the data directory
(``accounts.json``); the store issue moves them into the SQLite store.

Keys are handled as OpenSSH public-key text (``"ssh-ed25519 AAAA…"``, comment dropped), so this module does not
depend on asyncssh.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import math
import os
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Final, Protocol

from hosting.config import NAME_PATTERN as NAME_PATTERN  # one pattern for names (the room file checks hosts)
from hosting.config import AccessConfig
from hosting.config import normalize_key as normalize_key  # the key text accounts keep (pinned keys too)
from hosting.protocol import TokenBucket


def check_name(name: str) -> str | None:
    """``None`` if ``name`` can be a player name, else the reason (1-24 of A-Z a-z 0-9 _ . -)."""
    if NAME_PATTERN.match(name):
        return None
    return f"{name[:30]!r} is not a player name: use 1-24 letters, digits, _ . - (not starting with . or -)"


def key_fingerprint(public_key: str) -> str:
    """``SHA256:…`` of an OpenSSH public key, as ``ssh-keygen -l`` shows it (for the host's log); ``"?"`` if the
    text is not a key."""
    try:
        blob = base64.b64decode(normalize_key(public_key).split()[1], validate=True)
    except (ValueError, IndexError):
        return "?"
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


LOOK_ALIKES: Final = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o", "3": "e", "4": "a", "5": "s",
                                    "7": "t", "8": "b", "_": None, ".": None, "-": None})
"""How characters read on a screen, taken after case is folded (names are ASCII, so Unicode TR39's confusable
table reduces to these and to ``rn``/``vv`` below): a capital I and a 1 read as l; a digit that reads as a letter
reads as that letter, each digit as a different one (so bot1, bot2 and bot10 never look alike; 2, 6 and 9 read
like no one letter and stay); the separators ``_ . -`` are read through (``boss_``, ``b.oss``, ``bo-ss``)."""


RESERVED_NAMES: Final = ("croupier", "host", "hosts", "admin", "administrator", "room", "system", "dealer", "server",
                         "moderator", "staff", "support", "official")
"""Words a new player's name may not read as (by :func:`name_skeletons`: ``H0ST``, ``ad.min``): a chat line from
``croupier`` or ``admin`` reads like the room speaking. A name the host chose (his ``hosts``, his allow-list) may."""


def name_skeletons(name: str) -> frozenset[str]:
    """How a name reads on a screen: a new name sharing a skeleton with a registered or a host's name is a
    look-alike and is refused (whoever registered first keeps his name; a host's name is kept even before he does).

    The rule: fold case (``ALICE``/``alice``); read I, l and 1 alike (``aIice``, ``a1ice``, ``AL1CE``), 0 as o
    (``b0b``), 3 as e, 4 as a, 5 as s (``bo55``), 7 as t, 8 as b; ``rn`` as m, ``vv`` as w; drop ``_ . -``
    (``boss_``, ``_boss``, ``b.o.s.s``). Each digit folds to its own letter, so names that differ in their digits
    stay apart (``bot1``/``bot2``, ``p6``/``p9``, ``bot01``/``bot1``): a digit is folded, never dropped.

    >>> sorted(name_skeletons("Bo55_"))
    ['bo55_', 'boss']
    >>> name_skeletons("bot1") & name_skeletons("bot2"), name_skeletons("bot10") & name_skeletons("bot1")
    (frozenset(), frozenset())
    """
    folded = name.lower()
    looks = folded.translate(LOOK_ALIKES).replace("rn", "m").replace("vv", "w")
    return frozenset({folded, looks})


def address_group(address: str) -> str:
    """The unit an address's limits count: the address itself, or its /64 for IPv6 (one subscriber's block)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6 and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed.ipv4_mapped or parsed) if parsed.version == 6 else str(parsed)


@dataclass(frozen=True)
class Login:
    """Who passed the SSH login: the name asked for, the key the client proved it holds, its address. The room
    checks the key against the name again when a channel opens (the name may have been registered since)."""

    name: str
    public_key: str
    address: str = "unknown"

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.public_key)

    def describe(self) -> str:
        """``name 'ana' key SHA256:… from 203.0.113.5``: who, for a line of the host's log."""
        return f"name {self.name!r} key {self.fingerprint} from {self.address}"


class KeyStatus(Enum):
    KNOWN = "known"
    """The name is registered and this key is one of its keys."""
    NEW_NAME = "new_name"
    """Nobody has the name yet: this login may register it."""
    TAKEN = "taken"
    """The name is registered to other keys: refused."""


class Accounts(Protocol):
    """Names bound to SSH keys, as the :class:`Gatekeeper` reads and registers them: :class:`AccountStore`
    (a JSON file) or the room's store (``hosting.store.StoreAccounts``, the chips issued with the account)."""

    def status(self, name: str, public_key: str) -> KeyStatus: ...

    def is_registered(self, name: str) -> bool: ...

    def key_was_reset(self, name: str) -> bool: ...

    def register(self, name: str, public_key: str, now: float) -> None: ...

    def names(self) -> Iterator[str]: ...

    def names_with_key(self, public_key: str) -> list[str]: ...


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

    def key_was_reset(self, name: str) -> bool:
        """Never here: a key reset is the store's (hosting.admin)."""
        return False

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

    def names_with_key(self, public_key: str) -> list[str]:
        key = normalize_key(public_key)
        return sorted(name for name, account in self._accounts.items() if key in account["keys"])

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
    registers: bool = False
    """Passing the gates registers a new name that counts against :class:`Registrations` (not a name the host
    pinned or confirmed a key for, nor one whose key he reset)."""


RETELL_SECONDS: Final = 10.0
"""An address refused for its logins (per minute, or at once) is told so in a banner once in this time; its other
connections meanwhile are dropped before their key exchange (:meth:`Gatekeeper.drop_early`)."""

WRONG_ANSWERS_PER_CONNECTION: Final = 5
"""Wrong ``auth`` answers one connection may give before the room closes it."""


class GuessThrottle:
    """Wrong gate answers (room password, invite code) per address group, against online guessing.

    The first ``free`` wrong answers cost nothing; after them each answer waits a delay that doubles with every
    wrong one (1 s, 2 s, 4 s … ``longest``): an answer sent sooner is refused unchecked. A right answer clears
    the address; a quiet one is forgotten after ``forget_after`` seconds.
    """

    def __init__(self, free: int = 3, first_delay: float = 1.0, longest: float = 300.0,
                 forget_after: float = 900.0) -> None:
        self.free, self.first_delay, self.longest, self.forget_after = free, first_delay, longest, forget_after
        self._wrong: dict[str, tuple[int, float]] = {}  # address group → (wrong answers, time of the last)

    def wait(self, address: str, now: float) -> float:
        """Seconds before ``address`` may answer again (0: now)."""
        count, last = self._wrong.get(address_group(address), (0, 0.0))
        if count < self.free or now - last > self.forget_after:
            return 0.0
        return max(0.0, last + self.delay(count) - now)

    def delay(self, count: int) -> float:
        """The wait after ``count`` wrong answers."""
        return 0.0 if count < self.free else min(self.longest, self.first_delay * 2 ** (count - self.free))

    def wrong(self, address: str, now: float) -> int:
        """Count a wrong answer; returns the address's wrong answers so far."""
        group = address_group(address)
        count, last = self._wrong.get(group, (0, now))
        if now - last > self.forget_after:
            count = 0
        if len(self._wrong) > 10_000:  # forget quiet addresses so the table cannot grow without bound
            self._wrong = {key: value for key, value in self._wrong.items() if now - value[1] <= self.forget_after}
        self._wrong[group] = (count + 1, now)
        return count + 1

    def right(self, address: str) -> None:
        self._wrong.pop(address_group(address), None)


HOUR: Final = 3600.0

IN_PROCESS_ADDRESS: Final = "local"
"""The address of a login made in the room's own process (:class:`tui.connection.LocalConnection`: ``croupier
play``'s player and bots): the room's own, no stranger, so the per-address limits leave it out."""


def own_machine_hint(address: str) -> str:
    """What a refusal for a per-address limit adds for a login from the room's own machine (a loopback address):
    the host seating his own bots there lifts the limits for it with ``trusted_addresses``. Empty for any other
    address (a stranger has nothing to change).

    >>> own_machine_hint("203.0.113.5")
    ''
    >>> own_machine_hint("::1")
    '; the host seating his own bots from this machine: trusted_addresses = ["::1"] under [room] in the room file'
    """
    try:
        loopback = ipaddress.ip_address(address).is_loopback
    except ValueError:
        return ""
    return (f'; the host seating his own bots from this machine: trusted_addresses = ["{address}"] under [room] '
            "in the room file") if loopback else ""


class Registrations:
    """New names registered per address group (an IPv6 /64, as :class:`GuessThrottle` counts) and per invite
    code, each a bucket of ``per_address`` / ``per_invite`` an hour (a burst of as many, refilled over the hour).

    Only ``connections_per_minute`` bounded them: one address registered a fresh name (with a fresh key: names
    per key are bounded) about every 3 s, each a balance and rows in the store. The room asks :meth:`refusal`
    before a login's gates (cheap: nothing is registered or read) and :meth:`spend` when a name is registered.
    """

    def __init__(self, per_address: int, per_invite: int, period: float = HOUR) -> None:
        self.per_address, self.per_invite, self.period = per_address, per_invite, period
        self._addresses: dict[str, TokenBucket] = {}
        self._invites: dict[str, TokenBucket] = {}
        self.refused = 0  # refused since the host's log last said so
        self.reported_at = float("-inf")

    def _bucket(self, buckets: dict[str, TokenBucket], key: str, capacity: int, now: float) -> TokenBucket:
        if len(buckets) > 10_000 and key not in buckets:  # full buckets are new ones: forget them
            for full in [held for held, bucket in buckets.items() if bucket.tokens(now) >= bucket.capacity]:
                del buckets[full]
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = TokenBucket(capacity, capacity / self.period, now)
        return bucket

    def refusal(self, address: str, invite: str | None, now: float) -> str | None:
        """Why ``address`` (with ``invite``, the code it gives, if any) may not register a new name at ``now``,
        else ``None``."""
        wait = self._wait(self._addresses, address_group(address), self.per_address, now)
        if wait > 0:
            return (f"too many new names from your address ({self.per_address} an hour): log in with a name you "
                    f"have, or try again in {math.ceil(wait / 60)} min{own_machine_hint(address)}")
        if invite is not None:
            wait = self._wait(self._invites, invite, self.per_invite, now)
            if wait > 0:
                return (f"this invite code has registered {self.per_invite} new names this hour: ask the host, "
                        f"or try again in {math.ceil(wait / 60)} min")
        return None

    def _wait(self, buckets: dict[str, TokenBucket], key: str, capacity: int, now: float) -> float:
        bucket = buckets.get(key)
        if bucket is None:
            return 0.0
        tokens = bucket.tokens(now)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / bucket.rate

    def spend(self, address: str, invite: str | None, now: float) -> None:
        """A new name was registered from ``address`` (with ``invite``)."""
        self._bucket(self._addresses, address_group(address), self.per_address, now).take(now)
        if invite is not None:
            self._bucket(self._invites, invite, self.per_invite, now).take(now)


class PendingConnection(Protocol):
    """A connection not logged in yet, as :class:`PendingLogins` holds it."""

    def drop(self) -> None:
        """Close it (the room holds too many)."""


class PendingLogins:
    """SSH connections that have not logged in yet, bounded in total and per address group.

    Past a bound the newcomer is kept and an older pending connection is dropped: of the address group holding
    the most, the oldest that has not started to authenticate (else its oldest). So idle sockets can neither
    exhaust the host's file descriptors nor lock a real login out of a shared address (a NAT).
    ``handle`` is a :class:`PendingConnection` (the SSH server's per-connection object).
    """

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self._pending: OrderedDict[PendingConnection, str] = OrderedDict()  # handle → address group, oldest first
        self._authenticating: set[PendingConnection] = set()
        self.dropped = 0  # dropped since the host's log last said so
        self.reported_at = float("-inf")

    def __len__(self) -> int:
        return len(self._pending)

    def count(self, address: str) -> int:
        group = address_group(address)
        return sum(1 for held in self._pending.values() if held == group)

    def add(self, handle: PendingConnection, address: str) -> list[PendingConnection]:
        """Hold ``handle``; returns the older handles to drop (already forgotten here)."""
        group = address_group(address)
        self._pending[handle] = group
        dropped: list[PendingConnection] = []
        while self.count(address) > self.per_address:
            dropped.append(self._oldest_of(group, besides=handle))
        while len(self._pending) > self.total:
            counts: dict[str, int] = {}
            for where in self._pending.values():
                counts[where] = counts.get(where, 0) + 1
            dropped.append(self._oldest_of(max(counts, key=lambda key: counts[key]), besides=handle))
        return dropped

    def authenticating(self, handle: PendingConnection) -> None:
        """``handle`` started to authenticate: dropped only after the idle ones of its address."""
        if handle in self._pending:
            self._authenticating.add(handle)

    def remove(self, handle: PendingConnection) -> None:
        """Logged in, or gone."""
        self._pending.pop(handle, None)
        self._authenticating.discard(handle)

    def _oldest_of(self, group: str, besides: PendingConnection) -> PendingConnection:
        held = [handle for handle, where in self._pending.items() if where == group and handle is not besides]
        if not held:  # only the newcomer is left in its group (total bound of 1): it goes
            held = [besides]
        idle = [handle for handle in held if handle not in self._authenticating]
        chosen = (idle or held)[0]
        self.remove(chosen)
        return chosen


class Gatekeeper:
    """Applies the room's :class:`AccessConfig` and the :class:`AccountStore` to logins: names, keys (pinned or
    registered), look-alike names, names per key, logins per address, and wrong gate answers."""

    def __init__(self, access: AccessConfig, accounts: Accounts) -> None:
        self.access = access
        self.accounts = accounts
        self._addresses: dict[str, TokenBucket] = {}
        self.guesses = GuessThrottle()
        self.registrations = Registrations(access.registrations_per_address, access.registrations_per_invite)
        self._trusted = tuple(ipaddress.ip_network(network) for network in access.trusted_addresses)
        self._told: dict[str, float] = {}  # address group → when it was last told it has no login left
        self.dropped_early = 0  # connections dropped before their key exchange since the host's log said so
        self.dropped_reported_at = float("-inf")
        self._looks: dict[str, str] | None = None
        self.pending = PendingLogins(access.max_pending_logins, access.pending_logins_per_address)
        self._logged_in: dict[str, int] = {}  # address group → logged-in connections now
        self.banned: Callable[[str, str], str | None] | None = None
        """Why the host banned a (name, key), else ``None`` (hosting.admin sets it): asked with every key check."""
        self.reset_code_matches: Callable[[str, str], bool] = lambda name, code: False
        """Whether ``code`` is the one-time code of the host's key reset of ``name`` (hosting.admin sets it)."""
        self.host_names: Callable[[], Iterable[str]] = lambda: ()
        """The room's host names (hosting.admin): a new name may not look like one (``HOSTER`` for ``Hoster``)."""
        self.host_key_confirmed: Callable[[str, str], bool] = lambda name, public_key: False
        """Whether a host confirmed ``public_key`` for host name ``name`` (or it is the room owner's own key):
        only such a key may register a host name (hosting.admin sets it)."""
        self.host_key_refused: Callable[[str, str], None] = lambda name, public_key: None
        """A login under a host name with a key no host confirmed was refused: hosting.admin tells the hosts."""

    def _logins(self, address: str, now: float) -> TokenBucket:
        per_minute = self.access.connections_per_minute
        if len(self._addresses) > 10_000:  # forget idle addresses so the table cannot grow without bound
            self._addresses = {key: bucket for key, bucket in self._addresses.items()
                               if bucket.tokens(now) < bucket.capacity}
        return self._addresses.setdefault(address_group(address), TokenBucket(per_minute, per_minute / 60.0, now))

    def trusted(self, address: str) -> bool:
        """Whether ``address`` is in the room's ``trusted_addresses``, or the room's own process
        (:data:`IN_PROCESS_ADDRESS`): the per-address limits leave it out."""
        if address == IN_PROCESS_ADDRESS:
            return True
        if not self._trusted:
            return False
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            return False
        if parsed.version == 6 and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        return any(parsed in network for network in self._trusted)

    def login_allowed(self, address: str, now: float) -> bool:
        """Whether ``address`` has a login left this minute (``connections_per_minute``, burst of the same size).
        Only logins that succeed spend one (:meth:`count_login`): idle or refused sockets cost nothing."""
        return self.trusted(address) or self._logins(address, now).tokens(now) >= 1.0

    def told_refused(self, address: str, now: float) -> None:
        """``address`` was just told (a banner) that it has no login left this minute or at once."""
        if len(self._told) > 10_000:
            self._told = {group: at for group, at in self._told.items() if now - at < RETELL_SECONDS}
        self._told[address_group(address)] = now

    def drop_early(self, address: str, now: float) -> bool:
        """Whether a new connection from ``address`` is dropped before its key exchange: it has no login left
        (:meth:`login_allowed`, :meth:`logins_full`) and was told so less than :data:`RETELL_SECONDS` ago. The
        key exchange is most of what a refused login costs the host: an address retrying at once was 772
        refused logins in 30 s, a fifth of a core; it is told again after :data:`RETELL_SECONDS`."""
        told = self._told.get(address_group(address))
        if told is None or now - told >= RETELL_SECONDS:
            return False
        return not self.login_allowed(address, now) or self.logins_full(address)

    def logins_full(self, address: str) -> bool:
        """Whether ``address`` holds its ``logins_per_address`` logged-in connections already."""
        return not self.trusted(address) and self.logins_held(address) >= self.access.logins_per_address

    def count_login(self, address: str, now: float) -> None:
        """A login from ``address`` succeeded: it spends one of the minute's logins and holds one of the address's
        ``logins_per_address`` until :meth:`logged_out`."""
        if not self.trusted(address):
            self._logins(address, now).take(now)
        group = address_group(address)
        self._logged_in[group] = self._logged_in.get(group, 0) + 1

    def logged_out(self, address: str) -> None:
        """A connection counted by :meth:`count_login` has closed."""
        group = address_group(address)
        held = self._logged_in.get(group, 0) - 1
        if held > 0:
            self._logged_in[group] = held
        else:
            self._logged_in.pop(group, None)

    def logins_held(self, address: str) -> int:
        """Logged-in connections ``address`` (its group) holds now."""
        return self._logged_in.get(address_group(address), 0)

    def name_allowed(self, name: str) -> str | None:
        """``None`` if the name may try to log in, else why not (bad name, not on the allow-list)."""
        problem = check_name(name)
        if problem:
            return problem
        if self.access.allow is not None and name not in self.access.allow:
            return f"{name!r} is not on this room's allow-list"
        return None

    def check_key(self, name: str, public_key: str) -> LoginDecision:
        """May ``public_key`` hold ``name`` now? Asked at the SSH login, again when a channel opens and again
        when the gates are passed (the name may have been registered meanwhile)."""
        problem = self.name_allowed(name) or (self.banned(name, public_key) if self.banned is not None else None)
        if problem:
            return LoginDecision(False, problem)
        pinned = self.access.pinned_keys.get(name)
        if pinned is not None and normalize_key(public_key) != pinned:
            return LoginDecision(False, f"the name {name!r} is kept for another key by this room's host")
        status = self.accounts.status(name, public_key)
        if status is KeyStatus.TAKEN and pinned is None:
            return LoginDecision(False, f"the name {name!r} is registered to another key")
        confirmed = pinned is not None  # a pinned name, or a host name's key a host confirmed: the host's choice
        if status is KeyStatus.NEW_NAME and not confirmed and name in set(self.host_names()) \
                and not self.accounts.key_was_reset(name):  # after a reset, the one-time code is the host's word
            if not self.host_key_confirmed(name, public_key):
                self.host_key_refused(name, public_key)
                return LoginDecision(False, host_name_refusal(name, public_key))
            confirmed = True
        if status is KeyStatus.NEW_NAME and not confirmed:
            problem = self.new_name_refusal(name, public_key)
            if problem:
                return LoginDecision(False, problem)
        needs: list[str] = []
        if self.access.password is not None:
            needs.append("password")
        if status is KeyStatus.NEW_NAME and not confirmed \
                and (self.access.invite_codes or self.accounts.key_was_reset(name)):
            # a new name's invite code; for a name whose key the host reset, the one-time code he gave its owner
            # (typed where the room asks for an invite code): the first login after a reset is not enough
            needs.append("invite")
        return LoginDecision(True, new_name=status is KeyStatus.NEW_NAME, needs=tuple(needs),
                             registers=status is KeyStatus.NEW_NAME and not confirmed
                             and not self.accounts.key_was_reset(name))

    def new_name_refusal(self, name: str, public_key: str) -> str | None:
        """Why ``public_key`` may not register ``name`` (a look-alike of a registered name, or the key already
        holds ``names_per_key`` names), else ``None``."""
        if self._looks is None:  # skeleton → registered name, built once: asked for every key a login offers
            self._looks = {look: other for other in self.accounts.names() for look in name_skeletons(other)}
        for look in name_skeletons(name):
            other = self._looks.get(look)
            if other is not None and other != name:
                return f"the name {name!r} looks too much like {other!r}, who is registered: choose another"
        looks = name_skeletons(name)
        hosts = set(self.host_names())
        for host in hosts:
            if host != name and looks & name_skeletons(host):
                return f"the name {name!r} looks too much like {host!r}, a host of this room: choose another"
        chosen = name in hosts or (self.access.allow is not None and name in self.access.allow)  # the host's
        reserved = next((word for word in RESERVED_NAMES if looks & name_skeletons(word)), None)
        if reserved is not None and not chosen:
            return (f"the name {name!r} reads like the room's own voice ({reserved!r}): players could take your "
                    f"words for the room's; choose another")
        held = self.accounts.names_with_key(public_key)
        if len(held) >= self.access.names_per_key:
            return (f"your key already holds {len(held)} names ({', '.join(held)}); this room allows "
                    f"{self.access.names_per_key} per key")
        return None

    def registration_refusal(self, decision: LoginDecision, address: str, invite: str | None,
                             now: float) -> str | None:
        """Why the login ``decision`` (from ``address``, giving ``invite``) may not register its new name now:
        :class:`Registrations`' bound per address and per invite code; ``None`` if it may, or registers nothing."""
        if not decision.registers or self.trusted(address):
            return None
        return self.registrations.refusal(address, invite if invite in self.access.invite_codes else None, now)

    def register(self, name: str, public_key: str, now: float, address: str | None = None,
                 invite: str | None = None, at: float | None = None) -> None:
        """Register ``name`` for ``public_key`` at ``now`` (wall time, kept) after every gate; ``ValueError`` (the
        reason) if it may not. A name registered from ``address`` (giving ``invite``) spends one of its
        :class:`Registrations` at ``at`` (the room's clock; default ``now``), unless the host pinned or confirmed
        its key, or reset it (his choice)."""
        at = now if at is None else at
        confirmed = name in self.access.pinned_keys or self.host_key_confirmed(name, public_key)
        problem = None if confirmed else self.new_name_refusal(name, public_key)
        counted = not confirmed and address is not None and not self.accounts.key_was_reset(name) \
            and not self.trusted(address)
        invite = invite if invite in self.access.invite_codes else None
        if problem is None and counted:
            assert address is not None
            problem = self.registrations.refusal(address, invite, at)
        if problem:
            raise ValueError(problem)
        self.accounts.register(name, public_key, now)
        if counted:
            assert address is not None
            self.registrations.spend(address, invite, at)
        if self._looks is not None:
            self._looks.update(dict.fromkeys(name_skeletons(name), name))

    def check_gates(self, password: str | None, invite: str | None, needs: tuple[str, ...],
                    name: str | None = None) -> str | None:
        """``None`` when the protocol ``auth`` passes every gate in ``needs``, else the reason. For ``name`` whose
        key the host reset, the invite is the one-time code of that reset (:attr:`reset_code_matches`) and no
        other."""
        if "password" in needs and password != self.access.password:
            return "wrong room password"
        if "invite" in needs and name is not None and self.accounts.key_was_reset(name):
            if invite is None or not self.reset_code_matches(name, invite):
                return "the host reset this name's key: give the one-time code he gave you"
        elif "invite" in needs and invite not in self.access.invite_codes:
            return "a new name needs a valid invite code"
        return None


def host_name_refusal(name: str, public_key: str) -> str:
    """What a login under host name ``name`` with a key no host confirmed reads (issue 25: registering it first
    would lock the real host out): nothing is registered, the host confirms the key once and he comes in."""
    fingerprint = key_fingerprint(public_key)
    return (f"{name!r} is a host of this room and the host has not confirmed your key ({fingerprint}): nothing was "
            f"registered. If you are {name}, ask the host to run: make-host {name} --key {fingerprint}")


def twin_of(name: str, key_names: Iterable[str], present: Callable[[str], bool]) -> str | None:
    """Another name of ``name``'s key (``key_names``: the names registered to it) that ``present`` says is there
    already: one player, one seat per table, one entry per tournament, one seat per pool hand (issue 25 item 6).

    >>> twin_of("twinB", ["twinA", "twinB"], lambda other: other == "twinA"), twin_of("ana", ["ana"], bool)
    ('twinA', None)
    """
    return next((other for other in key_names if other != name and present(other)), None)
