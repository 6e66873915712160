"""``croupier export --format phh`` read back by ``croupier replay``: every hand of every game and structure PHH
can name replays to the recorded stacks (0 mismatches, 0 errors), raked hands included (the export's ``_rake``
is taken again: issue 14 item 5), from the host's copy and from one player's;
the hands PHH cannot name are left out with one line per kind at the end of the export.

``CROUPIER_PHH_ROUNDTRIP_HANDS`` hands are played at each table (default 25: 25 tables, 20 of them in
the 11 games and structures PHH names, about 625 hands in a few seconds).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.actions import Action, BetOrRaise, BringIn, Draw
from hosting.cli import main
from hosting.config import TableConfig
from hosting.store import Store
from tests.hosting.store_play import BotTable, _dealt, choose

HANDS = int(os.environ.get("CROUPIER_PHH_ROUNDTRIP_HANDS", "25"))
CLOCK = {"action_seconds": 20.0, "time_bank_seconds": 60.0}


def _table(table_id: str, game: str, structure: str, blinds: tuple[int, int], seats: int, *, ante: int = 0,
           bring_in: int = 0, rake: str = "none") -> TableConfig:
    small_blind, big_blind = blinds
    return TableConfig(table_id, f"Table {table_id}", game, structure, small_blind, big_blind, seats,
                       min_buy_in=20 * big_blind, max_buy_in=60 * big_blind, clock=CLOCK, ante=ante,
                       bring_in=bring_in, rake=rake)


NAMEABLE = (  # (table, PHH code): every game and structure PHH names that croupier plays, heads-up and more
    (_table("nt2", "texas_holdem", "no_limit", (1, 2), 2), "NT"),
    (_table("nt6", "texas_holdem", "no_limit", (5, 10), 6, rake="white-label"), "NT"),
    (_table("ft2", "texas_holdem", "fixed_limit", (2, 4), 2), "FT"),
    (_table("ft6", "texas_holdem", "fixed_limit", (5, 10), 6), "FT"),
    (_table("po3", "omaha", "pot_limit", (2, 5), 3), "PO"),
    (_table("po6", "omaha", "pot_limit", (5, 10), 6, rake="white-label"), "PO"),
    (_table("fo2", "omaha_hi_lo", "fixed_limit", (2, 4), 2), "FO/8"),
    (_table("fo6", "omaha_hi_lo", "fixed_limit", (5, 10), 6, rake="white-label"), "FO/8"),
    (_table("s3", "seven_card_stud", "fixed_limit", (2, 4), 3, ante=1, bring_in=2), "F7S"),
    (_table("s7", "seven_card_stud", "fixed_limit", (5, 10), 7, ante=1, bring_in=3, rake="white-label"), "F7S"),
    (_table("s8a", "seven_card_stud_hi_lo", "fixed_limit", (2, 4), 2, ante=1, bring_in=2), "F7S/8"),
    (_table("s8b", "seven_card_stud_hi_lo", "fixed_limit", (5, 10), 5, ante=1, bring_in=3), "F7S/8"),
    (_table("td2", "deuce_to_seven_triple_draw", "fixed_limit", (2, 4), 2), "F2L3D"),
    (_table("td5", "deuce_to_seven_triple_draw", "fixed_limit", (5, 10), 5, rake="white-label"), "F2L3D"),
    (_table("rz3", "razz", "fixed_limit", (2, 4), 3, ante=1, bring_in=2), "FR"),
    (_table("rz7", "razz", "fixed_limit", (5, 10), 7, ante=1, bring_in=3, rake="white-label"), "FR"),
    (_table("sd2", "deuce_to_seven_single_draw", "no_limit", (1, 2), 2), "N2L1D"),
    (_table("sd6", "deuce_to_seven_single_draw", "no_limit", (5, 10), 6, rake="white-label"), "N2L1D"),
    (_table("bd4", "badugi", "fixed_limit", (2, 4), 4), "FB"),
    (_table("ns6", "short_deck_holdem", "no_limit", (5, 10), 6, rake="white-label"), "NS"),
)
UNNAMEABLE = (  # (table, its PokerStars game title): no PHH variant code
    (_table("sl", "texas_holdem", "spread_limit", (1, 2), 4), "Hold'em Spread Limit"),
    (_table("plh", "texas_holdem", "pot_limit", (1, 2), 4), "Hold'em Pot Limit"),
    (_table("o5", "omaha_five_card", "pot_limit", (1, 2), 4), "5 Card Omaha Pot Limit"),
    (_table("fcd", "five_card_draw", "fixed_limit", (2, 4), 4), "5 Card Draw Limit"),
    (_table("tcd", "thirty_two_card_draw", "fixed_limit", (2, 4), 3), "32-card Draw Limit"),  # variants.game_name
)


class AnyGameBotTable(BotTable):
    """store_play's bots, who also post the stud bring-in (or complete) and draw (R-STUD-1, R-DRAW-1)."""

    def step(self) -> bool:
        table = self.table
        hand = table.hand
        if hand is None:
            return False
        options = hand.legal_actions()
        assert options is not None
        action: Action
        if options.max_discards is not None:
            own = hand.hole_cards(options.seat)
            action = Draw(tuple(card for card in own if self.rng.random() < 0.3)[:options.max_discards])
        elif options.bring_in_amount is not None:
            complete = options.min_raise_to is not None and self.rng.random() < 0.2
            action = BetOrRaise(options.min_raise_to) if complete else BringIn()  # type: ignore[arg-type]
        else:
            action = choose(options, self.rng)
        self.clock += 1.0
        more = table.act(table.players[options.seat].player, action, self.clock)
        self._dealt += _dealt(more)
        self._returned(more)
        return table.hand is not None


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("phh-roundtrip") / "room"
    store = Store.open(data_dir)
    rng = random.Random(2026)
    tables = []
    for config, _ in NAMEABLE + UNNAMEABLE:
        names = [f"{config.id}_{seat}" for seat in range(config.seats)]
        for name in names:
            store.register(name, f"ssh-ed25519 K{name}", chips=100 * config.max_buy_in)
        tables.append(AnyGameBotTable(store, config, names, random.Random(rng.random())))
    started = 1_800_000_000.0
    for _ in range(HANDS):
        for table in tables:
            table.play_hand(started)
            started += 60.0
    store.close_now()
    return data_dir


def replay_summary(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    status = main(["replay", str(path)])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("player", [None, "nt6_0", "s7_3", "td5_1"], ids=["host", "holdem", "stud", "draw"])
def test_phh_export_replays_through_croupier_replay(room: Path, tmp_path: Path, player: str | None,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.phhs"
    options = [] if player is None else ["--player", player]
    assert main(["export", "--data", str(room), "--format", "phh", *options, "-o", str(path)]) == 0
    err = capsys.readouterr().err
    status, lines = replay_summary(path, capsys)
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict)
    assert status == 0, [line for line in lines if line.get("match") is not True][:3]
    assert summary["mismatched"] == 0 and summary["errors"] == 0 and summary["unsupported"] == 0
    if player is None:
        assert summary["files"] == 1 and summary["matched"] == summary["hands"] == HANDS * len(NAMEABLE)
        by_variant = summary["by_variant"]
        assert isinstance(by_variant, dict)
        for code in {code for _, code in NAMEABLE}:
            expected = HANDS * sum(1 for _, other in NAMEABLE if other == code)
            assert by_variant[code] == {"matched": expected}, (code, by_variant)
        assert f"croupier export: {HANDS * len(NAMEABLE)} hand(s) as phh to {path}; " \
               f"{HANDS * len(UNNAMEABLE)} left out (below)\n" in err
        for _, title in UNNAMEABLE:
            assert (f"croupier export: {HANDS} {title} hands are not in the PHH file (PHH has no variant code for "
                    f"{title}); use --format pokerstars for them\n") in err
    else:
        assert summary["matched"] == summary["hands"] == HANDS
        assert "left out" not in err
    assert [line["hand"] for line in lines[:3]] == ["1", "2", "3"]
    # the raked tables' hands carry their rake, and replayed to the recorded stacks with it taken again
    raked = path.read_text().count("\n_rake = ")
    assert raked >= (HANDS // 2 if player is None else 1), raked


def test_pokerstars_export_of_stored_hands_reads_back_to_their_events(room: Path, tmp_path: Path) -> None:
    """Every stored hand of every game: each player's chips per street in the text equal the stored events."""
    import re

    from hosting.hand_records import iter_hands
    from hosting.store import connect
    from tests.engine.test_pokerstars_amounts import contributions_from_events, contributions_from_text

    path = tmp_path / "hands.txt"
    assert main(["export", "--data", str(room), "-o", str(path)]) == 0
    chunks = {int(chunk[len("PokerStars Hand #"):].split(":", 1)[0]): chunk
              for chunk in re.split(r"\n{3,}", path.read_text()) if chunk.startswith("PokerStars Hand #")}
    connection = connect(room, read_only=True)
    try:
        hands = list(iter_hands(connection))
    finally:
        connection.close()
    assert len(hands) == len(chunks) == HANDS * (len(NAMEABLE) + len(UNNAMEABLE))
    for hand in hands:
        assert hand.events is not None
        names = {f"Player {seat + 1}": name for seat, name in hand.players.items()}
        antes, streets = contributions_from_events(hand.events)
        expected = ({names[key]: value for key, value in antes.items()},
                    [{names[key]: value for key, value in street.items()} for street in streets])
        assert contributions_from_text(chunks[hand.number]) == expected, chunks[hand.number]


def test_pokerstars_export_keeps_every_hand(room: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hands.txt"
    assert main(["export", "--data", str(room), "-o", str(path)]) == 0
    total = HANDS * (len(NAMEABLE) + len(UNNAMEABLE))
    assert capsys.readouterr().err == f"croupier export: {total} hand(s) as pokerstars to {path}\n"
    text = path.read_text()
    assert text.count("PokerStars Hand #") == total
    for _, title in UNNAMEABLE:
        assert text.count(f": {title} (") == HANDS
    assert replay_summary(path, capsys)[1][0]["error"] == (
        "this is PokerStars-style text; croupier replay reads PHH (croupier export --format phh)")
    assert "] [" in text  # stud's "Dealt to X [cards before] [new card]" lines, read by croupier verify too
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().err == f"croupier verify: {total} hand(s) in {path}; every shuffle checks out\n"


GOOD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AsKd', 'd dh p2 ????', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 300', 'p2 f']
finishing_stacks = [10100, 9900, 10000]
"""


def test_a_bad_section_is_one_error_line_and_the_others_still_replay(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "three.phhs"
    path.write_text(f"[1]\n{GOOD}\n[2]\nvariant = 'NT'\n\n[3]\n{GOOD.replace('10100, 9900', '10000, 10000')}")
    status, lines = replay_summary(tmp_path, capsys)  # a directory: *.phhs files are found too
    assert status == 1
    assert [(line["hand"], line["match"]) for line in lines[:3]] == [("1", True), ("2", None), ("3", False)]
    assert lines[1]["error"] == "missing required field(s): antes, starting_stacks, actions"
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict)
    assert (summary["files"], summary["hands"], summary["matched"], summary["errors"], summary["mismatched"]) \
        == (1, 3, 1, 1, 1)


def test_loads_names_the_several_hands_form() -> None:
    from engine.phh import PhhError, loads

    with pytest.raises(PhhError, match=r"several-hands \(\.phhs\) text with 2 sections \(\[1\]…\)"):
        loads(f"[1]\n{GOOD}\n[2]\n{GOOD}")
