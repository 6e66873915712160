"""Host-blind tables in the room (issue 29, "In the room"): the room file's ``dealing`` option, the lobby's
badge, and who may sit — only a ``croupier join`` client that takes part in the dealing; a plain-ssh player's
screen (its client runs on the host) gets one clear line."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from hosting import protocol
from hosting.config import ConfigError, parse_room
from hosting.identity import Login
from hosting.room import Room, Session
from tests.tui.roombots import make_room, table

HOST_BLIND_TABLE = '[[tables]]\nid = "blind"\ngame = "texas_holdem"\nstructure = "no_limit"\nstakes = [1, 2]\n' \
                   'dealing = "host-blind"\n'


class Recorder:
    def __init__(self) -> None:
        self.messages: list[Mapping[str, Any]] = []

    def send(self, message: Mapping[str, Any]) -> None:
        self.messages.append(message)

    def close(self, reason: str) -> None:
        pass


def test_a_table_deals_host_blind_when_its_room_file_says_so() -> None:
    config = parse_room(HOST_BLIND_TABLE + '\n[[tables]]\nid = "plain"\ngame = "texas_holdem"\n'
                                           'structure = "no_limit"\nstakes = [1, 2]\n')
    blind, plain = config.tables
    assert (blind.dealing, blind.host_blind, blind.manual_showdown) == ("host-blind", True, True)
    assert (plain.dealing, plain.host_blind) == ("commit-reveal", False)


@pytest.mark.parametrize(("extra", "error"), [
    ('rake = "white-label"\n', 'tables[0].rake: a host-blind table takes no rake for now (rake = "none")'),
    ("straddle = true\n", "tables[0].straddle: not at a host-blind table"),
    ("ante = 1\n", "tables[0].ante: not at a host-blind table"),
    ("run_it_twice = true\n", "tables[0].run_it_twice: not at a host-blind table"),
    ("manual_showdown = false\n", "tables[0].manual_showdown: a host-blind table shows hands by choice only"),
])
def test_a_host_blind_table_refuses_what_the_players_check_does_not_cover(extra: str, error: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room(HOST_BLIND_TABLE + extra)
    assert error in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(("text", "error"), [
    (HOST_BLIND_TABLE.replace("no_limit", "spread_limit"),
     "tables[0].dealing: host-blind dealing deals only Texas hold'em and Omaha (no-limit, pot-limit "
     "or fixed-limit), not spread limit: use dealing = \"commit-reveal\" for it"),
    (HOST_BLIND_TABLE.replace('"texas_holdem"', '"omaha_hi_lo"'),
     "tables[0].dealing: host-blind dealing deals only Texas hold'em and Omaha (no-limit, pot-limit "
     "or fixed-limit), not omaha_hi_lo: use dealing = \"commit-reveal\" (the default) for it"),
    (HOST_BLIND_TABLE.replace('"texas_holdem"', '"five_card_draw"').replace("no_limit", "fixed_limit"),
     "tables[0].dealing: host-blind dealing deals only Texas hold'em and Omaha (no-limit, pot-limit "
     "or fixed-limit), not five_card_draw: use dealing = \"commit-reveal\" (the default) for it"),
    (HOST_BLIND_TABLE.replace('"host-blind"', '"blind"'),
     "tables[0].dealing: expected one of commit-reveal, host-blind, got 'blind'"),
    (HOST_BLIND_TABLE.replace("[[tables]]", "[[pools]]").replace('"blind"', '"zoom"') + 'rake = "white-label"\n',
     'pools[0].rake: a host-blind table takes no rake for now (rake = "none")'),
])
def test_host_blind_dealing_where_it_does_not_fit_is_one_line(text: str, error: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_room(text)
    assert str(raised.value) == f"room.toml: {error}"


def _room(tmp_path: Path) -> Room:
    blind = dataclasses.replace(table("blind"), dealing="host-blind", manual_showdown=True)
    return make_room(tmp_path / "data", [blind, table("plain")])


def _session(room: Room, name: str, *, served: bool = False, features: tuple[str, ...] = ()) -> tuple[Session,
                                                                                                         Recorder]:
    recorder = Recorder()
    session = room.connect(Login(name, f"ssh-ed25519 AAAA{name}", "127.0.0.1"), recorder)
    session.served = served
    if features:
        room.receive(session, protocol.parse_message(protocol.encode(protocol.message("hello",
                                                                                      features=list(features)))))
    return session, recorder


def _sit(room: Room, session: Session, recorder: Recorder, table_id: str) -> Mapping[str, Any]:
    recorder.messages.clear()
    room.receive(session, protocol.parse_message(protocol.encode(protocol.message("sit", table=table_id,
                                                                                  buy_in=200))))
    return next(message for message in recorder.messages if message["type"] in ("ack", "error"))


def test_the_lobby_and_the_table_message_mark_a_host_blind_table(tmp_path: Path) -> None:
    room = _room(tmp_path)
    rows = {state.config.id: state.summary(0.0) for state in room.tables.values()}
    assert rows["blind"]["dealing"] == "host-blind"
    assert "dealing" not in rows["plain"]
    assert room.tables["blind"].snapshot()["dealing"] == "host-blind"
    assert "dealing" not in room.tables["plain"].snapshot()


def test_a_plain_ssh_player_who_tries_to_sit_gets_one_clear_line(tmp_path: Path) -> None:
    room = _room(tmp_path)
    session, recorder = _session(room, "ana", served=True, features=("host-blind",))
    reply = _sit(room, session, recorder, "blind")
    assert reply["type"] == "error" and reply["code"] == "host_blind_only"
    assert reply["message"] == ("blind deals host-blind: only players connected with 'croupier join' can sit "
                                "there (with plain ssh your cards would be drawn on the host's machine)")
    assert room.tables["blind"].engine.seat_of("ana") is None
    assert _sit(room, session, recorder, "plain")["type"] == "ack"  # any other table as before


def test_a_client_that_cannot_take_part_is_told_to_update(tmp_path: Path) -> None:
    room = _room(tmp_path)
    session, recorder = _session(room, "bob")
    reply = _sit(room, session, recorder, "blind")
    assert reply["code"] == "host_blind_only"
    assert reply["message"] == ("blind deals host-blind: your client cannot take part; update croupier and "
                                "connect with 'croupier join'")


def test_a_join_client_that_takes_part_sits(tmp_path: Path) -> None:
    room = _room(tmp_path)
    session, recorder = _session(room, "cy", features=("host-blind",))
    reply = _sit(room, session, recorder, "blind")
    assert reply["type"] == "ack" and reply["table"] == "blind"
    assert room.tables["blind"].engine.seat_of("cy") is not None


def test_the_host_cannot_seat_a_plain_ssh_player_there_either(tmp_path: Path) -> None:
    from hosting.errors import RoomError
    room = _room(tmp_path)
    _session(room, "dee", served=True, features=("host-blind",))
    with pytest.raises(RoomError) as raised:
        room.seat_player("dee", room.tables["blind"], 200, None, 0.0)
    assert raised.value.code == "host_blind_only"
