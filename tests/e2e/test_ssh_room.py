"""A real room over real SSH (issue 9): ``croupier host`` (a subprocess, temp data, free port), one OpenSSH
player in tmux (the served TUI, keys sent with ``tmux send-keys``) and 5 ``croupier bots`` (two processes,
strategy bots) play 200 hands of no-limit hold'em and 100 of pot-limit Omaha Hi/Lo *at the same time*: the
ssh player sits at both tables (two tabs), acts wherever a table waits for him, and reaches the hidden one
with the TUI's N key (jump to the next table waiting for you), reading the screen to decide.

Checked:

- every bot client verified every hand it was dealt (no fairness failure, chips conserved);
- the ssh player's own client verified every hand of both tables (its verdicts are in the host's
  ``tui.log``): no violation, and the hands it verified are exactly the hands the room played, a superset
  of the hands he was dealt into;
- he was dealt into every hand of both tables (never timed out into Away, R-DISC-1, never sat out);
- every N press showed the waiting table (the pane, not only the tab highlight);
- ``croupier audit`` is clean; his PokerStars export parses with PokerKit and replays to the stacks the
  room recorded, for every hold'em hand (PokerKit 0.7.7 reads hold'em only).

How the scripted player reads the screen (tmux captures what the terminal shows, toasts included): the tab row
(``● name`` marks a table waiting for him), the shown table's title (its name, ``YOUR TURN``) and its action
bar (``Check (C)``, ``Show``/``Muck``), only left of column :data:`TOASTS_FROM`, where the "Your turn at …
press N" toasts pile up. He decides on settled captures only (two captures that agree), because tmux can
hold half a frame. He presses an action key only when the shown table says YOUR TURN, waits for it to land
(the turn gone or the felt moved on), and presses N when only a hidden table waits. A key that changes nothing
on the shown table within :data:`LANDING_SECONDS` means the keyboard focus is not on the shown table (a
pre-action firing at a hidden table takes the focus there: tui/widgets/table_view.py ``_act``); he then
presses N, which shows the waiting table and focuses it, and the test fails at the end
(``refocus_presses`` must be 0). A trace of every decision is kept in ``player.log`` beside the data dir.

Hand counts: ``CROUPIER_E2E_HOLDEM_HANDS`` / ``CROUPIER_E2E_OMAHA_HANDS`` (200 / 100, the issue's numbers, with
``CROUPIER_FULL=1``; a sample of 20 / 10 by default: the player still jumps with N 20 to 40 times and acts
some 45 times, at both tables); tables are paced fast with ``CROUPIER_HAND_PAUSE`` (no
hand is skipped).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hosting.hand_records import StoredHand, iter_hands
from hosting.store import connect
from tests.e2e.tmux import Tmux
from tests.room_process import RoomProcess, croupier, start_room_process
from tests.sweeps import sweep

HOLDEM_HANDS = sweep("CROUPIER_E2E_HOLDEM_HANDS", 20, 200)
OMAHA_HANDS = sweep("CROUPIER_E2E_OMAHA_HANDS", 10, 100)
PLAYER = "sam"

pytestmark = [
    pytest.mark.skipif(any(shutil.which(tool) is None for tool in ("tmux", "ssh", "ssh-keygen")),
                       reason="needs tmux and the OpenSSH client (apt-get install tmux openssh-client)"),
    pytest.mark.timeout(900),
    pytest.mark.slow,
]


@dataclass(frozen=True)
class Seat:
    """A table the ssh player sits at, and the bots that play it with him."""

    table_id: str
    name: str  # the table's name in the room file: the lobby, the tab and the table's title show it
    lobby_row: int  # the lobby sorts by stakes
    buy_in: int  # the table's maximum, which the buy-in box offers
    bots: int
    hands: int


# The scripted player (check when free, else fold) loses at most his blinds: 150 chips in 200 hands at the
# 4-handed hold'em table (200 if a broke bot makes it 3-handed), 200 in 100 hands at the 3-handed Omaha table
# (300 heads-up), so his buy-ins (each table's maximum) cannot go broke; broke, he would sit out and miss hands.
# 300 + 400 of the new account's 1,000 credits (R-PLAY-1). The bots buy in for the maximum too and top up from
# their own 1,000: 3.3 buy-ins at hold'em, 2.5 at Omaha (a bot broke with nothing left sits out; the checks
# below count the hands each bot was really dealt). Short table names keep the tab row and the title left of
# the toasts.
SEATS = (
    Seat("holdem", "holdem 1/2", 0, 300, 3, HOLDEM_HANDS),
    Seat("omaha8", "omaha8 2/4", 1, 400, 2, OMAHA_HANDS),
)

ROOM = """
[room]
name = "e2e room"
connections_per_minute = 1000
registrations_per_address = 100000

[[tables]]
id = "holdem"
name = "holdem 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [80, 300]
rake = "none"
clock = { action_seconds = 30, time_bank_seconds = 30 }

[[tables]]
id = "omaha8"
name = "omaha8 2/4"
game = "omaha_hi_lo"
structure = "pot_limit"
stakes = [2, 4]
seats = 6
buy_in = [160, 400]
rake = "none"
clock = { action_seconds = 30, time_bank_seconds = 30 }
"""

LANDING_SECONDS = 10.0
"""A key that changed nothing on the shown table in this long did not reach it. An action lands in ~0.3 s on an
idle machine but took up to 3 s on a loaded one (2 cores, load 9: 3 s made a key that did land count as lost);
a key that really went to another table still never lands, so the check is as strict, only slower to fail."""
VERDICT = re.compile(r" INFO croupier\.tui: fairness (verified|VIOLATION): (\S+) hand (\S+) at (\S+)$")
"""A verdict line of the served TUI's log (tui/app.py ``_table_message``; format from its ``log_path`` handler)."""
TOASTS_FROM = 57
"""Toasts cover the screen's right half from this column on (tmux captures what is drawn, toasts included)."""
TITLE = re.compile(r"^[│┃] (?P<name>.+?)  \d+/\d+(?P<rest>.*)$")
"""The shown table's title row: its name, stakes, hand number, ``(watching)``, ``YOUR TURN``."""


def start_host(data: Path, config: Path, log: Path) -> RoomProcess:
    """``croupier host`` with ``config`` on a port the system picks, a short pause between hands."""
    return start_room_process(data, log, "--config", str(config), command=[croupier()],
                              env=os.environ | {"CROUPIER_HAND_PAUSE": "0.05"})


# --- reading the served TUI's screen ----------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """What one capture of the screen says: the table whose pane is shown, and the tabs flagged ● (waiting)."""

    table: str | None
    my_turn: bool
    watching: bool
    waiting: frozenset[str]
    screen: str


def read(screen: str, seats: Iterable[Seat] = SEATS) -> Shown:
    lines = screen.splitlines()
    tabs = lines[0] if lines else ""
    waiting = frozenset(seat.name for seat in seats if f"● {seat.name}" in tabs)
    for line in lines[1:5]:
        title = TITLE.match(line)
        if title is not None:
            rest = title["rest"]
            return Shown(title["name"], "YOUR TURN" in rest, "(watching)" in rest, waiting, screen)
    return Shown(None, False, False, waiting, screen)


def play_area(screen: str) -> str:
    """The shown table's felt and action bar, without its turn clock (which changes every second) and left of
    where the toasts ("Your turn at … press N") are drawn over it."""
    return "\n".join(line[:TOASTS_FROM] for line in screen.splitlines()[2:24] if "check/fold" not in line)


def steady_part(screen: str) -> str:
    """The tab row, the title and the play area: what must not change between two captures of a whole frame."""
    lines = screen.splitlines()
    return "\n".join(line[:TOASTS_FROM] for line in lines[:4]) + "\n" + play_area(screen)


def my_seat_state(screen: str) -> str | None:
    """``"away"`` or ``"sitting out"`` when the player's own seat on the shown table says so."""
    lines = screen.splitlines()
    for index, line in enumerate(lines[:24]):
        if re.search(rf"\b{PLAYER}  \d+", line[:80]):
            below = lines[index + 1][:80] if index + 1 < len(lines) else ""
            for state in ("away", "sitting out"):
                if state in below:
                    return state
    return None


def choose_key(screen: str) -> str:
    """Check when it is free, else fold ("check/fold"): a legal style for a scripted human that keeps his hands
    short (one or two decisions in most hands, so 300 hands at two tables fit in a few minutes on 2 cores).
    At showdown, asked to show or muck: show (S)."""
    bar = next((line for line in screen.splitlines()[2:24] if "Fold (F)" in line), "")
    if re.search(r"\bShow\s+Muck\b", bar):
        return "s"
    return "c" if "Check (C)" in bar else "f"


# --- the player ---------------------------------------------------------------------------------------------


def sit_at(tmux: Tmux, seat: Seat, data_dir: Path) -> None:
    """From the lobby: the table on lobby row ``seat.lobby_row`` (Down presses), J, Enter for the offered buy-in."""
    tmux.keys("l")
    # hang guards, not speed checks: a loaded machine may take many seconds to draw a screen
    tmux.wait_for(lambda screen: "Omaha Hi/Lo" in screen and "Join (J)" in screen, 120,
                  "the lobby over ssh")
    time.sleep(0.5)  # the lobby's table list takes the focus after its first paint: keys before that are lost
    for _ in range(seat.lobby_row):
        tmux.keys("Down")
        time.sleep(0.3)
    tmux.keys("j")
    tmux.wait_for(lambda screen: f"Buy-in at {seat.name}" in screen, 60, "the buy-in box")
    tmux.keys("Enter")
    try:
        tmux.wait_for(lambda screen: read(screen).table == seat.name and f"{PLAYER}  {seat.buy_in}" in screen, 60,
                      f"seated at {seat.name}")
    except AssertionError as problem:  # say why: the room's answer is on screen; the TUI's log has the notices
        log = data_dir / "tui.log"
        raise AssertionError(f"{problem}\ntui.log:\n{log.read_text()[-3000:] if log.exists() else '-'}") from None


@dataclass
class Player:
    """The scripted ssh player: reads the screen, acts where a table waits for him, N to reach a hidden one."""

    tmux: Tmux
    seats: tuple[Seat, ...]
    trace: Path  # one line per decision, for the failure message and a look afterwards
    counts: dict[str, int] = field(default_factory=lambda: {
        "captures": 0, "action_keys": 0, "n_presses": 0, "n_showed_waiting_table": 0, "sit_in_presses": 0,
        "refocus_presses": 0})

    def note(self, text: str) -> None:
        with open(self.trace, "a", encoding="utf-8") as trace:
            trace.write(f"{time.time():.3f} {text}\n")

    def capture(self) -> Shown:
        self.counts["captures"] += 1
        shown = read(self.tmux.screen(), self.seats)
        assert "violation" not in shown.screen.lower(), shown.screen
        assert "Traceback" not in shown.screen, shown.screen
        return shown

    def settled(self) -> Shown:
        """A capture the next one repeats: tmux can show a frame half drawn (the title of the table just
        switched to, its felt not yet), and a decision or a "landed" read from half a frame is wrong."""
        shown = self.capture()
        for _ in range(10):
            time.sleep(0.04)
            again = self.capture()
            if steady_part(again.screen) == steady_part(shown.screen):
                return again
            shown = again
        return shown

    def wait(self, condition: Callable[[Shown], bool], timeout: float) -> Shown | None:
        """Capture until ``condition`` holds on a settled screen; ``None`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition(self.capture()):
                shown = self.settled()
                if condition(shown):
                    return shown
            time.sleep(0.03)
        return None

    def step(self) -> None:
        """One look at the (settled) screen and at most one decision."""
        shown = self.settled()
        if shown.table is not None and shown.my_turn:
            self.act(shown)
        elif shown.waiting - {shown.table}:
            self.jump(shown)
        elif shown.table is not None and my_seat_state(shown.screen) is not None:
            # sat out (a missed commitment, R-FAIR-1 step 1) or Away: a human presses O to sit in again
            self.tmux.keys("o")
            self.counts["sit_in_presses"] += 1
            self.note(f"o at {shown.table}: {my_seat_state(shown.screen)}")
            self.wait(lambda now: my_seat_state(now.screen) is None, 5)
        else:
            time.sleep(0.05)

    def act(self, shown: Shown) -> None:
        assert shown.table is not None
        key = choose_key(shown.screen)
        self.tmux.keys(key)
        self.counts["action_keys"] += 1
        self.note(f"{key} at {shown.table}")
        before = play_area(shown.screen)
        # landed: the turn is gone, or the table moved on (the action shows; the next request may come at once)
        landed = self.wait(lambda now: now.table != shown.table or not now.my_turn or play_area(now.screen) != before,
                           LANDING_SECONDS)
        if landed is not None:
            self.note(f"  landed: {landed.table} turn={landed.my_turn}")
            return
        # the key went nowhere visible: the keyboard focus is not on the table shown (the module docstring);
        # N puts the pane and the focus back on the waiting table, as a player would notice and do
        self.counts["refocus_presses"] += 1
        self.note(f"  not landed after {LANDING_SECONDS} s, N to refocus; the screen:\n{self.tmux.screen()}")
        self.tmux.keys("n")
        self.wait(lambda now: now.table == shown.table, 5)

    def jump(self, shown: Shown) -> None:
        """N: the pane of the waiting (hidden) table must be the one shown, with its YOUR TURN."""
        target = sorted(shown.waiting - {shown.table})[0]
        self.tmux.keys("n")
        self.counts["n_presses"] += 1
        self.note(f"n from {shown.table} to {target}")
        arrived = self.wait(lambda now: now.table == target or target not in now.waiting, 10)
        if arrived is None:
            raise AssertionError(f"N did not show the waiting table {target!r}; the screen was:\n"
                                 f"{self.tmux.screen()}")
        self.note(f"  shown: {arrived.table} turn={arrived.my_turn}")
        if arrived.table == target:
            self.counts["n_showed_waiting_table"] += 1


def verdicts(log: Path) -> list[tuple[str, str, str, str]]:
    """(verdict, player, hand id, table id) of every fairness line in the served TUIs' log."""
    found = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []:
        match = VERDICT.search(line)
        if match is not None:
            found.append((match[1], match[2], match[3], match[4]))
    return found


def stored_hands(data: Path) -> list[StoredHand]:
    connection = connect(data, read_only=True)
    try:
        return list(iter_hands(connection))
    finally:
        connection.close()


def pokerstars_chunks(text: str) -> list[str]:
    return [chunk for chunk in re.split(r"\n{3,}", text) if chunk.startswith("PokerStars Hand #")]


def test_ssh_player_and_bots_play_holdem_and_omaha_hi_lo(tmp_path: Path) -> None:
    pokerkit = pytest.importorskip("pokerkit")

    data, config = tmp_path / "data", tmp_path / "room.toml"
    config.write_text(ROOM, encoding="utf-8")
    started = time.monotonic()
    host = start_host(data, config, tmp_path / "host.out")
    port = host.port
    tmux = Tmux(tmp_path / "tmux.sock")
    player = Player(tmux, SEATS, tmp_path / "player.log")
    bots: list[subprocess.Popen[bytes]] = []
    tui_log = data / "tui.log"
    try:
        key = tmp_path / "id_ed25519"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        ssh = (f"ssh -F /dev/null -tt -p {port} -i {key} -o IdentitiesOnly=yes -o BatchMode=yes "
               f"-o StrictHostKeyChecking=no -o UserKnownHostsFile={tmp_path / 'known'} -o IdentityAgent=none "
               f"{PLAYER}@127.0.0.1")
        tmux.start(ssh, tmp_path, {"TERM": "xterm-256color"})
        for seat in SEATS:  # both tables open as tabs before any hand is dealt
            sit_at(tmux, seat, data)
        address = f"127.0.0.1:{port}"
        for number, seat in enumerate(SEATS, start=1):  # both bot groups at once
            bots.append(subprocess.Popen(
                [croupier(), "bots", "--connect", address, "--count", str(seat.bots), "--hands", str(seat.hands),
                 "--table", seat.table_id, "--style", "mixed", "--seed", str(number)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        deadline = time.monotonic() + 800  # a hang guard (pytest-timeout is 900 s), not a speed check
        while any(bot.poll() is None for bot in bots):
            assert time.monotonic() < deadline, "the bots did not finish in time"
            player.step()
        summaries = []
        for bot in bots:
            out, err = bot.communicate(timeout=30)
            assert bot.returncode == 0, err.decode(errors="replace")
            summaries.append(json.loads(out.decode().strip().splitlines()[-1]))
        # the player's client gets each hand's seeds with the bots': give it a moment to log the last verdicts
        finished = {hand.hand_id for hand in stored_hands(data)}
        late = time.monotonic() + 15
        while not finished <= {hand for _, _, hand, _ in verdicts(tui_log)} and time.monotonic() < late:
            time.sleep(0.2)
    finally:
        tmux.kill()
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        host.stop(timeout=20)
    played_seconds = round(time.monotonic() - started, 1)

    hands = stored_hands(data)
    for summary, seat in zip(summaries, SEATS, strict=True):
        assert summary["hands"] >= seat.hands, summary
        assert summary["fairness_failures"] == 0 and summary["chips_conserved"], summary
        # every bot verified every hand it was dealt: at least one verification per bot and hand it was dealt
        # (a bot that went broke with nothing left to top up from sits out: it is not dealt in, R-PLAY-1), except
        # that a bot which reached its --hands stops at once, and the room may already have dealt it one more hand
        # that it leaves before the proof comes: at most one such hand per bot (seen once in a CI run: 59 of 60)
        bot_hands = sum(1 for hand in hands if hand.table_id == seat.table_id
                        for name in hand.players.values() if name != PLAYER)
        assert bot_hands >= seat.hands, (summary, bot_hands)
        assert summary["fairness_verified"] >= bot_hands - seat.bots, (summary, bot_hands)

    audit = subprocess.run([croupier(), "audit", "--data", str(data)], capture_output=True, text=True, timeout=120)
    assert audit.returncode == 0, audit.stdout + audit.stderr

    by_table = {seat.table_id: [hand for hand in hands if hand.table_id == seat.table_id]
                for seat in SEATS}
    mine = {hand.hand_id for hand in hands if PLAYER in hand.players.values()}
    missed = {table: [hand.table_hand_number for hand in table_hands if hand.hand_id not in mine]
              for table, table_hands in by_table.items()}
    lines = verdicts(tui_log)
    violations = [line for line in lines if line[0] != "verified"]
    verified = {hand for verdict, name, hand, _ in lines if verdict == "verified" and name == PLAYER}
    print(json.dumps({
        "seconds": played_seconds, "hands": {table: len(table_hands) for table, table_hands in by_table.items()},
        "sam_dealt_in": len(mine), "sam_missed": missed, "sam_verified": len(verified),
        "sam_violations": len(violations), "player": player.counts, "bots": summaries}))

    # the ssh player's own client checked every hand of both tables it showed, and found nothing wrong
    assert violations == [], violations[:5]
    assert verified == {hand.hand_id for hand in hands}, sorted({hand.hand_id for hand in hands} ^ verified)[:10]
    # he sat at both tables before their first hand and acted in time everywhere: dealt into every hand
    # (a timed-out turn makes him Away, a missed commitment sits him out; either would show here)
    assert missed == {seat.table_id: [] for seat in SEATS}, missed
    assert mine <= verified
    assert player.counts["sit_in_presses"] == 0, player.counts
    # every action key reached the table shown (none had to be followed by N to bring the focus back)
    assert player.counts["refocus_presses"] == 0, (player.counts, "see player.log")
    # N always showed the hidden table that waited for him (the pane, not only the tab highlight)
    assert player.counts["n_showed_waiting_table"] >= 1, player.counts
    assert player.counts["n_showed_waiting_table"] == player.counts["n_presses"], player.counts

    exported = tmp_path / "sam.txt"
    subprocess.run([croupier(), "export", "--data", str(data), "--player", PLAYER, "-o", str(exported)],
                   check=True, timeout=120)
    stored = {hand.number: hand for hand in hands}
    chunks = pokerstars_chunks(exported.read_text(encoding="utf-8"))
    assert len(chunks) == len(mine), (len(chunks), len(mine))
    parsed = 0
    for chunk in chunks:
        number = int(chunk[len("PokerStars Hand #"):].split(":", 1)[0])
        hand = stored[number]
        if hand.settings["game"] != "texas_holdem":
            continue  # PokerKit 0.7.7 reads PokerStars text of no-limit hold'em only
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (history,) = pokerkit.HandHistory.from_pokerstars(chunk + "\n", error_status=True)
        assert hand.events is not None
        recorded = [stack for _, stack in hand.events[-1].stacks]  # type: ignore[attr-defined]
        assert list(list(history)[-1].stacks) == recorded, chunk
        parsed += 1
    # every hold'em hand of the run was his, and each parsed and replayed to the recorded stacks
    assert parsed == len(by_table["holdem"]) >= HOLDEM_HANDS, (parsed, len(by_table["holdem"]))
