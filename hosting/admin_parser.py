"""``croupier admin``'s arguments: one subcommand per host action (hosting.admin_requests.ACTIONS), each turned
into the request the room's admin socket takes (:func:`request_of`). No room code here: ``--help`` stays fast."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def _on_off(text: str) -> bool:
    if text not in ("on", "off"):
        raise argparse.ArgumentTypeError(f"expected on or off, got {text!r}")
    return text == "on"


def _signed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of chips such as 50 or -20, got {text!r}") from None


def _blinds(text: str) -> tuple[int, int]:
    small, _, big = text.partition("/")
    if not small.isdigit() or not big.isdigit():
        raise argparse.ArgumentTypeError(f"expected SMALL/BIG such as 2/4, got {text!r}")
    return int(small), int(big)


ACTION_HELP: dict[str, str] = {
    "status": "tables, levels, fast-fold pools, tournaments, seat requests, hosts and bans",
    "approve": "seat a player who asked (approve_seats), optionally with another stack",
    "deny": "refuse a seat request",
    "pause": "pause a table after the current hand", "resume": "resume a paused table",
    "pause-all": "pause every table after its hand", "resume-all": "resume every table",
    "level": "change blinds, ante, straddle, rake or clocks from the next hand (announced at the table)",
    "stack": "add (+N) or take (-N) chips from a player's stack between hands, with a reason he is shown",
    "balance": "add or take chips from a player's bank, with a reason he is shown",
    "kick": "remove a player after the hand (his chips back to his bank) and disconnect him",
    "ban": "ban a name (every name of its key) or a key, and remove it now", "unban": "lift a ban",
    "reset-key": "forget a name's key and show a one-time code: the next login with the name must give it "
                 "(where the room asks for an invite code), then registers its new key",
    "make-host": "give a player the host console (--key: confirm the key a host name's refused login showed)",
    "close": "close the room after a countdown, with a message to everyone",
    "spectators": "who may watch a table: everyone, registered or nobody",
    "chat": "table chat on or off", "mute": "mute a player at a table", "unmute": "unmute a player at a table",
    "night": "start a named night, one settle-up across restarts until you end it (--end)",
    "game": "a mixed table's next game (its number, id or name), dealt from the next hand (announced)",
    "cancel-tournament": "cancel a tournament: before its start every entry is refunded; once running the pool "
                         "left is split among the players still in, equal or by chips (room.toml cancel_refund)",
}


ARGUMENT_HELP: dict[str, str] = {
    "table": "a table's id as room.toml names it (`status` lists them)",
    "pause table": "a table's or fast-fold pool's id (`status` lists them)",
    "resume table": "a table's or fast-fold pool's id (`status` lists them)",
    "level table": "a table's or fast-fold pool's id (`status` lists them)",
    "approve table": "the table (or fast-fold pool) of the request",
    "deny table": "the table (or fast-fold pool) of the request",
    "player": "the player's name (as he logged in)",
    "amount": "chips, + to add or - to take away (e.g. 50, -20)",
    "reason": "why, in words: the player sees it and the ledger keeps it",
    "seconds": "the countdown before the room closes, in seconds",
    "message": "what every player reads with the countdown",
    "who": "who may watch: everyone, registered (names from before tonight) or nobody",
    "on": "on or off",
    "tournament": "the tournament's id as room.toml names it",
    "blinds": "the small and big blind, e.g. 2/4",
    "ante": "the ante each player posts (0: none)",
    "straddle": "whether a straddle may be posted",
    "action_seconds": "seconds a player has to act",
    "time_bank": "seconds of each player's time bank",
    "key": "the key, as in an authorized_keys line",
    "balance player": "the player whose bank changes",
    "balance reason": "why, in words: the player sees it and the ledger keeps it (e.g. 'paid in cash')",
    "ban player": "the name to refuse (every name of his key too)",
    "unban player": "the name to let in again",
    "approve player": "the player who asked for the seat",
    "deny player": "the player who asked for the seat",
    "mute player": "the player whose chat is muted at the table",
    "unmute player": "the player whose chat is heard again",
    "kick player": "the player to remove (he may come back)",
    "reset-key player": "the player whose key is forgotten",
    "make-host player": "the player to make a host (with the key he logged in with)",
}
"""The help of ``croupier admin`` arguments that have none where they are declared: ``"ACTION DEST"`` first,
then ``"DEST"``."""


def add_admin(commands: Any, data_help: str, handler: Handler) -> None:
    admin = commands.add_parser(
        "admin", help="host console of a running room: seats, pause, blinds, bans",
        description="Act on the room running in the data directory, through its admin socket (only its owner "
                    "can reach it). Every action is also on the Host screen of a host's TUI (Ctrl+O).")
    admin.add_argument("--data", metavar="DIR", help=data_help)
    actions = admin.add_subparsers(dest="action", metavar="ACTION", required=True, help="the host action (below)")

    def action(name: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = actions.add_parser(name, help=ACTION_HELP[name],
                                                             description=ACTION_HELP[name])
        parser.add_argument("--data", metavar="DIR", help=data_help, default=argparse.SUPPRESS)
        return parser

    action("status").add_argument("--json", action="store_true",
                                  help="the room's reply as JSON (for scripts) instead of the table")
    approve = action("approve")
    approve.add_argument("table")
    approve.add_argument("player")
    approve.add_argument("--stack", type=int, help="chips to sit with (default: the buy-in he asked for)")
    deny = action("deny")
    deny.add_argument("table")
    deny.add_argument("player")
    deny.add_argument("--reason", help="what he is told")
    for name in ("pause", "resume"):
        action(name).add_argument("table")
    action("pause-all")
    action("resume-all")
    level = action("level")
    level.add_argument("table")
    level.add_argument("--blinds", type=_blinds, metavar="SMALL/BIG")
    level.add_argument("--ante", type=int)
    level.add_argument("--straddle", type=_on_off, metavar="on|off")
    level.add_argument("--rake", metavar="NAME", help="a rake table or preset (`croupier rake`), or none")
    level.add_argument("--action-seconds", type=int)
    level.add_argument("--time-bank", type=int, metavar="SECONDS")
    stack = action("stack")
    stack.add_argument("table")
    for name in ("player", "amount", "reason"):
        (stack.add_argument(name, type=_signed) if name == "amount" else stack.add_argument(name))
    balance = action("balance")
    for name in ("player", "amount", "reason"):
        (balance.add_argument(name, type=_signed) if name == "amount" else balance.add_argument(name))
    kick = action("kick")
    kick.add_argument("player")
    kick.add_argument("--reason")
    for name in ("ban", "unban"):
        parser = action(name)
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--player", metavar="NAME")
        who.add_argument("--key", metavar="'ssh-ed25519 AAAA…'")
        if name == "ban":
            parser.add_argument("--reason")
    reset = action("reset-key")
    reset.add_argument("player")
    reset.add_argument("--yes", action="store_true", help="confirm without being asked")
    make_host = action("make-host")
    make_host.add_argument("player")
    make_host.add_argument("--key", metavar="SHA256:…", help="confirm this key for a host name from room.toml "
                                                              "(the fingerprint his refused login showed)")
    close = action("close")
    close.add_argument("seconds", type=int)
    close.add_argument("message")
    spectators = action("spectators")
    spectators.add_argument("table")
    spectators.add_argument("who", choices=("everyone", "registered", "nobody"))
    chat = action("chat")
    chat.add_argument("table")
    chat.add_argument("on", type=_on_off, metavar="on|off")
    for name in ("mute", "unmute"):
        parser = action(name)
        parser.add_argument("table")
        parser.add_argument("player")
    night = action("night")
    night.add_argument("name", nargs="?", help="the night's name (a new one ends the last)")
    night.add_argument("--end", action="store_true", default=None, help="end the night")
    game = action("game")
    game.add_argument("table")
    game.add_argument("game", help="the game's number in the table's list (1, 2, …), id (razz) or name")
    cancel = action("cancel-tournament")
    cancel.add_argument("tournament")
    cancel.add_argument("--refund", choices=("equal", "chips"), help="how the pool left is split (default: the "
                                                                      "tournament's cancel_refund)")
    for name, parser in actions.choices.items():  # every argument explained in `croupier admin NAME --help`
        for argument in parser._actions:
            if argument.help is None:
                argument.help = ARGUMENT_HELP.get(f"{name} {argument.dest}") or ARGUMENT_HELP[argument.dest]
    admin.set_defaults(handler=handler)


def request_of(arguments: argparse.Namespace) -> dict[str, Any]:
    """The admin socket request (hosting.admin_requests) for parsed ``croupier admin`` arguments."""
    action: str = arguments.action
    values = {key: value for key, value in vars(arguments).items()
              if key not in ("action", "data", "handler", "command", "yes", "json") and value is not None}
    if action == "level":
        blinds = values.pop("blinds", None)
        if blinds is not None:
            values["small_blind"], values["big_blind"] = blinds
        if "time_bank" in values:
            values["time_bank_seconds"] = values.pop("time_bank")
        return {"action": "level", **values}
    if action in ("stack", "balance"):
        return {"action": f"adjust_{action}", **values}
    if action in ("mute", "unmute"):
        return {"action": "mute", **values, "on": action == "mute"}
    if action == "reset-key":
        return {"action": "reset_key", **values, "confirm": bool(arguments.yes)}
    return {"action": action.replace("-", "_"), **values}
