"""``croupier jackpot [seed POOL CHIPS]`` (R-JACK-1, R-JACK-2): the host seeds a pool; ledgered; bad input refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from hosting import datadir
from hosting.cli import main
from hosting.ledger import check_conservation, check_ledger
from hosting.store import Store


def _room(tmp_path: Path) -> Path:
    data = tmp_path / "room"
    Store.open(data).close_now()
    return data


def test_r_jack_2_host_seeds_the_monte_carlo_pool_with_one_ledger_row(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    data = _room(tmp_path)
    assert main(["jackpot", "seed", "monte_carlo_holdem", "10000", "--data", str(data)]) == 0
    assert main(["jackpot", "--data", str(data), "seed", "monte_carlo_holdem", "2500"]) == 0
    assert capsys.readouterr().out.splitlines() == ["monte_carlo_holdem: 10000 chips (+10000)",
                                                    "monte_carlo_holdem: 12500 chips (+2500)"]
    store = Store.open(data)
    try:
        assert store.jackpot_pool("monte_carlo_holdem") == 12_500 and store.jackpot_pool("smart_holdem") == 0
        rows = store.connection.execute(
            "SELECT source, destination, amount, pool FROM ledger ORDER BY id").fetchall()
        assert rows == [("issue", "jackpot", 10_000, "monte_carlo_holdem"),
                        ("issue", "jackpot", 2_500, "monte_carlo_holdem")]
        assert [*check_conservation(store.connection), *check_ledger(store.connection)] == []
    finally:
        store.close_now()
    assert main(["jackpot", "--data", str(data)]) == 0
    assert "monte_carlo_holdem: 12500 chips" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(("argv", "message"), [
    (["seed", "lottery", "100"], "there is no jackpot pool 'lottery'; pools: bad_beat_five_card_draw, "
                                 "bad_beat_holdem, bad_beat_omaha, monte_carlo_holdem, smart_holdem"),
    (["seed", "bad_beat_holdem", "0"], "seed a whole number of chips from 1 to 1000000000000, not '0'"),
    (["seed", "bad_beat_holdem", "-5"], "seed a whole number of chips from 1 to 1000000000000, not '-5'"),
    (["seed", "bad_beat_holdem", "2.5"], "seed a whole number of chips from 1 to 1000000000000, not '2.5'"),
])
def test_bad_seeds_are_refused_with_one_line_and_nothing_changes(tmp_path: Path, argv: list[str], message: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = _room(tmp_path)
    assert main(["jackpot", *argv, "--data", str(data)]) == 2
    assert capsys.readouterr().err == f"croupier jackpot: {message}\n"
    store = Store.open(data)
    try:
        assert store.connection.execute("SELECT COUNT(*) FROM ledger").fetchone() == (0,)
    finally:
        store.close_now()


def test_a_running_room_or_no_room_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["jackpot", "seed", "bad_beat_holdem", "5", "--data", str(tmp_path / "nothing")]) == 2
    assert "holds no room" in capsys.readouterr().err
    assert not (tmp_path / "nothing").exists()
    data = _room(tmp_path)

    def held(data_dir: Path) -> None:  # a running host holds the directory's lock
        raise datadir.DataDirInUse(data_dir, 4242)

    monkeypatch.setattr(datadir, "claim", held)
    assert main(["jackpot", "seed", "bad_beat_holdem", "5", "--data", str(data)]) == 2
    assert capsys.readouterr().err == (f"croupier jackpot: another croupier (pid 4242) is using {data}; stop it or "
                                       "use --data DIR (seed the pool while the room is stopped)\n")
    store = Store.open(data)
    try:
        assert store.jackpot_pool("bad_beat_holdem") == 0
    finally:
        store.close_now()
