"""A mixed table's games in room.toml (R-MIX-1..4, docs/rules-home.md): ``games``, ``every``, ``choice``.

::

    [[tables]]
    id = "horse"
    games = "horse"                  # a mix: "horse", "hose", "eight_game", or your own list (below)
    stakes = [2, 4]                  # blind games: small/big blind, limits 4/8 (small bet = the big blind)
    ante = 1                         # stud games' ante and bring-in (default 15% and 25% of the small bet)
    bring_in = 1
    every = "orbit"                  # hands per game: a number, or "orbit" (players dealt into its first hand)
    choice = "rotation"              # "button": dealer's choice by the player on the button; "host": the host
    choice_seconds = 20              #   picks (croupier admin game); the button's time to pick

    games = ["texas_holdem", {game = "omaha", structure = "pot_limit", stakes = [1, 2]}, "razz"]

A game given by its id is played fixed limit at the table's stakes; a game given as a table names its own
``structure``, ``stakes``, ``ante`` and ``bring_in``. Errors are one line naming the key, as everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.home import HomeOptions, check_home_options
from engine.mixed import Choice, Rotation
from engine.variants import VARIANTS, ForcedBetKind, Variant
from hosting.config_reader import Reader

MIXES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "horse": (("texas_holdem", "fixed_limit"), ("omaha_hi_lo", "fixed_limit"), ("razz", "fixed_limit"),
              ("seven_card_stud", "fixed_limit"), ("seven_card_stud_hi_lo", "fixed_limit")),
    "hose": (("texas_holdem", "fixed_limit"), ("omaha_hi_lo", "fixed_limit"), ("seven_card_stud", "fixed_limit"),
             ("seven_card_stud_hi_lo", "fixed_limit")),
    "eight_game": (("deuce_to_seven_triple_draw", "fixed_limit"), ("texas_holdem", "fixed_limit"),
                   ("omaha_hi_lo", "fixed_limit"), ("razz", "fixed_limit"), ("seven_card_stud", "fixed_limit"),
                   ("seven_card_stud_hi_lo", "fixed_limit"), ("texas_holdem", "no_limit"), ("omaha", "pot_limit")),
}
"""The mixes a host names in one word (game id, structure), in their order of play. HORSE and HOSE are fixed
limit throughout; the 8-game mix adds 2-7 triple draw, no-limit hold'em and pot-limit Omaha."""
MIX_NAMES: Final = {"horse": "HORSE", "hose": "HOSE", "eight_game": "8-Game"}
GAME_KEYS: Final = ("game", "structure", "stakes", "ante", "bring_in")
STRUCTURE_WORDS: Final = {"fixed_limit": "Limit", "no_limit": "NL", "pot_limit": "PL", "half_pot_limit": "Half-pot"}
MIXED_STRUCTURES: Final = tuple(STRUCTURE_WORDS)
"""Spread limit takes per-table maxima: not offered inside a mix."""


@dataclass(frozen=True)
class MixedGame:
    """One game of a mixed table: the engine's ``game`` id under ``structure`` at its stakes (stud games: ``ante``
    and ``bring_in``, the ``big_blind`` being the small bet), and ``name``, what players read ("Limit Hold'em")."""

    game: str
    structure: str
    small_blind: int
    big_blind: int
    ante: int = 0
    bring_in: int = 0
    name: str = ""

    @property
    def stud(self) -> bool:
        return VARIANTS[self.game].forced_bets is ForcedBetKind.ANTE_BRING_IN

    def stakes_words(self) -> str:
        """``"1/2"`` for a blind game, ``"ante 1, bring-in 1, 2/4"`` for a stud game (limits: small/big bet)."""
        if self.stud:
            return f"ante {self.ante}, bring-in {self.bring_in}, limits {self.big_blind}/{2 * self.big_blind}"
        if self.structure == "fixed_limit":
            return f"blinds {self.small_blind}/{self.big_blind}, limits {self.big_blind}/{2 * self.big_blind}"
        return f"blinds {self.small_blind}/{self.big_blind}"


@dataclass(frozen=True)
class MixedConfig:
    """A mixed table (R-MIX-1..4): its ``games`` in order, each for ``every`` hands (0: an orbit), and who picks
    the next one (``choice``: ``rotation``, ``button`` or ``host``; the button has ``choice_seconds`` to pick)."""

    name: str
    games: tuple[MixedGame, ...]
    every: int = 0
    choice: str = Choice.ROTATION.value
    choice_seconds: float = 20.0
    straddle: bool = False
    """Straddles allowed in its blind games (R-BLIND-2)."""

    @property
    def rotation(self) -> Rotation:
        return Rotation(len(self.games), self.every)

    def find(self, wanted: str) -> int | None:
        """The game a host or a player names: its number in the list (1, 2, …), its engine id or its name
        (the first of that id or name); ``None`` when the table has no such game."""
        if wanted.isdigit():
            number = int(wanted)
            return number - 1 if 1 <= number <= len(self.games) else None
        folded = wanted.casefold()
        return next((index for index, game in enumerate(self.games)
                     if folded in (game.game.casefold(), game.name.casefold())), None)


def game_name(variant: Variant, structure: str) -> str:
    """What players read: the game's short name, with its structure when it is not the game's usual one.

    >>> from engine.variants import RAZZ, TEXAS_HOLDEM
    >>> game_name(TEXAS_HOLDEM, "fixed_limit"), game_name(RAZZ, "fixed_limit")
    ("Limit Hold'em", 'Razz')
    """
    if structure == variant.default_structure:
        return variant.display_short_name
    return f"{STRUCTURE_WORDS.get(structure, structure)} {variant.display_short_name}"


def stud_defaults(big_blind: int) -> tuple[int, int]:
    """A stud game's ante and bring-in for a small bet of ``big_blind`` when the host sets none: 15% and 25% of
    it (a 20/40 stud game: ante 3, bring-in 5), the bring-in at least 1 chip.

    >>> stud_defaults(20), stud_defaults(2)
    ((3, 5), (0, 1))
    """
    return big_blind * 15 // 100, max(1, big_blind // 4)


def read_mixed(reader: Reader, stakes: tuple[int, int]) -> MixedConfig:
    """A table's ``games`` (a mix's name or a list), ``every``, ``choice`` and ``choice_seconds``."""
    value = reader.data.get("games")
    if isinstance(value, str):
        if value not in MIXES:
            raise reader.fail("games", f"expected a mix ({', '.join(MIXES)}) or a list of games, got {value!r}")
        entries: list[Any] = [{"game": game, "structure": structure} for game, structure in MIXES[value]]
        name = MIX_NAMES[value]
    elif isinstance(value, list) and 2 <= len(value) <= 20:
        entries, name = value, "Mixed games"
    else:
        raise reader.fail("games", f"expected a mix ({', '.join(MIXES)}) or a list of 2 to 20 games, got {value!r}")
    games = tuple(_read_game(reader, index, entry, stakes) for index, entry in enumerate(entries))
    every_value = reader.data.get("every", "orbit")
    every = 0 if every_value == "orbit" else reader.integer("every", 0, 1, 1000)
    choice = reader.choice("choice", tuple(kind.value for kind in Choice), Choice.ROTATION.value)
    seconds = reader.integer("choice_seconds", 20, 5, 300)
    return MixedConfig(name, games, every, choice, float(seconds))


def _read_game(reader: Reader, index: int, entry: Any, stakes: tuple[int, int]) -> MixedGame:
    if isinstance(entry, str):
        entry = {"game": entry}
    if not isinstance(entry, dict):
        raise reader.fail(f"games[{index}]", f"expected a game id or {{game = …, structure = …}}, got {entry!r}")
    game_reader = Reader(reader.source, entry, f"{reader.path}.games[{index}]")
    game_reader.check_keys(GAME_KEYS)
    game = game_reader.choice("game", tuple(sorted(VARIANTS)))
    structure = game_reader.choice("structure", MIXED_STRUCTURES, "fixed_limit")
    small_blind, big_blind = game_reader.pair("stakes", "small_blind, big_blind", stakes) if "stakes" in entry \
        else stakes
    if small_blind > big_blind:
        raise game_reader.fail("stakes", f"the small blind ({small_blind}) is larger than the big blind ({big_blind})")
    variant = VARIANTS[game]
    if variant.forced_bets is not ForcedBetKind.ANTE_BRING_IN:
        for key in ("ante", "bring_in"):
            if key in entry:
                raise game_reader.fail(key, f"{game} uses blinds, not an ante and a bring-in")
        return MixedGame(game, structure, small_blind, big_blind, name=game_name(variant, structure))
    ante_default, bring_in_default = stud_defaults(big_blind)
    ante_default = reader.integer("ante", ante_default, 0, big_blind) if "ante" in reader.data else ante_default
    bring_in_default = reader.integer("bring_in", bring_in_default, 1, big_blind) if "bring_in" in reader.data \
        else bring_in_default
    ante = game_reader.integer("ante", ante_default, 0, big_blind)
    bring_in = game_reader.integer("bring_in", bring_in_default, 1, big_blind)
    return MixedGame(game, structure, 0, big_blind, ante, bring_in, game_name(variant, structure))


def home_for(options: HomeOptions, game: str) -> HomeOptions:
    """The home-game options a mixed table deals ``game`` with: each one that suits the game (run it twice and
    rabbit hunt in hold'em and Omaha, the 7-2 game in hold'em), the others off for it.

    >>> home_for(HomeOptions(rabbit_hunt=True, seven_deuce_bounty=5), "omaha_hi_lo")
    HomeOptions(run_it_twice=False, rabbit_hunt=True, bomb_pot_every=0, bomb_pot_ante=0, seven_deuce_bounty=0)
    """
    kept = {"run_it_twice": options.run_it_twice, "rabbit_hunt": options.rabbit_hunt,
            "bomb_pot_every": options.bomb_pot_every, "bomb_pot_ante": options.bomb_pot_ante,
            "seven_deuce_bounty": options.seven_deuce_bounty}
    for key in ("run_it_twice", "rabbit_hunt", "seven_deuce_bounty"):
        alone = HomeOptions(**{key: kept[key]})  # type: ignore[arg-type]
        if check_home_options(alone, game) is not None:
            kept[key] = 0 if key == "seven_deuce_bounty" else False
    bomb = HomeOptions(bomb_pot_every=options.bomb_pot_every, bomb_pot_ante=options.bomb_pot_ante)
    if check_home_options(bomb, game) is not None:
        kept["bomb_pot_every"] = kept["bomb_pot_ante"] = 0
    return HomeOptions(**kept)  # type: ignore[arg-type]
