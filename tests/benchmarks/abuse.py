"""Abuse run (issue 13 "Must show"): one abusive client per kind of issue 13 against a room where 6 bots play.

    python tests/benchmarks/abuse.py                  # 60 s per kind (about 17 minutes in all)
    python tests/benchmarks/abuse.py --seconds 10     # a quick look
    python tests/benchmarks/abuse.py --kinds pty_stall,verification_flood

A real ``croupier host`` (a subprocess: temporary data directory and home, a room password, a 9-seat hold'em
table where the bots play and a spare 6-seat one) and, in a second process, 6 bots that play without pause,
verify every shuffle and write each action's round-trip (from sending the action to the room's first answer)
with its time. Then a quiet baseline period and one period per kind, each ``--seconds`` long, with the host's
memory (RSS of the ``croupier host`` process; its TUI processes are counted apart) read after each. At the end
the room is stopped with SIGTERM and ``croupier audit`` checks its chips and proofs.

``channel_cycling`` (issue 25 item 3) adds the round-trips of another player's pings during it.

The room has its default limits: the bots and the other honest players log in from 127.0.0.1, which the room
trusts (``trusted_addresses``, as a host trusts his own bots' machine), and each kind's abusive client from an
address of its own (127.0.0.10, .11, … in the order of ``--kinds``), as a stranger would.

Prints ONE JSON line: per kind the bots' p50/p99 action round-trip and hands played during it, the host's RSS
after it, the CPU it took (``host_cpu_percent`` of one core; ``abuser_cpu_percent``: this process, where the
abusive clients run), the machine's ``load_average`` (other work on a shared machine moves every latency) and what
the abusive client saw; ``host_rss_before_mb``/``host_rss_after_mb``/``host_rss_growth_mb``
(the largest RSS over all kinds minus the baseline's), ``hands_played``, ``bots_kept_playing`` (every period
had hands), ``audit``. ``pool_staller`` (issue 25 item 4) runs 5 honest pool players of its own and reports their
hands a minute and fold-to-next-cards p99 alone and with a player who never reveals. Not collected by pytest
(a script, no ``test_`` prefix). Issue 13's items 11 and 14-17
(signals, logging, files at rest, stale sockets, pinned keys) are not abusive clients: they have tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh
from _on_path import REPOSITORY  # first: as a file, the repository's tests package (_on_path.py)

from hosting.bots import BotReport, choose_action, play
from hosting.client import ConnectionClosed, FairnessParticipant, RequestRefused, RoomClient
from hosting.hand_codec import kind_of
from hosting.protocol import SUBSYSTEM
from tests.hosting.room_files import pool_block, room_block, table_block
from tests.room_process import RoomDidNotOpen, start_room_process

PASSWORD = "bench-password"
TABLE = "bench"
SPARE = "spare"
POOL = "zoom"
HONEST = "127.0.0.1"
"""Where the bots and the other honest players log in from: the room trusts it (``trusted_addresses``), as a host
trusts his own bots' machine; the per-address limits leave it out."""
ATTACKERS = "127.0.0.{}"
"""Each kind's abusive client logs in from an address of its own (127.0.0.10, .11, …; all of 127/8 reaches the
room), under the room's default limits, as a stranger would."""
attacker = ["127.0.0.2"]
"""The address the running kind's abusive client uses (set per kind by :func:`abuse`)."""
ROOM = (room_block("abuse bench", password=PASSWORD, trusted_addresses=[HONEST], max_player_screens=8,
                   ready_screens=1)
        + table_block(TABLE, name="Bench 1/2", seats=9)
        + pool_block(POOL, name="Zoom 1/2", fill_seconds=0.25)
        + table_block(SPARE, name="Spare 1/2"))
ESCAPES = "\x1b]52;c;aGVsbG8=\x07\x1b]0;pwned\x07\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\\x1b[2J\x1b[?1049l"


def rss_mb(pid: int) -> float:
    """Resident memory of one process in MB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds one process has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_load() -> float:
    """The machine's 1-minute load average (other work on a shared machine moves every latency)."""
    return round(os.getloadavg()[0], 2)


class Period:
    """What one period cost: the host's CPU and this process's (the abusive clients run here), in % of a core."""

    def __init__(self, host_pid: int) -> None:
        self.host_pid = host_pid
        self.wall, self.host, self.own = time.time(), cpu_seconds(host_pid), time.process_time()

    def costs(self) -> dict[str, float]:
        wall = max(1e-9, time.time() - self.wall)
        return {"host_cpu_percent": round(100 * (cpu_seconds(self.host_pid) - self.host) / wall, 1),
                "abuser_cpu_percent": round(100 * (time.process_time() - self.own) / wall, 1),
                "load_average": machine_load()}


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


# --- clients ---------------------------------------------------------------------------------------------


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def ssh_options(honest: bool = False) -> dict[str, Any]:
    """``asyncssh.connect``'s options for a login from :data:`HONEST` or from the running kind's attacker."""
    return {"known_hosts": None, "agent_path": None, "config": [], "password": None, "kbdint_auth": False,
            "gss_auth": False, "local_addr": (HONEST if honest else attacker[0], 0),
            "encryption_algs": ["aes128-gcm@openssh.com", "aes256-gcm@openssh.com",  # as RoomClient.connect
                                "chacha20-poly1305@openssh.com"]}


async def ssh(port: int, name: str, key: asyncssh.SSHKey, honest: bool = False) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, username=name, client_keys=[key],
                                                   **ssh_options(honest)), 30)


async def player(port: int, name: str, *, fairness: bool = True, key: asyncssh.SSHKey | None = None,
                 honest: bool = False) -> RoomClient:
    """A client logged in and past the room's password: an honest player, or the running kind's attacker."""
    connection = await ssh(port, name, key or new_key(), honest)
    writer, reader, _ = await connection.open_session(subsystem=SUBSYSTEM, encoding=None)
    client = RoomClient(connection, writer, reader, FairnessParticipant if fairness else None)
    client.hello = await client.wait_for("hello", timeout=30)
    if client.hello.get("needs"):
        await client.request("auth", password=PASSWORD, timeout=30)
    return client


async def quietly_close(*clients: Any) -> None:
    for client in clients:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), 5)


async def discard_messages(client: RoomClient) -> None:
    with contextlib.suppress(Exception):
        while True:
            await client.receive(timeout=3600)


# --- the bots (a process of their own: the abusers' work must not slow them down) ---------------------------


async def bot(port: int, index: int, out: Any, stop: asyncio.Event) -> None:
    rng = random.Random(index)
    client = await player(port, f"bench{index}-{os.getpid()}", honest=True)
    await client.request("sit", table=TABLE, buy_in=200, timeout=30)
    sent_at: float | None = None
    try:
        while not stop.is_set():
            try:
                message = await client.receive(timeout=1.0)
            except TimeoutError:
                continue
            kind = message["type"]
            if any("\x1b" in str(value) for value in message.values()):
                out.write(json.dumps({"t": time.time(), "escape": 1}) + "\n")
            if sent_at is not None and kind in ("event", "error", "ack"):
                out.write(json.dumps({"t": time.time(), "latency": time.perf_counter() - sent_at}) + "\n")
                sent_at = None
            if kind == "action_request" and message.get("seat") is not None:
                action = choose_action(message["legal"], rng)
                sent_at = time.perf_counter()
                await client.send("action", table=TABLE, hand=message["hand"], **action)
            elif kind == "event" and kind_of(message["event"]) == "hand_finished":
                out.write(json.dumps({"t": time.time(), "hand": message["hand"]}) + "\n")
                await top_up(client)  # a broke bot would sit out, and lose its seat when the hold ends
            out.flush()
    finally:
        with contextlib.suppress(Exception):
            await client.send("leave", table=TABLE)
        await quietly_close(client)


async def top_up(client: RoomClient) -> None:
    me = next((seat for seat in client.last_table_state(TABLE).get("seats", [])
               if seat["name"] == client.hello["name"]), None)
    if me is not None and me["stack"] < 100:
        await client.send("top_up", table=TABLE, amount=200 - me["stack"])
        if me["stack"] == 0 or me.get("sitting_out"):
            await client.send("sit_out", table=TABLE, on=False)


async def run_bots(port: int, path: Path) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    with open(path, "a", encoding="utf-8") as out:
        tasks = [asyncio.ensure_future(bot(port, index, out, stop)) for index in range(6)]
        await asyncio.gather(*tasks, return_exceptions=True)


# --- one abusive client per kind of issue 13 ---------------------------------------------------------------


async def name_takeover(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 1: a login kept from before a name is registered opens a channel after its owner plays."""
    end, attempts, attacker_saw, victims_kicked = time.monotonic() + seconds, 0, 0, 0
    while time.monotonic() < end:
        name = f"cy{attempts}-{os.getpid()}"
        attempts += 1
        attacker = victim = None
        try:
            attacker = await ssh(port, name, new_key())
            victim = await player(port, name, honest=True)
            writer, reader, _ = await attacker.open_session(subsystem=SUBSYSTEM, encoding=None)
            seen = RoomClient(attacker, writer, reader, None)
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                while True:
                    message = await seen.receive(timeout=1.0)
                    if message["type"] == "hello" and message.get("name") == name and not message.get("needs"):
                        attacker_saw += 1
            with contextlib.suppress(TimeoutError):
                if (await victim.wait_for("bye", timeout=0.2))["type"] == "bye":
                    victims_kicked += 1
        except (OSError, asyncssh.Error, TimeoutError, RequestRefused, ConnectionClosed):
            pass
        finally:
            await quietly_close(*(client for client in (victim,) if client is not None))
            if attacker is not None:
                attacker.close()
    return {"attempts": attempts, "attacker_got_the_name": attacker_saw, "victims_kicked": victims_kicked}


async def escape_injection(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 2: terminal escapes in a verification report's violations (about a hand the sender was not in), in
    a chat line and a report reason, ten a second; the bots count messages that reach them with an escape."""
    hand = context.get("last_hand", "bench-1")
    kinds = [("verification", {"table": TABLE, "hand": hand, "ok": False,
                               "violations": [{"kind": "x", "message": ESCAPES}]}),
             ("chat", {"text": f"hi{ESCAPES}", "table": TABLE}),
             ("report_hand", {"hand": hand, "reason": ESCAPES})]
    return await flood(port, seconds, f"esc-{os.getpid()}", 10, lambda index: kinds[index % len(kinds)])


async def verification_flood(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 3: 190 verification messages a second of about 14.7 KB each."""
    return await flood(port, seconds, f"vf-{os.getpid()}", 190, lambda index: ("verification", {
        "table": TABLE, "hand": f"flood-{index}", "ok": False,
        "violations": [{"kind": "x", "message": "v" * 240} for _ in range(60)]}))


async def flood(port: int, seconds: float, name: str, per_second: int,
                make: Callable[[int], tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Send ``make(index)`` messages at ``per_second``, reconnecting whenever the room closes the channel."""
    end, sent, connections, refusals = time.monotonic() + seconds, 0, 0, 0
    key = new_key()  # the same player every time: a name is its key's
    while time.monotonic() < end:
        try:
            client = await player(port, name, fairness=False, key=key)
        except (OSError, asyncssh.Error, TimeoutError, RequestRefused, ConnectionClosed):
            refusals += 1
            await asyncio.sleep(1.0)
            continue
        connections += 1
        reader = asyncio.ensure_future(discard_messages(client))
        try:
            started = time.monotonic()
            while time.monotonic() < end and client.closed_reason is None and not reader.done():
                message_type, fields = make(sent)
                await client.send(message_type, **fields)
                sent += 1
                ahead = sent / per_second - (time.monotonic() - started)
                if ahead > 0:
                    await asyncio.sleep(ahead)
        except (OSError, asyncssh.Error, ConnectionError):
            pass
        finally:
            reader.cancel()
            await quietly_close(client)
    return {"sent": sent, "connections": connections, "logins_refused": refusals}


async def pty_stall(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 4: a plain-ssh session that reads nothing and resizes between 4000x2000 and 3999x2000 every second."""
    connection = await ssh(port, f"stall-{os.getpid()}", new_key())
    end, resizes, dropped_after = time.monotonic() + seconds, 0, None
    started = time.monotonic()
    try:
        process = await connection.create_process(term_type="xterm-256color", term_size=(4000, 2000), encoding=None)
        process.channel.pause_reading()
        while time.monotonic() < end:
            if process.channel.is_closing() or connection.is_closed():
                dropped_after = round(time.monotonic() - started, 1)
                break
            with contextlib.suppress(Exception):
                process.change_terminal_size(4000 - resizes % 2, 2000)
            resizes += 1
            await asyncio.sleep(1.0)
    finally:
        connection.close()
    return {"resizes": resizes, "dropped_after_s": dropped_after}


async def idle_seats(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 5: six names sit at the spare table and disconnect."""
    sat = 0
    for index in range(6):
        try:
            client = await player(port, f"ghost{index}-{os.getpid()}")
            await client.request("sit", table=SPARE, buy_in=40, timeout=30)
            sat += 1
            await quietly_close(client)
        except (OSError, asyncssh.Error, TimeoutError, RequestRefused, ConnectionClosed):
            pass
    await asyncio.sleep(seconds)
    return {"sat_and_left": sat}


async def password_guessing(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 6: wrong room passwords as fast as the room answers, reconnecting when closed."""
    end, sent, answered, connections, refusals = time.monotonic() + seconds, 0, 0, 0, 0
    while time.monotonic() < end:
        try:
            connection = await ssh(port, f"guess-{os.getpid()}", new_key())
            writer, reader, _ = await connection.open_session(subsystem=SUBSYSTEM, encoding=None)
            client = RoomClient(connection, writer, reader, None)
            client.hello = await client.wait_for("hello", timeout=30)
        except (OSError, asyncssh.Error, TimeoutError):
            refusals += 1
            await asyncio.sleep(0.5)
            continue
        connections += 1
        try:
            while time.monotonic() < end:
                sent += 1
                reply = await client.request("auth", password=f"guess-{sent}", timeout=5)
                answered += 1
                if reply.get("ok"):
                    break
        except (RequestRefused, TimeoutError, ConnectionClosed, OSError, asyncssh.Error):
            pass
        finally:
            await quietly_close(client)
    return {"guesses": sent, "answered": answered, "connections": connections, "logins_refused": refusals}


async def idle_connections(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 7: 300 TCP connections that never log in, held; then a real login from the same address."""
    held: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    for _ in range(300):
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(attacker[0], 0))
            held.append(writer)
            readers.append(reader)
    await asyncio.sleep(min(15.0, seconds / 2))
    real_login = False
    try:
        client = await player(port, f"real-{os.getpid()}")
        real_login = True
        await quietly_close(client)
    except (OSError, asyncssh.Error, TimeoutError, RequestRefused, ConnectionClosed):
        pass
    await asyncio.sleep(max(0.0, seconds - min(15.0, seconds / 2)))
    closed = sum(await asyncio.gather(*(ended(reader) for reader in readers)))
    for writer in held:
        writer.close()
    return {"opened": len(held), "closed_by_room": closed, "real_login_meanwhile": real_login}


async def ended(reader: asyncio.StreamReader) -> bool:
    """Whether the room closed this connection (what it sent is read up to the end, if it came)."""
    try:
        await asyncio.wait_for(reader.read(), 0.5)
    except (TimeoutError, OSError):
        return False
    return True


async def many_names(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 8: 40 plain-ssh screens (a TUI process each on the host), and 10 names from one key."""
    connections: list[asyncssh.SSHClientConnection] = []
    draining: list[asyncio.Future[None]] = []
    screens = refused_screens = refused_names = 0
    one_key = new_key()
    for index in range(10):
        try:
            client = await player(port, f"alias{index}-{os.getpid()}", key=one_key, fairness=False)
            await quietly_close(client)
        except (asyncssh.Error, RequestRefused, ConnectionClosed, TimeoutError, OSError):
            refused_names += 1
    for index in range(40):
        try:
            connection = await ssh(port, f"screen{index}-{os.getpid()}", new_key())
            process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                      encoding=None)
            first = await asyncio.wait_for(process.stdout.read(4096), 30)
            if b"as many terminal screens" in first:
                refused_screens += 1
                connection.close()
            else:
                screens += 1
                connections.append(connection)
                draining.append(asyncio.ensure_future(drain_process(process)))
        except (OSError, asyncssh.Error, TimeoutError):
            refused_screens += 1
    context["tui_rss_mb"] = tree_rss_mb(context["host_pid"])
    await asyncio.sleep(seconds)
    for connection in connections:
        connection.close()
    for task in draining:
        task.cancel()
    return {"screens_served": screens, "screens_refused": refused_screens, "names_refused_of_10_one_key": refused_names}


def tree_rss_mb(pid: int) -> float:
    return round(sum(rss_mb(child) for child in descendants(pid)), 1)


async def drain_process(process: Any) -> None:
    with contextlib.suppress(Exception):
        while await process.stdout.read(65536):
            pass


async def palette_screenshot(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 9: a plain-ssh player asks the palette for a screenshot every two seconds."""
    downloads: Path = context["downloads"]
    connection = await ssh(port, f"shot-{os.getpid()}", new_key())
    end, attempts = time.monotonic() + seconds, 0
    try:
        process = await connection.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        draining = asyncio.ensure_future(drain_process(process))
        await asyncio.sleep(3)
        while time.monotonic() < end:
            process.stdin.write(b"\x10")  # Ctrl+P: the command palette
            await asyncio.sleep(0.5)
            process.stdin.write(b"screenshot")
            await asyncio.sleep(0.5)
            process.stdin.write(b"\r")
            await asyncio.sleep(0.5)
            process.stdin.write(b"\x1b")
            attempts += 1
            await asyncio.sleep(0.5)
        draining.cancel()
    finally:
        connection.close()
    return {"attempts": attempts, "files_written_on_host": len(list(downloads.rglob("*")))}


async def chat_report_flood(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 10: lobby chat and reports of a hand the sender was not in, 190 a second each."""
    hand = context.get("last_hand", "bench-1")
    chat, report = await asyncio.gather(
        flood(port, seconds, f"chat-{os.getpid()}", 190, lambda index: ("chat", {"text": f"spam {index}"})),
        flood(port, seconds, f"rep-{os.getpid()}", 190, lambda index: ("report_hand", {
            "hand": hand, "reason": "r" * 400})))
    return {"chat": chat, "report_hand": report}


async def never_commit(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 12: a seated player who never commits nor reveals (his client plays no part in the shuffle)."""
    client = await player(port, f"silent-{os.getpid()}", fairness=False)
    requests = 0
    try:
        await client.request("sit", table=TABLE, buy_in=200, timeout=30)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                message = await client.receive(timeout=max(0.1, end - time.monotonic()))
                requests += message["type"] in ("commit_request", "reveal_request")
    finally:
        with contextlib.suppress(Exception):
            await client.send("leave", table=TABLE)
        await quietly_close(client)
    return {"commit_or_reveal_requests_ignored": requests}


async def refusal_flood(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Item 13: actions for a hand that does not exist, as fast as possible (each answered no_hand)."""
    return await flood(port, seconds, f"nohand-{os.getpid()}", 190, lambda index: ("action", {
        "table": TABLE, "hand": "no-such-hand", "kind": "fold"}))


async def pool_staller(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Issue 25 item 4: 5 honest players in the fast-fold pool for the first half of the period, then one more who
    commits ahead but never reveals and sits back in whenever he is sat out. The honest players' hands a minute
    and fold-to-next-cards p99 alone and with him (cut from 709 to 12 hands a minute before the fix)."""
    honest = [await player(port, f"fold{index}-{os.getpid()}", honest=True) for index in range(5)]
    reports = [BotReport(client.hello.get("name", "?")) for client in honest]
    done = asyncio.Event()
    rng = random.Random(25)
    bots = [asyncio.ensure_future(play(client, POOL, 10**9, random.Random(rng.random()), done=done,
                                            fold_rate=0.3, report=report))
            for client, report in zip(honest, reports, strict=True)]
    half = seconds / 2
    await asyncio.sleep(half)
    hands_alone = len(set().union(*(report.hands for report in reports)))
    folds_alone = [len(report.fold_to_next_cards) for report in reports]
    staller = await player(port, f"staller-{os.getpid()}")
    assert staller.fairness is not None
    answer = staller.fairness.handle
    staller.fairness.handle = lambda message: [reply for reply in answer(message)  # type: ignore[method-assign]
                                               if reply["type"] != "reveal"]
    refused_sit_ins = dealt = 0
    closed_reason = None
    try:
        await staller.request("sit", table=POOL, buy_in=200, timeout=30)
        end, next_ask = time.monotonic() + half, 0.0
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                message = await staller.receive(timeout=max(0.1, min(1.0, end - time.monotonic())))
                dealt += message["type"] == "reveal_request"
                if message["type"] == "error" and message.get("code") == "too_soon":
                    refused_sit_ins += 1  # back as soon as the room lets him: "… sit in again in 30 s"
                    words = str(message.get("message", "")).rsplit(" in ", 1)[-1].split()
                    next_ask = time.monotonic() + (float(words[0]) if words and words[0].isdigit() else 5.0)
            if time.monotonic() >= next_ask:  # back in line once a second
                next_ask = time.monotonic() + 1.0
                await staller.send("sit_out", table=POOL, on=False)
    except ConnectionClosed as closed:  # the room may close him for his refused requests: the numbers still count
        closed_reason = str(closed)
    finally:
        with contextlib.suppress(Exception):
            await staller.send("leave", table=POOL)
        await quietly_close(staller)
    hands_with = len(set().union(*(report.hands for report in reports))) - hands_alone
    alone = [report.fold_to_next_cards[:count] for report, count in zip(reports, folds_alone, strict=True)]
    folds_with = [report.fold_to_next_cards[count:] for report, count in zip(reports, folds_alone, strict=True)]
    done.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*bots, return_exceptions=True), 60)
    await quietly_close(*honest)
    return {"honest_hands_per_min_alone": round(60 * hands_alone / half, 1),
            "honest_hands_per_min_with_staller": round(60 * hands_with / half, 1),
            "fold_to_next_cards_p99_ms_alone": percentile([value for part in alone for value in part], 0.99),
            "fold_to_next_cards_p99_ms_with_staller": percentile([value for part in folds_with for value in part],
                                                                 0.99),
            "staller_dealt_in": dealt, "staller_sit_ins_refused": refused_sit_ins, "staller_closed": closed_reason}


async def channel_cycling(port: int, seconds: float, context: dict[str, Any]) -> dict[str, Any]:
    """Issue 25 item 3: one SSH login opening ``croupier`` channels one after another, each spending what one
    channel may (10 lobby chat lines, 10 settle-ups) and closed; meanwhile another player pings every 50 ms."""
    name, key, logins = f"cycle-{os.getpid()}", new_key(), 1
    login = await ssh(port, name, key)
    pinger = await player(port, f"pinger-{os.getpid()}", fairness=False, honest=True)
    round_trips: list[float] = []
    stop = asyncio.Event()

    async def ping() -> None:
        number = 0
        while not stop.is_set():
            number += 1
            sent = time.perf_counter()
            with contextlib.suppress(TimeoutError, RequestRefused, ConnectionClosed):
                await pinger.request("ping", id=number, timeout=30)
                round_trips.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)

    pinging = asyncio.ensure_future(ping())
    end = time.monotonic() + seconds
    opened = refused_opens = chat_heard = settled = refused = logins_refused = 0
    try:
        while time.monotonic() < end:
            try:
                writer, reader, _ = await login.open_session(subsystem=SUBSYSTEM, encoding=None)
            except (asyncssh.Error, OSError):  # the room closed the login: log in again, as an attacker would
                refused_opens += 1
                login.close()
                try:
                    login = await ssh(port, name, key)
                    logins += 1
                except (asyncssh.Error, OSError, TimeoutError):
                    logins_refused += 1
                    await asyncio.sleep(0.02)  # refused (logins per minute or at once): again, as an attacker would
                continue
            client = RoomClient(login, writer, reader, None)
            greeted = False
            try:
                hello = await client.wait_for("hello", timeout=10)
                greeted = True
                if hello.get("needs"):
                    await client.request("auth", password=PASSWORD, timeout=10)
                opened += 1
                for number in range(10):
                    await client.send("chat", text=f"cycle {opened}.{number}")
                    await client.send("settle_up")
                await client.request("ping", id=1, timeout=10)
                await asyncio.sleep(0.05)  # the settle-ups computed meanwhile
            except (TimeoutError, RequestRefused, ConnectionClosed, OSError, asyncssh.Error):
                refused_opens += not greeted
            seen = client.received
            chat_heard += sum(message.get("type") == "chat" and message.get("sender") == name for message in seen)
            settled += sum(message.get("type") == "settle_up" for message in seen)
            refused += sum(message.get("type") == "error" for message in seen)
            writer.close()
            with contextlib.suppress(asyncssh.Error, OSError):
                await writer.channel.wait_closed()
    finally:
        stop.set()
        await asyncio.gather(pinging, return_exceptions=True)
        await quietly_close(pinger)
        login.close()
    return {"logins": logins, "logins_refused": logins_refused, "channels_opened": opened,
            "channel_opens_refused": refused_opens,
            "chat_lines_heard": chat_heard,
            "settle_ups_answered": settled, "refusals": refused, "other_player_pings": len(round_trips),
            "other_player_ping_p50_ms": percentile(round_trips, 0.5),
            "other_player_ping_p99_ms": percentile(round_trips, 0.99),
            "other_player_ping_max_ms": percentile(round_trips, 1.0)}


KINDS: dict[str, Callable[[int, float, dict[str, Any]], Awaitable[dict[str, Any]]]] = {
    "name_takeover": name_takeover,
    "escape_injection": escape_injection,
    "verification_flood": verification_flood,
    "pty_stall": pty_stall,
    "idle_seats": idle_seats,
    "password_guessing": password_guessing,
    "idle_connections": idle_connections,
    "many_names": many_names,
    "palette_screenshot": palette_screenshot,
    "chat_report_flood": chat_report_flood,
    "never_commit": never_commit,
    "refusal_flood": refusal_flood,
    "pool_staller": pool_staller,
    "channel_cycling": channel_cycling,
}


# --- the run ---------------------------------------------------------------------------------------------


def read_bot_lines(path: Path) -> list[dict[str, Any]]:
    lines = []
    with contextlib.suppress(OSError):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
    return lines


def period_numbers(lines: list[dict[str, Any]], start: float, end: float) -> dict[str, Any]:
    inside = [line for line in lines if start <= line["t"] < end]
    latencies = [line["latency"] for line in inside if "latency" in line]
    return {"p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
            "actions": len(latencies), "hands": len({line["hand"] for line in inside if "hand" in line}),
            "escapes_seen_by_bots": sum("escape" in line for line in inside)}


async def abuse(port: int, host_pid: int, kinds: list[str], seconds: float, bots_file: Path,
                downloads: Path) -> dict[str, Any]:
    context: dict[str, Any] = {"downloads": downloads, "host_pid": host_pid}
    periods: dict[str, dict[str, Any]] = {}
    await asyncio.sleep(min(10.0, seconds))  # the bots sit and the first hands are dealt
    start, period = time.time(), Period(host_pid)
    await asyncio.sleep(seconds)
    periods["baseline"] = {"window": (start, time.time()), "host_rss_mb": rss_mb(host_pid), **period.costs()}
    for index, kind in enumerate(kinds):
        attacker[0] = ATTACKERS.format(10 + index)  # each kind a stranger of its own
        hands = [line["hand"] for line in read_bot_lines(bots_file) if "hand" in line]
        if hands:
            context["last_hand"] = hands[-1]
        start, period = time.time(), Period(host_pid)
        try:
            seen = await asyncio.wait_for(KINDS[kind](port, seconds, context), seconds + 120)
        except Exception as problem:  # the run goes on: the failure is part of the result
            seen = {"client_failed": f"{type(problem).__name__}: {problem}"[:200]}
        await asyncio.sleep(1.0)
        periods[kind] = {"window": (start, time.time()), "host_rss_mb": rss_mb(host_pid),
                         "host_tui_processes_rss_mb": context.pop("tui_rss_mb", tree_rss_mb(host_pid)),
                         **period.costs(), **seen}
    return periods


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the baseline and of each abuse")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds (default: all)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (host.out, bots.err, data)")
    parser.add_argument("--bots", nargs=2, metavar=("PORT", "FILE"), help=argparse.SUPPRESS)  # the bot process
    arguments = parser.parse_args()
    if arguments.bots:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_bots(int(arguments.bots[0]), Path(arguments.bots[1])))
        return 0
    kinds = [kind for kind in arguments.kinds.split(",") if kind]
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        print(f"abuse.py: unknown kinds {unknown}; known: {', '.join(KINDS)}", file=sys.stderr)
        return 2
    if arguments.keep:
        Path(arguments.keep).mkdir(parents=True)
        return run(Path(arguments.keep).resolve(), kinds, arguments.seconds)
    with tempfile.TemporaryDirectory(prefix="abuse-bench-") as temporary:
        return run(Path(temporary), kinds, arguments.seconds)


def run(directory: Path, kinds: list[str], seconds: float) -> int:
    data, home = directory / "data", directory / "home"
    downloads = home / "Downloads"
    downloads.mkdir(parents=True)
    (directory / "room.toml").write_text(ROOM)
    environment = os.environ | {"HOME": str(home), "CROUPIER_HAND_PAUSE": "0.3", "PYTHONPATH": str(REPOSITORY)}
    command = [sys.executable, "-m", "hosting.cli"]
    try:
        room = start_room_process(data, directory / "host.out", "--config", str(directory / "room.toml"),
                                  command=command, env=environment, start_new_session=True, quiet=120)
    except RoomDidNotOpen as failure:
        print("abuse.py: the host did not start: " + str(failure)[-800:], file=sys.stderr)
        return 1
    host, port = room.process, room.port
    bots: subprocess.Popen[bytes] | None = None
    bots_file = directory / "bots.jsonl"
    try:
        with open(directory / "bots.err", "wb") as errors:
            bots = subprocess.Popen([sys.executable, __file__, "--bots", str(port), str(bots_file)],
                                    env=os.environ | {"PYTHONPATH": str(REPOSITORY)}, stderr=errors)
        periods = asyncio.run(abuse(port, host.pid, kinds, seconds, bots_file, downloads))
    finally:
        if bots is not None:
            bots.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                bots.wait(30)
        room.stop(signal.SIGTERM)  # the room closes as on Ctrl+C; its whole group killed after a minute
    lines = read_bot_lines(bots_file)
    result: dict[str, Any] = {"seconds": seconds, "kinds": {}}
    for kind, period in periods.items():
        start, end = period.pop("window")
        result["kinds"][kind] = {**period_numbers(lines, start, end), **period}
    baseline = result["kinds"]["baseline"]["host_rss_mb"]
    after = [period["host_rss_mb"] for period in result["kinds"].values()]
    audit = subprocess.run([*command, "audit", "--data", str(data)], capture_output=True, text=True,
                           env=os.environ | {"PYTHONPATH": str(REPOSITORY)})
    result |= {
        "host_rss_before_mb": baseline,
        "host_rss_after_mb": after[-1],
        "host_rss_growth_mb": round(max(after) - baseline, 1),
        "hands_played": len({line["hand"] for line in lines if "hand" in line}),
        "bots_kept_playing": all(period["hands"] > 0 for period in result["kinds"].values()),
        "host_exit_status": host.returncode,
        "audit": "clean" if audit.returncode == 0 else
                 f"exit {audit.returncode}: {(audit.stdout + audit.stderr).strip()[-300:]}",
    }
    print(json.dumps(result))
    return 0 if result["host_rss_growth_mb"] <= 50 and result["bots_kept_playing"] and audit.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
