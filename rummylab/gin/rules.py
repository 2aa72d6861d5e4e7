"""Gin rules as data: every option of gin and three-handed gin (docs/rules.md), with presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..i18n import _


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Gin rummy options; every default is the one docs/rules.md names. An option that another
    option makes pointless (``shutout_bonus`` without a flat shutout) is rejected if set."""

    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int | None = 31
    """Bonus for big gin (all 11 cards melded); None: big gin is not played."""
    undercut_on_tie: bool = True
    """A tie between knocker and defender counts as an undercut (else it scores 0 and nobody wins the hand)."""
    knock_limit: int = 10
    target: int = 100
    """A game ends when a player reaches this score."""
    game_bonus: int = 100
    """Added at the end of a game to the winner's score."""
    box_bonus: int = 25
    """Added at the end of a game for each hand a player won (the line or box bonus)."""
    shutout: Literal["double", "flat", "none"] = "double"
    """When the loser won no hand: the winner's game score doubles, or gains shutout_bonus."""
    shutout_bonus: int = 100
    """With ``shutout="flat"``: added to the winner's score."""
    dead_hand_stock: int = 2
    """The hand is void when a discard leaves this many stock cards without a knock."""
    match_games: int = 1
    """A match is the best of this many games (1: a single game)."""

    def __post_init__(self) -> None:
        if not 0 <= self.knock_limit <= 110:
            raise ValueError(f"knock_limit={self.knock_limit}: must be 0..110")
        if self.target <= 0:
            raise ValueError(f"target={self.target}: must be positive")
        if self.match_games < 1 or self.match_games % 2 == 0:
            raise ValueError(f"match_games={self.match_games}: a best-of match needs an odd number of games")
        if self.shutout not in ("double", "flat", "none"):
            raise ValueError(f"shutout={self.shutout!r}: 'double', 'flat' or 'none'")
        if self.dead_hand_stock < 0:
            raise ValueError(f"dead_hand_stock={self.dead_hand_stock}: must be >= 0")
        for name in ("gin_bonus", "undercut_bonus", "game_bonus", "box_bonus", "shutout_bonus"):
            if not 0 <= getattr(self, name) <= 1000:
                raise ValueError(f"{name}={getattr(self, name)!r}: 0 to 1000")
        if self.big_gin_bonus is not None and not 0 <= self.big_gin_bonus <= 1000:
            raise ValueError(f"big_gin_bonus={self.big_gin_bonus!r}: None or 0 to 1000")
        if self.shutout != "flat" and self.shutout_bonus != 100:
            raise ValueError(f"shutout_bonus={self.shutout_bonus} is not used with shutout={self.shutout!r} "
                             "(only with shutout='flat'; see docs/rules.md)")

    def check_three_handed(self) -> None:
        """Three-handed gin scores one game to ``target``: no box or shutout bonus, no match."""
        unused = [f"{name}={getattr(self, name)!r}" for name, plain in
                  (("box_bonus", 0), ("shutout", "none"), ("match_games", 1)) if getattr(self, name) != plain]
        if unused:
            raise ValueError(_("three-handed gin does not use {options}: set box_bonus=0, shutout='none', "
                               "match_games=1 (start from gin.THREE_HANDED; see docs/rules.md)").format(
                                   options=", ".join(unused)))


DEFAULT = Rules()
"""The defaults: gin 25, undercut 25, big gin 31, tie = undercut, game to 100."""

CLASSIC = Rules(gin_bonus=20, undercut_bonus=10, big_gin_bonus=None, box_bonus=20, shutout="flat")
"""The classic (Bicycle-style) rule: gin 20, undercut 10, no big gin, flat 100 shutout."""

THREE_HANDED = Rules(gin_bonus=25, undercut_bonus=10, big_gin_bonus=None, game_bonus=0, box_bonus=0,
                     shutout="none")
"""Three-handed gin in the box as the brief plays it: gin 25, undercut 10, the game ends when
a score reaches 100, and no game, box or shutout bonus."""

TOURNAMENT = Rules(target=250, match_games=5)
"""The brief's tournament: best of five games, 250 points each."""

EAAI = Rules(gin_bonus=25, undercut_bonus=25, big_gin_bonus=None, undercut_on_tie=True, knock_limit=10, target=100,
             game_bonus=0, box_bonus=0, shutout="none", dead_hand_stock=2)
"""The EAAI Gin Rummy Challenge's rules (tneller/gin-rummy-eaai, GinRummyGame.java): gin 25,
undercut 25 with a tie an undercut, no big gin, a hand dead at two stock cards, a game won by
the first to 100 points with no game, box or shutout bonus."""

