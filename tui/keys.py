"""The key map: every key and command of the app in one table (DESIGN.md "Second wave": one key map).

Each :class:`Command` says where it acts (:data:`TABLE`: the current table; :data:`TABLES`: anywhere;
:data:`LOBBY`: the lobby's lists; :data:`TOURNAMENT`: the tournament screen), its action, its key(s) if it has
any, the word on the key bar, and its
title and line in the command palette. From this table come:

- the key bindings (:func:`bindings`: ``TableView.BINDINGS``, ``CroupierApp.BINDINGS``, ``Lobby.BINDINGS``);
- the command palette's commands (:func:`palette_groups`, used by :mod:`tui.palette`);
- the help screen (:func:`help_text`);
- the README's key tables (:func:`readme_tables`; ``python -m tui.keys`` prints them, a test compares).

Commands that share a palette title are one palette command (its first command's action): the keys that
change with the table's state (A: all-in, pot or max; O: sit out or I'm back) are one command there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from textual.binding import Binding, BindingType

from tui.presets import DEFAULT_TEXTS

TABLE = "table"
TABLES = "tables"
LOBBY = "lobby"
TOURNAMENT = "tournament"

HELP_WIDTH = 100
KEY_WORDS = {"question_mark": "?", "slash": "/", "dollar_sign": "$", "escape": "Esc", "enter": "Enter", "right": "→",
             "left": "←", "up": "↑", "down": "↓"}


@dataclass(frozen=True)
class Command:
    """One thing the player can do.

    ``action`` is the action's name in its place (``TableView``'s ``action_…`` for :data:`TABLE`, the app's for
    :data:`TABLES`, ``Lobby``'s for :data:`LOBBY`) and ``arguments`` its arguments. ``keys``: Textual key
    names, comma-separated ("" : the palette only). ``label``: the key bar's word; ``show``: on the key bar.
    ``title``/``help``: the palette's (``{auto_muck}`` in ``help`` is filled in: "on" or "off"). ``readme``:
    the README row's words for this command's keys ("" : another row covers them); ``readme_keys`` overrides
    the row's key column (one row for keys 1–6)."""

    where: str
    action: str
    title: str
    help: str
    keys: str = ""
    label: str = ""
    show: bool = True
    arguments: tuple[str | int, ...] = ()
    readme: str = ""
    readme_keys: str = ""

    @property
    def textual_action(self) -> str:
        """The action as a binding names it: table keys go through the app (they act on the current table,
        whichever widget has the focus)."""
        call = f"{self.action}({', '.join(repr(argument) for argument in self.arguments)})" if self.arguments \
            else self.action
        if self.where == TABLE:
            return f"app.table_key({', '.join(repr(part) for part in (self.action, *self.arguments))})"
        return call

    @property
    def key_names(self) -> list[str]:
        return [key for key in self.keys.split(",") if key]


def _presets() -> list[Command]:
    """Keys 1-9: the player's bet sizes (tui.presets; the bet sizes window, $, changes them)."""
    presets = [Command(TABLE, "preset", f"Bet size {number}", f"by default {text} (Bet sizes: $)", str(number),
                       f"Size {number}", False, (number,))
               for number, text in enumerate(DEFAULT_TEXTS, start=1)]
    presets[0] = replace(
        presets[0], readme_keys="**1**–**9**",
        readme="put a bet size in the amount box (R or Enter sends it): by default 1–6 are ½ pot, ⅔ pot, ¾ pot, "
               "pot, the minimum, the maximum (labelled all-in, pot or max), and pre-flop 7–9 open to 2, 2.5 and 3 "
               "big blinds; each button shows its key. **$** sets your own (←/→ on the slider: one big blind, "
               "Shift ×10)")
    return presets


COMMANDS: tuple[Command, ...] = (
    # --- at a table (TableView's bindings, in key-bar order) ---
    Command(TABLE, "fold", "Fold", "fold this hand", "f", "Fold",
            readme='fold (not your turn yet: tick "check/fold")'),
    Command(TABLE, "check_call", "Check or call", "check, or call the bet", "c", "Check/Call",
            readme='check, or call the amount shown (not your turn yet: tick "call any")'),
    Command(TABLE, "raise", "Bet or raise", "to the amount in the box", "r", "Raise",
            readme="bet or raise to the amount in the box (also from inside the box; the box shows the minimum; "
                   "an invalid amount is refused on screen and nothing is sent)"),
    Command(TABLE, "all_in", "All-in", "bet or call everything; Pot or Max where that is less", "a", "All-in",
            readme="all-in; where the most you may bet is less than your stack the key bar says **Pot** (pot "
                   "limit) or **Max** (limits) and A bets that"),
    Command(TABLE, "max_pot", "All-in", "", "a", "Pot"),
    Command(TABLE, "max_raise", "All-in", "", "a", "Max"),
    *_presets(),
    Command(TABLE, "amount", "Type an amount", "focus the amount box", "e", "Amount", False,
            readme="type an amount: the box's amount is selected, so typing replaces it; **R** or Enter sends it "
                   "(the box takes digits only: every letter is still a table key, e.g. **A** after a refused "
                   "amount)"),
    Command(TABLE, "draw", "Draw or stand pat", "throw the chosen cards in a draw game; keys 1-5 choose", "d",
            "Draw", readme_keys="**1**–**5**, **D**",
            readme="in a draw game: choose the cards to throw, then draw (none chosen: stand pat)"),
    Command(TABLE, "split", "Split", "32-card split when offered", "p", "Split", False,
            readme="accept a split (32-card games, when offered)"),
    Command(TABLE, "run_twice", "Run it twice", "all-in, when asked: yes, deal the rest of the board twice", "y",
            "Run twice", readme_keys="**Y** / **N**",
            readme="home games, all-in at a table with `run_it_twice`: yes, deal the rest of the board twice / "
                   "no, once (no answer is no); both boards are shown, each pot halved (docs/rules-home.md). "
                   "Only while asked: otherwise **N** is the next table waiting for you"),
    Command(TABLE, "run_once", "Run it once", "all-in, when asked: no, one board", "n", "Run once"),
    Command(TABLE, "rabbit_hunt", "Rabbit hunt", "after a hand that ended early: the cards that would have come",
            "w", "Rabbit",
            readme="home games with `rabbit_hunt`: after a hand that ended early, until the next hand's first "
                   'action, show the table the cards that would have come (marked "not played")'),
    Command(TABLE, "pick_game", "Pick the next game", "dealer's choice at a mixed table, when it is your pick",
            "g", "Pick game",
            readme="dealer's choice at a mixed table: when the header says it is your pick, choose the next game "
                   "(its number, or Enter on it); your time out, the next game of the list is dealt"),
    Command(TABLE, "notes", "Player notes", "tag a player at this table with a colour and a note", "q", "Notes",
            False, readme="notes on a player at this table: a colour tag (a coloured ● before his name on every seat "
                          "he takes, at every table) and a line of text (shown when the mouse is on his seat and in "
                          "this window); kept on your computer by `croupier join` and `croupier play`"),
    Command(TABLE, "show", "Show cards", "at showdown", "s", "Show", readme_keys="**S** / **M**",
            readme="show or muck at showdown when asked: a table with `manual_showdown = true` asks each player "
                   "in showdown order, on the action clock (out of time: the hand is shown); Ctrl+P → "
                   '"Auto-muck losing hands" mucks, unasked, a hand that cannot win (at any table). After '
                   "winning a hand nobody called, until the next hand's first action: **S** shows your hand, Ctrl+P → "
                   '"Show your first card" / "second card" shows one (never shown otherwise)'),
    Command(TABLE, "muck", "Muck cards", "at showdown", "m", "Muck"),
    Command(TABLE, "back", "Sit out / sit in", "toggle; away, it is I'm back", "o", "I'm back",
            readme_keys="**O** when away",
            readme="**I'm back**: after a timeout you are Away (your turns are checked or folded at once, the "
                   "line under the table says so); O, or any action key, brings you back. The room keeps an away "
                   "(or sitting-out) player's seat 5 minutes (`seat_hold_seconds`), then gives it up and his chips "
                   "go back; a minute before, you are warned: a line in the table, a notice and the bell"),
    Command(TABLE, "sit_out", "Sit out / sit in", "", "o", "Sit out", False, readme_keys="**O** / **B** / **U**",
            readme="sit out / wait for the big blind on or off (not in stud) / top up (asked during a hand you "
                   "are in: added when it ends)"),
    Command(TABLE, "wait_big_blind", "Wait for big blind", "toggle", "b", "Wait BB", False),
    Command(TABLE, "top_up", "Top-up", "add chips between hands", "u", "Top-up", False),
    Command(TABLE, "auto_top_up", "Auto top-up and rebuy", "between hands: top up below a stack, rebuy when busted",
            "z", "Auto top-up",
            readme="auto top-up and auto rebuy at a cash table: top up to the maximum (or your amount) whenever your "
                   "stack is below a threshold, buy in again when you bust; the room does it between your hands, "
                   "from your balance, within the table's buy-in (the line under the table shows it)"),
    Command(TABLE, "leave", "Leave table", "stand up", "x", "Leave", readme="leave the table"),
    Command(TABLE, "close", "Close this table", "stop watching it", "x", "Close", readme_keys="**J** / **X** watching",
            readme="sit down at the table you watch (when a seat is free) / close its tab; a watcher gets no "
                   "action bar"),
    Command(TABLE, "sit_down", "Sit down here", "buy in at the table you watch", "j", "Sit down"),
    Command(TABLE, "chat", "Chat at this table", "type a line to the table", "slash", "Chat", False,
            readme="chat at this table"),
    Command(TABLE, "focus_table", "Table keys", "the keys act on the table again", "escape", "Table keys", False,
            readme="leave the amount box or the chat: the keys are the table's again"),
    # palette only, at a table
    Command(TABLE, "show_card", "Show your first card", "after winning without a showdown (S shows the hand)",
            arguments=(0,)),
    Command(TABLE, "show_card", "Show your second card", "after winning without a showdown (S shows the hand)",
            arguments=(1,)),
    Command(TABLE, "auto_muck", "Auto-muck losing hands",
            "now {auto_muck}: at showdown, hands that cannot win are mucked unasked"),
    Command(TABLE, "pre_action", "Pre-action: check/fold", "tick for your next turn this round (F when not your turn)",
            arguments=("check-fold",)),
    Command(TABLE, "pre_action", "Pre-action: call any", "tick for your next turn this round (C when not your turn)",
            arguments=("call-any",)),
    Command(TABLE, "pre_action", "Pre-action: fold to any bet", "tick for your next turn this round",
            arguments=("fold",)),
    # --- everywhere (the app's bindings, in key-bar order) ---
    Command(TABLES, "jump", "Jump to waiting table", "the table that needs your action", "n", "Next turn",
            readme="jump to the next table waiting for you (its tab shows ●; a hidden table rings the bell)"),
    Command(TABLES, "toggle_tiles", "Tabs / tiles", "switch the multi-table layout", "t", "Tiles",
            readme="tabs or tiles (all your tables at once; small screens get compact tiles)"),
    Command(TABLES, "lobby", "Lobby", "the table list", "l", "Lobby", readme="the lobby (its keys below)"),
    Command(TABLES, "toggle_log", "Hand log and chat", "show or hide on compact screens", "h", "Log", False,
            readme="hand log and chat on small screens"),
    Command(TABLES, "four_colour", "Four-colour deck", "toggle", "k", "4-colour", False,
            readme="four-colour deck"),
    Command(TABLES, "hand_history", "Hand history", "this table's hands, street by street", "v", "Hand history",
            False, readme="hand history of this table: the last hand first, **↑**/**↓** an earlier one, "
                          "**←**/**→** street by street (its cards, every card shown, its lines, its fairness "
                          "badge), Esc closes"),
    Command(TABLES, "bet_sizes", "Bet sizes", "your sizes for keys 1-9: pot fractions, big blinds, times the bet",
            "dollar_sign", "Bet sizes",
            readme="your bet sizes for keys 1–9, used at every table: a fraction of the pot (`1/3`, `3/4 pot`, "
                   "`60%`, `pot`, `1.5 pot`), big blinds (`2.5bb`), times the bet to call (`3x`), `min` or `max`; "
                   "kept on your computer by `croupier join` and `croupier play` (a wrong one is refused and "
                   "named, nothing is lost; Reset puts the defaults back)"),
    Command(TABLES, "help", "Keys", "the help screen", "question_mark,f1", "Help", readme="help"),
    Command(TABLES, "host", "Host console", "seats, pause, blinds, stacks, bans: the room's hosts only", "ctrl+o",
            "Host", False, readme="the Host screen (a host of the room only; README \"Hosting a home game\")"),
    Command(TABLES, "settle_up", "Settle up", "this session's buy-ins, cash-outs, nets and who pays whom",
            readme_keys="Ctrl+P → **Settle up**",
            readme="the night's settle-up: each player's buy-ins, cash-outs and net, and who pays whom"),
    Command(TABLES, "results", "Your results", "each table's buy-ins, cash-outs, net, hands and time, and the night",
            readme_keys="Ctrl+P → **Your results**",
            readme="what you bought in for and cashed out at each table tonight, up or down, hands and time (also "
                   "shown when you leave a table, and printed when you quit)"),
    Command(TABLES, "next_table", "Next table", "the tab after this one", "ctrl+right", "Next table", False, (1,),
            readme_keys="**Ctrl+←** / **Ctrl+→**", readme="previous / next table"),
    Command(TABLES, "next_table", "Previous table", "the tab before this one", "ctrl+left", "Previous table", False,
            (-1,)),
    Command(TABLES, "tournament", "Tournament", "its screen: clock, prize pool, payouts, players, tables", "i",
            "Tournament", False, readme="the tournament screen (of the table you are at, or the one highlighted in the "
                                 "lobby): structure, clock, prize pool, payouts, players by chips, tables"),
    Command(TABLES, "report_last_hand", "Report the last hand", "flag it for the host's review"),
    Command(TABLES, "set_theme", "High-contrast theme", "black, white and bright colours",
            arguments=("croupier-high-contrast",)),
    Command(TABLES, "set_theme", "Felt theme", "the default theme", arguments=("croupier-felt",)),
    # --- the lobby's list (Lobby's bindings) ---
    Command(LOBBY, "join", "Lobby: join the highlighted table", "sit down (or the waiting list when full)", "enter",
            "Join", False),
    Command(LOBBY, "join", "Lobby: join the highlighted table", "", "j", "Join",
            readme_keys="**J** / **Enter**", readme="join the highlighted table (sit down; full: the waiting list)"),
    Command(LOBBY, "watch", "Lobby: watch the highlighted table", "open it without sitting", "w", "Watch",
            readme_keys="**W** / **O**", readme="watch it (open without sitting)"),
    Command(LOBBY, "watch", "Lobby: watch the highlighted table", "", "o", "Open", False),
    Command(LOBBY, "cycle_sort", "Lobby: sort by the next column", "then again to go on", "s", "Sort",
            readme="sort by the next column"),
    Command(LOBBY, "reverse_sort", "Lobby: reverse the order", "descending ⇄ ascending (click the header again)",
            "r", "Reverse", False, readme="reverse the order (or click a header)"),
    Command(LOBBY, "refresh", "Refresh lobby", "ask the room again", "g", "Refresh", readme="ask the room again"),
    Command(LOBBY, "refill", "Play-money refill", "ask for chips", "p", "Refill", readme="play-money refill"),
    Command(LOBBY, "register", "Lobby: register for the highlighted tournament", "enter it (a password if private)",
            "e", "Register", False,
            readme="register for the highlighted tournament (a private one asks its password; with a ticket for it, "
                   "**T** pays with the ticket, **B** from your balance)"),
    Command(LOBBY, "unregister", "Lobby: unregister from the highlighted tournament", "before it starts", "u",
            "Unregister", False, readme="unregister from it (before it starts; the entry or the ticket comes back)"),
    Command(LOBBY, "toggle_filter", "Lobby: hide full tables", "toggle", arguments=("#hide-full",),
            readme_keys="**Tab**",
            readme="to the filters: game, stakes, hide full, hide empty"),
    Command(LOBBY, "toggle_filter", "Lobby: hide empty tables", "toggle", arguments=("#hide-empty",)),
)

TOURNAMENT_COMMANDS: tuple[Command, ...] = (
    Command(TOURNAMENT, "request", "Rebuy", "when your chips are gone or low, while rebuys are open", "r",
            "Rebuy", arguments=("rebuy",), readme="rebuy (while rebuys are open; the window also asks when your "
                                                  "chips are gone)"),
    Command(TOURNAMENT, "request", "Add-on", "once, when the add-on is open", "a", "Add-on",
            arguments=("add_on",), readme="take the add-on (once, while it is open)"),
    Command(TOURNAMENT, "request", "Propose a deal: equal shares", "at the final table", "1", "Deal: equal",
            arguments=("propose_deal", "equal"), readme_keys="**1** / **2** / **3** / **4**",
            readme="at the final table: propose a deal — equal shares / chip-proportional / ICM / chip-chop; the "
                   "screen shows every finalist's number in each before anyone proposes, and each player accepts or "
                   "declines"),
    Command(TOURNAMENT, "request", "Propose a deal: chip-proportional", "at the final table", "2", "Deal: chips",
            arguments=("propose_deal", "chips")),
    Command(TOURNAMENT, "request", "Propose a deal: ICM", "at the final table", "3", "Deal: ICM",
            arguments=("propose_deal", "icm")),
    Command(TOURNAMENT, "request", "Propose a deal: chip-chop", "at the final table", "4", "Deal: chip-chop",
            arguments=("propose_deal", "chip_chop")),
    Command(TOURNAMENT, "request", "Accept the deal", "the deal on the table", "y", "Accept",
            arguments=("accept_deal",), readme_keys="**Y** / **N**", readme="accept / decline the deal on the table"),
    Command(TOURNAMENT, "request", "Decline the deal", "play goes on", "n", "Decline", arguments=("decline_deal",)),
    Command(TOURNAMENT, "close", "Close the tournament screen", "", "escape", "Close", readme="close it"),
)
"""The tournament screen's keys (its bindings; the palette sends the same requests for the tournament you
play)."""
COMMANDS = (*COMMANDS, *TOURNAMENT_COMMANDS)

EVERYWHERE_ROWS = (
    ("**Ctrl+P**", "every command, searchable (themes, including high contrast; report the last hand to the host)"),
    ("**Ctrl+Q**", "quit"),
)
"""Textual's own keys, in the README's table of keys that work everywhere."""


def commands(where: str) -> list[Command]:
    return [command for command in COMMANDS if command.where == where]


def bindings(where: str) -> list[BindingType]:
    """The key bindings of ``where`` (in the key map's order: the key bar shows them so)."""
    return [Binding(command.keys, command.textual_action, command.label, show=command.show)
            for command in commands(where) if command.keys]


def key_display(key: str) -> str:
    """A Textual key name as the player reads it: ``ctrl+right`` → ``Ctrl+→``, ``question_mark`` → ``?``."""
    parts = key.split("+")
    words = [part.capitalize() for part in parts[:-1]]
    last = parts[-1]
    last = KEY_WORDS.get(last, last.upper() if len(last) == 1 or last[1:].isdigit() else last.capitalize())
    return "+".join([*words, last])


def palette_groups(where: str) -> list[tuple[Command, list[str]]]:
    """Each palette command of ``where`` — its first :class:`Command` — with the keys of every command that
    shares its title (shown after its line, e.g. ``(A)``)."""
    groups: dict[str, tuple[Command, list[str]]] = {}
    for command in commands(where):
        _, keys = groups.setdefault(command.title, (command, []))
        keys.extend(display for display in map(key_display, command.key_names) if display not in keys)
    return list(groups.values())


def palette_help(command: Command, keys: Sequence[str], **state: str) -> str:
    words = command.help.format(**state) if state else command.help
    return f"{words} ({', '.join(keys)})" if keys else words


def help_text() -> str:
    """The help screen: each place's keys, from the key map."""

    def lines(heading: str, where: str) -> list[str]:
        entries = [f"{'/'.join(keys)} {words[0].lower()}{words[1:]}"
                   for first, keys in palette_groups(where) if keys
                   for words in [first.title.removeprefix("Lobby: ")]]
        # a heading wider than the key column has a line of its own
        rows = [f"[b]{heading}[/b]".ljust(16)] if len(heading) < 9 else [f"[b]{heading}[/b]", " " * 9]
        for entry in entries:
            if len(rows[-1]) + len(entry) > HELP_WIDTH:
                rows.append(" " * 9)
            rows[-1] += entry if rows[-1].endswith(("  ", "[/b]")) or rows[-1].isspace() else f" · {entry}"
        return rows

    return "\n".join([
        "[b]croupier — keys[/b]   Ctrl+P: every action by name · mouse works too · Ctrl+Q quit", "",
        *lines("Table", TABLE),
        "         E again selects the amount; R or Enter sends it · not your turn: F ticks check/fold, C call any",
        "         a draw game: 1-5 choose the cards to throw · stud: your face-down cards are underlined "
        "(only you see them)",
        *lines("Tables", TABLES),
        *lines("Lobby", LOBBY),
        "         Tab to the filters: game, stakes, hide full, hide empty",
        *lines("Tournament screen (I)", TOURNAMENT),
    ])


def readme_rows(where: str) -> Iterator[str]:
    for command in commands(where):
        if command.readme:
            keys = command.readme_keys or " / ".join(f"**{key_display(key)}**" for key in command.key_names)
            yield f"| {keys} | {command.readme} |"


def readme_tables() -> str:
    """The README's key tables (``## Keys``), as Markdown."""
    head = ["| key | what it does |", "|---|---|"]
    everywhere = [f"| {keys} | {words} |" for keys, words in EVERYWHERE_ROWS]
    return "\n".join(["At a table:", "", *head, *readme_rows(TABLE), "", "Everywhere:", "", *head,
                      *readme_rows(TABLES), *everywhere, "", "In the lobby:", "", *head, *readme_rows(LOBBY),
                      "", "On the tournament screen (I):", "", *head, *readme_rows(TOURNAMENT)])


if __name__ == "__main__":
    print(readme_tables())
