"""Indian 13-card rummy options (docs/rules.md, Indian rummy) and the cut joker."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import RANKS, Card, parse_cards
from ..kernel import WildOptions, wild_kernel
from ..kernel._wild_py import WildKernel

POINTS = (10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Loser points ace to king: A, K, Q, J = 10; 2-10 face value. Jokers count nothing."""

HAND_SIZE = 13
NO_SECOND_LIFE_RULES = ("all_cards", "exclude_pure")
SUIT_ORDER = "SHDC"
LEAVERS = ("autoplay", "drop_after_missed")
ELIMINATIONS = ("reach", "exceed")
FORMAT_RULES = {"pool": ("elimination", "max_rejoins")}
"""Options only one format plays ("points", "pool" or "deals"); in another they would change
nothing, so they are refused there unless left at their defaults (a preset keeps its own)."""


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Indian rummy options; every default is the one docs/rules.md names."""

    ace_high: bool = True
    """Q-K-A is a sequence as well as A-2-3 (K-A-2 never)."""
    wild_natural_in_pure: bool = True
    """A wild-joker card in its own place keeps a sequence pure."""
    set_allow_duplicate_suits: bool = False
    """Two identical cards (7S 7S) may share a set."""
    set_max_size: int | None = 4
    """The largest set, jokers included (None: no limit)."""
    max_jokers_per_group: int | None = None
    """Jokers (printed or wild) standing in per group (None: any number)."""
    jokers_only_group: bool = True
    """Three or more jokers may form a group of their own (it counts as a set, not a life).
    No source settles it; rummylab's choice."""
    min_life_length: int = 3
    """The fewest cards of a sequence that counts as a life (rummyon: 4); shorter sequences
    are still valid groups."""
    sequence_max_size: int | None = None
    """The longest sequence, jokers included (None: no limit; the brief: 4)."""
    no_second_life_rule: str = "all_cards"
    """Without both lives: "all_cards" count, or "exclude_pure" (every card but a pure sequence)."""
    valid_show_points: int = 2
    """A loser whose hand is completely valid (brief-only)."""
    cap: int = 80
    """The most a loser can lose in one deal."""
    wrong_show_points: int = 80
    first_drop: int | None = None
    """Drop before the first draw; None: 20, or 25 in 201 pool."""
    middle_drop: int | None = None
    """Drop later; None: 40, or 50 in 201 pool."""
    leaver: str = "autoplay"
    """A player who misses turns: "autoplay" (before their first draw it is a first drop;
    later the table draws and throws the same card for them, up to ``autoplay_turns``, then
    their hand is scored as a loser; they may reconnect), or "drop_after_missed" (after
    ``missed_turns_drop`` missed turns in a row it is a middle drop)."""
    autoplay_turns: int = 20
    """With "autoplay": turns the table plays for a player before their hand is scored."""
    missed_turns_drop: int = 3
    """With "drop_after_missed": missed turns in a row that count as a middle drop."""
    joker_from_discard: bool = False
    """A joker (printed or of the wild rank) may be taken from the discard pile; False: only
    the first upcard, on the first player's first turn."""
    dropped_cards_to_stock: bool = True
    """A dropped player's cards are shuffled into the stock (else they are set aside)."""
    elimination: str = "reach"
    """Pool rummy: out on "reach"-ing the pool (101 or more) or only on "exceed"-ing it."""
    max_rejoins: int | None = None
    """Pool rummy: re-joins (each a new buy-in) one player may make (None: no limit). Re-joining
    needs at least two players still in the pool, none above 79 (174 in 201 pool)."""
    printed_jokers: int = 2
    """Printed jokers in the pack (one per deck)."""
    toss_jokers: bool = True
    """The toss is drawn from the whole pack, printed jokers included; a joker is the highest."""
    toss_suit_order: str = SUIT_ORDER
    """Breaks toss ties, strongest first (rummytitans: S > H > D > C)."""

    def __post_init__(self) -> None:
        if self.set_max_size is not None and not 3 <= self.set_max_size <= 8:
            raise ValueError(f"set_max_size={self.set_max_size}: None or 3 to 8")
        if self.max_jokers_per_group is not None and not 0 <= self.max_jokers_per_group <= 13:
            raise ValueError(f"max_jokers_per_group={self.max_jokers_per_group}: None or 0 to 13")
        if not 3 <= self.min_life_length <= 13:
            raise ValueError(f"min_life_length={self.min_life_length}: 3 to 13")
        if self.sequence_max_size is not None:
            if not 3 <= self.sequence_max_size <= 13:
                raise ValueError(f"sequence_max_size={self.sequence_max_size}: None or 3 to 13")
            if self.sequence_max_size < self.min_life_length:
                raise ValueError(f"sequence_max_size={self.sequence_max_size} is below "
                                 f"min_life_length={self.min_life_length}: no sequence could be a life")
        if self.no_second_life_rule not in NO_SECOND_LIFE_RULES:
            raise ValueError(f"no_second_life_rule={self.no_second_life_rule!r}: one of {NO_SECOND_LIFE_RULES}")
        for name in ("valid_show_points", "cap", "wrong_show_points"):
            if not 0 <= getattr(self, name) <= 1000:
                raise ValueError(f"{name}={getattr(self, name)!r}: 0 to 1000")
        if self.leaver not in LEAVERS:
            raise ValueError(f"leaver={self.leaver!r}: one of {LEAVERS}")
        if not 1 <= self.autoplay_turns <= 1000:
            raise ValueError(f"autoplay_turns={self.autoplay_turns!r}: 1 to 1000")
        if not 1 <= self.missed_turns_drop <= 1000:
            raise ValueError(f"missed_turns_drop={self.missed_turns_drop!r}: 1 to 1000")
        unused = {"autoplay": ("missed_turns_drop", 3), "drop_after_missed": ("autoplay_turns", 20)}[self.leaver]
        if getattr(self, unused[0]) != unused[1]:
            raise ValueError(f"{unused[0]}={getattr(self, unused[0])!r} is not used with leaver={self.leaver!r} "
                             "(see docs/rules.md)")
        if self.elimination not in ELIMINATIONS:
            raise ValueError(f"elimination={self.elimination!r}: one of {ELIMINATIONS}")
        if self.max_rejoins is not None and not 0 <= self.max_rejoins <= 100:
            raise ValueError(f"max_rejoins={self.max_rejoins!r}: None or 0 to 100")
        if not 0 <= self.printed_jokers <= 4:
            raise ValueError(f"printed_jokers={self.printed_jokers}: 0 to 4")
        if sorted(self.toss_suit_order) != sorted(SUIT_ORDER):
            raise ValueError(f"toss_suit_order={self.toss_suit_order!r}: the four suits S H D C in some order")

    def check_format(self, fmt: str) -> None:
        """Refuse options of another format ("points", "pool", "deals") set away from their
        defaults; a preset (``DEFAULT``, ``BRIEF``) carries its rules for every format."""
        if self in PRESETS:
            return
        for owner, names in FORMAT_RULES.items():
            for name in names:
                if owner != fmt and getattr(self, name) != getattr(DEFAULT, name):
                    raise ValueError(f"{name}={getattr(self, name)!r} is a {owner} rummy rule: {fmt} rummy does not "
                                     f"use it (leave it at {getattr(DEFAULT, name)!r}; see docs/rules.md)")

    def eliminated(self, score: int, pool: int) -> bool:
        """Out of a 101 or 201 pool with this score."""
        return score >= pool if self.elimination == "reach" else score > pool

    def drops(self, pool: int | None) -> tuple[int, int]:
        """(first drop, middle drop) points in a 101 or 201 pool, or points rummy (None)."""
        first, middle = (25, 50) if pool == 201 else (20, 40)
        return (first if self.first_drop is None else self.first_drop,
                middle if self.middle_drop is None else self.middle_drop)

    @property
    def points(self) -> tuple[int, ...]:
        return POINTS

    def kernel_options(self, *, every_card_one: bool = False) -> WildOptions:
        """What the wild-card search is told: a declaration needs two sequences, one of them pure."""
        return WildOptions(points=(1,) * 13 if every_card_one else self.points, ace_high=self.ace_high,
                           max_wilds=self.max_jokers_per_group, min_non_wild=0 if self.jokers_only_group else 1,
                           identical_in_set=self.set_allow_duplicate_suits, set_max=self.set_max_size,
                           min_runs=2, min_pure_runs=1, wild_natural_in_pure=self.wild_natural_in_pure,
                           min_life_length=self.min_life_length, run_max=self.sequence_max_size)

    def kernel(self, backend: str | None = None) -> WildKernel:
        """The search for the least loser count with two lives ("cython", "python" or selected)."""
        return wild_kernel(self, backend)

    def declaration_kernel(self, backend: str | None = None) -> WildKernel:
        """The same search counting every card 1: 0 means a valid declaration exists."""
        return wild_kernel(self, backend, every_card_one=True)


DEFAULT = Rules()
"""The defaults of docs/rules.md: what most sources say."""

BRIEF = Rules(no_second_life_rule="exclude_pure", elimination="exceed", toss_suit_order="SDCH", sequence_max_size=4)
"""The brief's Indian rummy on every point where it differs from most sources: a loser with a
pure sequence but no second sequence does not count the pure sequence; a player is out only
above 101 (201); toss ties go S > D > C > H; a sequence is 3 or 4 cards. (Its joker, leaver,
re-join and toss-pack rules are the defaults already; docs/rules.md says which brief lines are
not modelled, and why.)"""


PRESETS = (DEFAULT, BRIEF)
"""The presets: each carries its rules for every format."""


def wild_rank_for_cut(card: Card | str) -> str:
    """The wild-joker rank for the cut card: its rank, or "A" when a printed joker is cut."""
    (c,) = parse_cards([card] if isinstance(card, (Card, str)) else card, size=1, jokers=1)
    return "A" if c.is_joker else RANKS[c.rank]


def wild_rank_index(wild_rank: str | int | Card | None) -> int:
    """The wild rank as 0 (ace) … 12 (king), or -1 for none, from a rank string ("7", "10",
    "T"), a cut Card, or None."""
    if wild_rank is None:
        return -1
    if isinstance(wild_rank, Card):
        return 0 if wild_rank.is_joker else wild_rank.rank
    if isinstance(wild_rank, str):
        t = wild_rank.strip().upper()
        t = "T" if t == "10" else t
        if len(t) == 1 and t in RANKS:
            return RANKS.index(t)
        if t in ("JK", "JOKER"):
            raise ValueError(f"wild rank {wild_rank!r}: a cut printed joker makes the aces wild; pass 'A' "
                             "(see wild_rank_for_cut)")
    raise ValueError(f"wild rank {wild_rank!r}: one of A 2-9 T J Q K (or None)")
