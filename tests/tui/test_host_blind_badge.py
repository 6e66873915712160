"""The host-blind badge (issue 29): the lobby row's name carries it, and each hand's first log line at such a
table too (the hand log says per hand that the host saw no hole card)."""

from __future__ import annotations

from engine.events import HandStarted
from tui.model import TableModel
from tui.widgets.lobby import HOST_BLIND_HELP, row_cells

ROW = {"id": "blind", "name": "Blind 1/2", "game": "texas_holdem", "structure": "no_limit", "stakes": [1, 2],
       "seats": 6}


def test_the_lobby_row_of_a_host_blind_table_carries_the_badge() -> None:
    assert row_cells({**ROW, "dealing": "host-blind"})[0] == "Blind 1/2 [host-blind]"
    assert row_cells(ROW)[0] == "Blind 1/2"
    assert HOST_BLIND_HELP.startswith("[host-blind]: ") and "croupier join" in HOST_BLIND_HELP


def _first_line(dealing: str | None) -> str:
    model = TableModel("blind", "ana")
    snapshot = {"type": "table", "table": "blind", "kind": "cash", "stakes": [1, 2], "seats": [], "max_seats": 6,
                "waiting": [], "hand_running": False}
    if dealing is not None:
        snapshot["dealing"] = dealing
    model.apply(snapshot)
    model.apply({"type": "event", "table": "blind", "hand": "blind-ab12cd-1",
                 "event": HandStarted("texas_holdem", "no_limit", 0, ((0, 100), (1, 100)))})
    return next(line for line in model.log if line.startswith("── hand"))


def test_each_hand_of_a_host_blind_table_starts_its_log_with_the_badge() -> None:
    assert _first_line("host-blind") == "── hand 1 (blind-ab12cd-1) [host-blind] ──"
    assert _first_line(None) == "── hand 1 (blind-ab12cd-1) ──"
