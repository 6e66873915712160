"""A real room over real SSH (issue 9): ``croupier host`` (a subprocess, temp data, free port), one OpenSSH
player in tmux (the served TUI, keys sent with ``tmux send-keys``) and 5 ``croupier bots`` (two processes,
strategy bots) play 200 hands of no-limit hold'em, then 100 of pot-limit Omaha Hi/Lo.

Checked: every bot client verified every hand it was dealt (no fairness failure, chips conserved), the ssh
player's screen never showed a violation, ``croupier audit`` is clean, and the ssh player's PokerStars export
parses with PokerKit and replays to the stacks the room recorded. Hand counts: ``CROUPIER_E2E_HOLDEM_HANDS`` /
``CROUPIER_E2E_OMAHA_HANDS`` (defaults 200 / 100, the issue's numbers); tables are paced fast with
``CROUPIER_HAND_PAUSE`` (no hand is skipped).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from tests.e2e.tmux import Tmux

HOLDEM_HANDS = int(os.environ.get("CROUPIER_E2E_HOLDEM_HANDS", "200"))
OMAHA_HANDS = int(os.environ.get("CROUPIER_E2E_OMAHA_HANDS", "100"))
PLAYER = "sam"

pytestmark = [
    pytest.mark.skipif(any(shutil.which(tool) is None for tool in ("tmux", "ssh", "ssh-keygen")),
                       reason="needs tmux and the OpenSSH client (apt-get install tmux openssh-client)"),
    pytest.mark.timeout(900),
]

ROOM = """
[room]
name = "e2e room"
connections_per_minute = 1000

[[tables]]
id = "holdem"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 6
buy_in = [80, 200]
rake = "none"
clock = { action_seconds = 30, time_bank_seconds = 30 }

[[tables]]
id = "omaha8"
game = "omaha_hi_lo"
structure = "pot_limit"
stakes = [1, 2]
seats = 6
buy_in = [80, 200]
rake = "none"
clock = { action_seconds = 30, time_bank_seconds = 30 }
"""


def croupier() -> str:
    """The ``croupier`` console script of the environment running the tests."""
    script = Path(sys.executable).parent / "croupier"
    return str(script) if script.exists() else shutil.which("croupier") or "croupier"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_host(data: Path, config: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = os.environ | {"CROUPIER_HAND_PAUSE": "0.05"}
    with open(log, "wb") as output:  # the child keeps its own copy of the descriptor
        host = subprocess.Popen([croupier(), "host", "--port", str(port), "--data", str(data), "--config",
                                 str(config)], stdout=output, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 30
    while "is open on port" not in log.read_text(errors="replace"):
        assert host.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
        time.sleep(0.1)
    return host


def sit_at(tmux: Tmux, row: int, title: str, buy_in: int, data_dir: Path) -> None:
    """From the lobby: the table on lobby row ``row`` (Down presses), J, Enter for the offered buy-in."""
    tmux.keys("l")
    tmux.wait_for(lambda screen: "Omaha Hi/Lo" in screen and "Join (J)" in screen, 30, "the lobby over ssh")
    for _ in range(row):
        tmux.keys("Down")
        time.sleep(0.3)
    tmux.keys("j")
    tmux.wait_for(lambda screen: f"Buy-in at {title}" in screen, 10, "the buy-in box")
    tmux.keys("Enter")
    try:
        tmux.wait_for(lambda screen: f"{PLAYER}  {buy_in}" in screen, 10, f"seated at {title}")
    except AssertionError as problem:  # say why: the room's answer is in the host log
        log = data_dir / "host.log"
        raise AssertionError(f"{problem}\nhost.log:\n{log.read_text()[-3000:] if log.exists() else '-'}") from None


def choose_key(screen: str) -> str:
    """Check when free, call one big blind at most, else fold: a cheap, legal style for a scripted human
    (short hands keep the run to a few minutes)."""
    if "Check (C)" in screen:
        return "c"
    call = re.search(r"Call (\d+) \(C\)", screen)
    return "c" if call is not None and int(call[1]) <= 2 else "f"


def play_by_keys(tmux: Tmux, bots: list[subprocess.Popen[bytes]], timeout: float) -> dict[str, int]:
    """Act with keys whenever a table waits for us, until every bot process has finished."""
    counts = {"keys": 0}
    deadline = time.monotonic() + timeout
    while any(bot.poll() is None for bot in bots):
        assert time.monotonic() < deadline, "the bots did not finish in time"
        screen = tmux.screen()
        assert "violation" not in screen.lower(), screen
        assert "Traceback" not in screen, screen
        if "YOUR TURN" in screen:
            key = choose_key(screen)
            tmux.keys(key)
            counts["keys"] += 1
            before = screen
            tmux.wait_for(lambda shown, before=before: "YOUR TURN" not in shown or shown != before, 15,
                          "the move to land")
        time.sleep(0.05)
    return counts


def pokerstars_chunks(text: str) -> list[str]:
    return [chunk for chunk in re.split(r"\n{3,}", text) if chunk.startswith("PokerStars Hand #")]


def test_ssh_player_and_bots_play_holdem_and_omaha_hi_lo(tmp_path: Path) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    from hosting.hand_records import iter_hands
    from hosting.store import connect

    data, config, port = tmp_path / "data", tmp_path / "room.toml", free_port()
    config.write_text(ROOM, encoding="utf-8")
    host = start_host(data, config, port, tmp_path / "host.out")
    tmux = Tmux(tmp_path / "tmux.sock")
    bots: list[subprocess.Popen[bytes]] = []
    try:
        key = tmp_path / "id_ed25519"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        ssh = (f"ssh -F /dev/null -tt -p {port} -i {key} -o IdentitiesOnly=yes -o BatchMode=yes "
               f"-o StrictHostKeyChecking=no -o UserKnownHostsFile={tmp_path / 'known'} -o IdentityAgent=none "
               f"{PLAYER}@127.0.0.1")
        tmux.start(ssh, tmp_path, {"TERM": "xterm-256color"})
        address = f"127.0.0.1:{port}"
        counts: dict[str, int] = {}
        # one table after the other: hold'em (row 0) with 3 bots, then Omaha Hi/Lo (row 1) with 2 more
        for row, title, buy_in, table, count, hands in ((0, "Texas Hold'em", 200, "holdem", 3, HOLDEM_HANDS),
                                                         (1, "Omaha Hi/Lo", 200, "omaha8", 2, OMAHA_HANDS)):
            sit_at(tmux, row, title, buy_in, data)
            bots.append(subprocess.Popen(
                [croupier(), "bots", "--connect", address, "--count", str(count), "--hands", str(hands),
                 "--table", table, "--style", "mixed", "--seed", str(row + 1)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            for name, value in play_by_keys(tmux, bots[-1:], timeout=600).items():
                counts[name] = counts.get(name, 0) + value
        summaries = []
        for bot in bots:
            out, err = bot.communicate(timeout=30)
            assert bot.returncode == 0, err.decode(errors="replace")
            summaries.append(json.loads(out.decode().strip().splitlines()[-1]))
        print(json.dumps({"ssh_keys": counts, "bots": summaries}))
        for summary, hands in zip(summaries, (HOLDEM_HANDS, OMAHA_HANDS), strict=True):
            assert summary["hands"] >= hands, summary
            assert summary["fairness_failures"] == 0 and summary["chips_conserved"], summary
            # every bot verified every hand it was dealt: at least one verification per bot per hand
            assert summary["fairness_verified"] >= summary["players"] * hands, summary
        assert counts["keys"] >= 50  # the ssh player really played, with keys
    finally:
        tmux.kill()
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        host.send_signal(signal.SIGINT)
        try:
            host.wait(timeout=20)
        except subprocess.TimeoutExpired:
            host.kill()

    audit = subprocess.run([croupier(), "audit", "--data", str(data)], capture_output=True, text=True, timeout=120)
    assert audit.returncode == 0, audit.stdout + audit.stderr

    exported = tmp_path / "sam.txt"
    subprocess.run([croupier(), "export", "--data", str(data), "--player", PLAYER, "-o", str(exported)],
                   check=True, timeout=120)
    connection = connect(data, read_only=True)
    try:
        stored = {hand.number: hand for hand in iter_hands(connection)}
    finally:
        connection.close()
    holdem_mine = [hand for hand in stored.values() if hand.settings["game"] == "texas_holdem"
                   and hand.status == "finished" and PLAYER in hand.players.values()]
    chunks = pokerstars_chunks(exported.read_text(encoding="utf-8"))
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
    # every hold'em hand the ssh player was dealt into parsed and matched the stacks; on a loaded machine his
    # clock can run out and he sits some hands out as Away (R-DISC-1), so "most hands", not "nearly all"
    assert parsed == len(holdem_mine) >= HOLDEM_HANDS // 2, (parsed, len(holdem_mine), len(chunks))
