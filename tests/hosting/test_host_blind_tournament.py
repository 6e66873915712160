"""Host-blind tournaments (issue 29, "a table, pool or tournament option dealing = host-blind"): every hand of a
Sit & Go is dealt by its players' own clients (bots over SSH here), from its first hand to its winner; the blinds
and the big-blind antes of its levels are in each hand's signed transcript, chips are conserved, and the export
verifies with ``croupier verify``. A plain-ssh player (or a client that cannot take part) is refused at
registration in one line; a player away at the deal has a dead hand that nobody — the host included — can open.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.actions import Call, Fold
from engine.events import Folded
from engine.fairness_v2.group import DEFAULT_GROUP
from engine.fairness_v2.player import Player
from engine.fairness_v2.randomness import VERSION, SeededRandom
from engine.fairness_v2.referee import Referee, committee, verify_transcript
from engine.fairness_v2.transcript import AbsentSeat, Header, Posts, Shares, TranscriptWriter, dumps, loads
from engine.table import Table, TournamentPolicy
from engine.table_events import TimedOut, TurnStarted
from engine.tournament.formats import Format
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.cli import main
from hosting.config import RoomConfig, parse_room
from hosting.config_reader import ConfigError
from hosting.errors import RoomError
from hosting.room import HOST_BLIND_ONLY, refuse_host_blind_player
from hosting.server import RunningRoom
from hosting.store import connect as connect_store
from hosting.table_runner import RunnerSettings
from hosting.tournament_bots import run_tournament_bots
from hosting.tournament_config import TournamentConfig
from hosting.transcript_signing import sshsig_verifier
from tests.engine.table_helpers import FakeClock, decks, draw_deck, no_limit_config

PACED = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.05)
ENTRANTS = 3
BUY_IN, FEE = 100, 10


SMALL_BLINDS = (10, 25, 50, 100, 200, 400, 800, 1_600, 3_200)


def host_blind_sit_and_go(tournament_id: str = "blind", first_ante_level: int = 2) -> TournamentConfig:
    """Three players, 1,000 chips; blinds double fast, a big-blind ante (the big blind's size) from level
    ``first_ante_level``."""
    levels = tuple(Level(small, 2 * small, big_blind_ante=2 * small if number >= first_ante_level else 0,
                         duration=4.0)
                   for number, small in enumerate(SMALL_BLINDS, start=1))
    settings = TournamentSettings(tournament_id, Format.SIT_AND_GO, sit_and_go_size=ENTRANTS, max_players=ENTRANTS,
                                  seats_per_table=ENTRANTS, price=EntryPrice(BUY_IN, FEE, 0), starting_stack=1_000,
                                  schedule=levels)
    return TournamentConfig(settings, "Blind Sit & Go", dealing="host-blind")


@pytest.mark.parametrize("first_ante_level", [2, 1])
async def test_a_host_blind_sit_and_go_of_bots_plays_to_its_winner_and_its_export_verifies(
        rooms: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], first_ante_level: int) -> None:
    """``first_ante_level`` 2: the levels go up during the Sit & Go, each hand is dealt at its level's blinds and
    ante (the ante only from level 2 — which the Sit & Go may end before: a 3-way all-in can end it in its first
    hand); 1: every hand is dealt with a big-blind ante, whenever the Sit & Go ends."""
    data_dir = tmp_path / "room"
    config = RoomConfig("blind tournament room", (), tournaments=(host_blind_sit_and_go(
        first_ante_level=first_ante_level),))
    room: RunningRoom = await rooms(config, runner_settings=PACED, data_dir=data_dir)
    summary = await asyncio.wait_for(run_tournament_bots("127.0.0.1", room.port, ENTRANTS, "blind", seed=5,
                                                         style="mixed"), 600)
    assert summary["completed"] and summary["winner"] is not None, summary
    assert summary["hands"] >= 3 and summary["illegal_rejected"] == 0, summary
    # every hand each bot was dealt checked by its own client's referee, none failed, none left unchecked
    assert summary["host_blind_failures"] == 0 and summary["unverified"] == 0, summary
    assert summary["host_blind_verified"] >= summary["hands"], summary
    assert summary["fairness_verified"] == 0  # no commit–reveal deck anywhere in it
    assert summary["prizes"] == ENTRANTS * BUY_IN
    await room.close()

    connection = connect_store(data_dir, read_only=True)
    try:
        rows = connection.execute("SELECT result, transcript FROM hands WHERE table_id LIKE 'blind.%'").fetchall()
    finally:
        connection.close()
    assert len(rows) >= summary["hands"]
    antes = 0
    for result_text, transcript_text in rows:
        transcript = json.loads(transcript_text)
        assert "host_blind" in transcript and set(transcript) <= {"host_blind", "button_draw"}  # every hand
        hand = loads(json.dumps(transcript["host_blind"]))
        header = hand.header
        level = SMALL_BLINDS.index(header.small_blind) + 1  # the level it was dealt at, by its blinds
        ante = 2 * header.small_blind if level >= first_ante_level else 0
        assert (header.big_blind, header.big_blind_ante, header.ante) == (2 * header.small_blind, ante, 0)
        antes += header.big_blind_ante > 0
        violations, outcome = verify_transcript(hand, sshsig_verifier(hand.header.host_key), secrets)
        assert violations == [] and outcome is not None, violations
        result = json.loads(result_text)
        start = {record.seat: record.stack for record in hand.header.seats} | \
                {seat.seat: seat.stack for seat in hand.header.absent}
        assert sum(outcome.stacks.values()) == sum(start.values())  # chips conserved in every hand
        final = {int(seat): amount for seat, amount in result["final"].items()}
        assert final == outcome.stacks  # the table paid what the players' own check of the hand says
    if first_ante_level == 1:
        assert antes == len(rows), "a hand was dealt without the big-blind ante of its level"

    assert main(["audit", "--data", str(data_dir)]) == 0, capsys.readouterr()
    exported = tmp_path / "hands.phhs"
    assert main(["export", "--data", str(data_dir), "--format", "phh", "-o", str(exported)]) == 0
    text = exported.read_text()
    assert text.count("_transcript = ") >= len(rows) and '\\"host_blind\\"' in text
    capsys.readouterr()
    assert main(["verify", str(exported)]) == 0, capsys.readouterr()


def test_a_host_blind_tournament_in_room_toml() -> None:
    room = parse_room('[[tournaments]]\nid = "sng"\ndealing = "host-blind"\n')
    (tournament,) = room.tournaments
    assert (tournament.dealing, tournament.host_blind) == ("host-blind", True)
    assert parse_room('[[tournaments]]\nid = "sng"\n').tournaments[0].host_blind is False


@pytest.mark.parametrize(("extra", "error"), [
    ('game = "razz"\n', "tournaments[0].dealing: host-blind dealing deals only Texas hold'em and Omaha "
                        "(no-limit, pot-limit or fixed-limit), not razz: use dealing = \"commit-reveal\" (the default) "
                        "for it"),
])
def test_a_host_blind_tournament_of_another_game_is_refused_in_one_line(extra: str, error: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room('[[tournaments]]\nid = "sng"\ndealing = "host-blind"\n' + extra)
    assert str(raised.value) == f"room.toml: {error}"


def test_registration_needs_a_client_that_takes_part() -> None:
    @dataclasses.dataclass
    class Screen:
        served: bool
        features: frozenset[str]

    with pytest.raises(RoomError) as raised:
        refuse_host_blind_player("sng", "register", Screen(True, frozenset()))  # type: ignore[arg-type]
    assert raised.value.code == HOST_BLIND_ONLY
    assert str(raised.value) == ("sng deals host-blind: only players connected with 'croupier join' can register "
                                 "(with plain ssh your cards would be drawn on the host's machine)")
    with pytest.raises(RoomError, match="your client cannot take part"):
        refuse_host_blind_player("sng", "register", Screen(False, frozenset()))  # type: ignore[arg-type]
    refuse_host_blind_player("sng", "register", Screen(False, frozenset({"host-blind"})))  # type: ignore[arg-type]


async def test_a_plain_ssh_player_is_refused_at_registration_over_the_room(
        rooms: Callable[..., Any], connect: Callable[..., Any]) -> None:
    config = RoomConfig("blind tournament room", (), tournaments=(host_blind_sit_and_go(),))
    room: RunningRoom = await rooms(config, runner_settings=PACED)
    old = await connect(room, "old")  # a client without host-blind in its hello
    with pytest.raises(Exception) as raised:
        await old.request("tournament", action="register", tournament="blind")
    assert "blind deals host-blind: your client cannot take part" in str(raised.value)
    ready = await connect(room, "ready", host_blind=True)
    reply = await ready.request("tournament", action="register", tournament="blind")
    assert reply["type"] == "ack"


# --- a seat dealt in without a key: its hand is dead, nobody opens it -------------------------------------------


def _absent_hand(big_blind_ante: int = 0) -> tuple[Header, list[Player]]:
    rng = SeededRandom(b"absent")
    players = [Player(seat, f"p{seat}", DEFAULT_GROUP, rng) for seat in (0, 2, 3)]
    records = tuple(player.seat_record("t.1", 1_000, rng) for player in players)
    header = Header(VERSION, DEFAULT_GROUP.name, "t.1", "t.1-h1", "holdem", "no-limit", 10, 20, 0, records,
                    tuple(committee([0, 2, 3], 0)), "ssh-ed25519 AAAA host", Posts(1, 2),
                    big_blind_ante=big_blind_ante, absent=(AbsentSeat(1, "away", 15),))
    return header, players


def test_an_absent_seat_posts_is_folded_at_once_and_nobody_may_open_his_cards() -> None:
    header, _ = _absent_hand(big_blind_ante=20)
    referee = Referee(header, SeededRandom(b"r"), check_proofs=False, check_signatures=False)
    hand = referee.replay.hand
    # seat 1 posted his small blind (all he had after...) and was folded at the start: a dead hand
    assert not hand.in_hand(1)
    assert referee.stacks == {0: 1_000, 1: 15, 2: 1_000, 3: 1_000}
    # the big blind posted the big-blind ante (dead) and his blind: 20 + 20 from 1,000
    assert dict(hand.stacks())[2] == 960
    # his deck positions are laid out (the engine deals him two cards), in the deal order from the button
    assert referee.positions_of(1) == [0, 4]


def test_a_header_with_antes_and_absent_seats_round_trips_and_an_old_header_hashes_as_before() -> None:
    header, _ = _absent_hand(big_blind_ante=20)
    writer = TranscriptWriter(header, lambda message: b"sig")
    assert loads(dumps(writer.transcript())).header == header
    plain = msgspec.structs.replace(header, big_blind_ante=0, absent=())
    text = dumps(TranscriptWriter(plain, lambda message: b"sig").transcript())
    assert b"absent" not in text and b"ante" not in text  # written as before these fields existed


def test_a_share_of_an_absent_seats_card_is_refused() -> None:
    header, _ = _absent_hand()
    referee = Referee(header, SeededRandom(b"r"), check_proofs=False, check_signatures=False)
    referee.shuffled = lambda: True  # type: ignore[method-assign]  # as if the committee had shuffled
    assert set(referee.positions_of(1)).isdisjoint(referee.needs(0)["deal"])  # nobody is asked to open them
    assert len(referee.needs(0)["deal"]) == 4  # seat 0 opens seats 2 and 3's cards, not seat 1's
    position = referee.positions_of(1)[0]
    from engine.fairness_v2.transcript import ShareItem
    referee._shares("entry 9", 0, Shares("deal", (ShareItem(position, b"x", b"c", b"r"),)))
    assert [violation.what for violation in referee.violations] == [
        f"deck position {position} is an absent player's card: it never opens"]


def test_a_dead_hand_is_folded_by_the_table_even_all_in() -> None:
    """cid (the big blind, 8 chips) is all in from his blind: fold_out leaves an all-in hand alone, kill_hand
    folds it (his cards could never be opened): the 3 of his blind bob's 5 did not call come back to him
    (R-BET-UNCALLED), his called 5 stay in the pot; ana folds and bob wins 10."""
    table = Table(no_limit_config(seat_count=3, min_buy_in=5))
    for name, stack in (("ana", 500), ("bob", 500), ("cid", 8)):
        table.sit(name, stack, 0.0)
    clock = FakeClock()
    table.start_hand(decks(4)(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button, cid big blind
    assert table.fold_out("cid", clock.now) == []  # all in: fold_out does nothing
    events = table.kill_hand("cid", clock.now)
    assert Folded(2, left_table=True) in events
    assert table.kill_hand("cid", clock.now) == []  # already dead
    table.act("ana", Fold(), clock.advance(1))  # bob alone wins the blinds
    assert table.hand is None
    assert (table.player("bob").stack, table.player("cid").stack) == (505, 3)
    assert table.chips_on_table() == 1_008


def test_a_host_blind_table_leaves_an_absent_players_turn_to_its_runner() -> None:
    """A tournament table acts for an absent player the moment his turn comes (R-TOUR-6). A host-blind runner
    must fold him through the transcript instead (a fold the players' check never saw would leave the table's
    result and theirs apart): with ``acts_for_absent`` off his turn starts with its deadline already reached."""

    def table(acts_for_absent: bool) -> Table:
        table = Table(no_limit_config(seat_count=3, min_buy_in=0, max_buy_in=None), policy=TournamentPolicy())
        table.acts_for_absent = acts_for_absent
        for seat, name in enumerate(("ana", "bob", "cid")):
            table.seat_with_stack(name, 500, 0.0, seat=seat)
        return table

    for acts in (True, False):
        played = table(acts)
        clock = FakeClock()
        played.start_hand(decks(4)(), clock.now, button_draw_deck=draw_deck("As 2c 3c"))  # ana button: first
        played.disconnect("bob", clock.now)  # the small blind, whose turn comes after ana's
        events = played.act("ana", Call(), clock.advance(1.0))
        if acts:
            assert any(isinstance(event, TimedOut) and event.player == "bob" for event in events)
        else:
            assert not any(isinstance(event, TimedOut) for event in events)
            assert any(isinstance(event, TurnStarted) and event.player == "bob" for event in events)
            assert played.to_act() == (1, clock.now)  # his turn, due now: the runner folds him
            assert played.next_deadline() == clock.now
