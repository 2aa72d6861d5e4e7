"""The numbers the compiled play loops and the Python side share, defined once: each family's
phases, actions, bots and endings in the loops' order, the columns of the rows they return, and
their limits. ``setup.py`` writes them into ``ext/_codes.pxi`` (a ``cdef enum`` each) at build
time; the bots' modules read them from here. Plain data: the build reads this file without
importing rummylab. Phases and actions are named by the engine's ``Phase`` and ``Kind``
members (tests/test_simulation.py checks each is one).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class LoopCodes:
    """A family's codes, each tuple in the loops' order (a code is the index)."""

    prefix: str
    """Of the family's names in the loops (so that two families' phases do not clash)."""
    phases: tuple[str, ...]
    actions: tuple[str, ...]
    bots: tuple[str, ...]
    ends: tuple[str, ...] = ()
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The loops' row tables by name: their columns."""
    limits: dict[str, int] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    """The options the loop reads (the rules' fields it needs, then its bots' own), each a C
    declaration ("int cap", "int points[13]", "double p_drop"): the loop's struct of them and the
    function that fills it from a dict are generated from these (``pxi``), and the Python side
    builds that dict with exactly these names (``options_dict``)."""
    options_struct: str = ""
    """The name of the loop's struct of options."""


STALLED = 2
"""A deal (a round) is stalled once its stock has been rebuilt from the discard pile this many
times: a bot that drew from the stock then throws a random natural card half the time, so that
no deal goes on for ever (``rummylab.bots.stalled_throw``)."""
NO_LIMIT = 99
"""An Indian option with no limit (the longest set, the jokers a group may hold), as the loop takes it."""

CHANCE = ("deal", "restock", "dropped", "toss", "dealer", "roles")
"""The chance outcomes a trace records (``play.Chance`` kinds), in the loops' order: a shuffle's
cards are a row each, in order, and a drawn number one row (its value in the card column)."""
CHANCE_PLAYER = -1
"""The player of a trace's chance row."""
TABLE_PLAYER = -2
"""The player of a trace's row of an action the table takes between deals (the next deal, the
end); a re-join's row names the player who re-joins."""

GIN = LoopCodes(
    prefix="",
    phases=("FIRST_UPCARD", "DRAW", "DISCARD", "HAND_OVER", "GAME_OVER"),
    actions=("TAKE_UPCARD", "PASS", "DRAW_STOCK", "DRAW_DISCARD", "DISCARD", "KNOCK", "BIG_GIN"),
    bots=("random", "greedy", "strong", "expert", "rollout"),
    ends=("knock", "undercut", "gin", "big_gin", "dead", "tie"),
    columns={
        "hand": ("game", "hand", "winner", "kind", "points", "knocker", "turns", "deadwood_0", "deadwood_1", "dealer"),
        "box": ("game", "hand", "box", "captain", "sitting_out", "kind", "winning_seat", "points", "turns"),
        "turn": ("game", "hand", "turn", "player", "action", "card", "deadwood_before", "deadwood_after",
                 "stock_left"),
        "state": ("hand_0", "hand_1", "picked_0", "picked_1", "thrown_0", "thrown_1", "declined_0", "declined_1",
                  "taken", "phase", "dealer", "to_play", "passes", "turns", "deal_no", "score_0", "score_1",
                  "knocked_0", "knocked_1", "passed_up_0", "passed_up_1", "n_stock", "n_pile",
                  *(f"stock_{i}" for i in range(52)), *(f"pile_{i}" for i in range(52))),
    },
    limits={"MAX_ACTIONS": 100_000},
    options=("int gin_bonus", "int undercut_bonus", "int big_gin_bonus", "int undercut_on_tie", "int knock_limit",
             "int target", "int dead_hand_stock"),
    options_struct="GinRules",
)
"""Gin rummy, two-handed and in the box (big_gin_bonus -1: big gin is not played). A hand that
reaches MAX_ACTIONS actions is a bug (the bots never cycle). A "state" row is one hand in play,
as a rollout starts from it: card masks, the phase and counters (``knocked``/``passed_up``: what
the game's hands so far showed of each player, ``expert.plays_for_gin``), then the stock's and the pile's
cards by bit position, bottom first (-1 past their ends)."""

THIRTEEN = LoopCodes(
    prefix="T_",
    phases=("DRAW", "DISCARD", "ROUND_OVER", "GAME_OVER"),
    actions=("DRAW_STOCK", "DRAW_DISCARD", "DISCARD", "GO_OUT"),
    bots=("greedy", "planner"),
    ends=(),
    columns={
        "round": ("game", "round", "player", "penalty", "went_out"),
        "turn": ("game", "round", "turn", "player", "action", "card", "penalty_before", "penalty_after", "stock_left"),
        "state": ("round_no", "dealer", "to_play", "phase", "taken", "went_out", "final_turns", "reshuffles",
                  "n_stock", "n_pile", *(f"{mask}_{p}" for mask in ("once", "twice", "thrice") for p in range(8)),
                  *(f"stock_{i}" for i in range(156)), *(f"pile_{i}" for i in range(156))),
    },
    limits={"MAX_PLAYERS": 8, "MAX_CARDS": 156, "MAX_ACTIONS": 200_000},
    options=("int decks", "int points[13]"),
    options_struct="ThirteenRules",
)
"""Three Thirteen: up to 8 players on up to three decks; a round that reaches MAX_ACTIONS is a bug.
A "state" row is one round in play, as a rollout starts from it: the counters (``taken`` and a
card a bit position, -1: none), each hand's card masks (a card held once, twice, three times),
then the stock's and the pile's cards by bit position, bottom first (-1 past their ends)."""

INDIAN_MAX_PLAYERS = 6
INDIAN = LoopCodes(
    prefix="I_",
    phases=("DRAW", "DISCARD", "DEAL_OVER", "GAME_OVER"),
    actions=("DRAW_STOCK", "DRAW_DISCARD", "DISCARD", "DECLARE", "DROP", "MISS_TURN", "LEAVE", "RECONNECT",
                "NEXT_DEAL", "REJOIN", "FINISH"),
    bots=("greedy", "random"),
    ends=("valid show", "wrong show", "drop", "left"),
    columns={
        "game": ("game", "deals", "winner", *(f"score_{p}" for p in range(INDIAN_MAX_PLAYERS)),
                 *(f"chips_{p}" for p in range(INDIAN_MAX_PLAYERS))),
        "deal": ("game", "deal", "winner", "ending", *(f"points_{p}" for p in range(INDIAN_MAX_PLAYERS))),
        "turn": ("game", "deal", "turn", "player", "action", "card", "points_before", "points_after", "stock_left"),
        "state": ("deal_no", "dealer", "to_play", "phase", "wild", "reshuffles", "taken", "n_stock", "n_pile",
                  *(f"{field}_{p}" for field in ("seat", "in_deal", "drawn", "missed", "left", "deal_points", "score",
                                                 "eliminated", "rejoins", "chips", "n_hand")
                    for p in range(INDIAN_MAX_PLAYERS)),
                  *(f"hand_{p}_{i}" for p in range(INDIAN_MAX_PLAYERS) for i in range(14)),
                  *(f"stock_{i}" for i in range(108)), *(f"pile_{i}" for i in range(108))),
    },
    limits={"MAX_PLAYERS": INDIAN_MAX_PLAYERS, "PACK": 108, "MAX_ACTIONS": 20_000},
    options=(
        "int players", "int pool", "int deals", "int start_chips", "int joker_from_discard", "int dropped_to_stock",
        "int autoplay", "int autoplay_turns", "int missed_turns_drop", "int exceed", "int max_rejoins",
        "int rejoin_max", "int rejoin_min_remaining", "int printed_jokers", "int toss_jokers", "int suit_place[4]",
        "int wrong_show", "int first_drop", "int middle_drop", "int cap", "int valid_show", "int exclude_pure",
        "int ace_high", "int wild_natural_pure", "int duplicate_suits", "int set_max", "int max_jokers",
        "int jokers_only", "int min_life", "int run_max", "int points[13]",
        "double p_drop", "double p_wrong", "double p_leave", "double p_miss", "double p_reconnect",
        "int greedy_drops"),
    options_struct="IOptions",
)
"""Indian rummy: a pack of two decks and up to four printed jokers; a game that reaches
MAX_ACTIONS is a bug. A "state" row is one deal in play, as a rollout starts from it: the
counters, each seat's (by player), each hand's cards (card codes, -1 past its end), then the
stock's (the cut card first) and the pile's cards, bottom first."""

FAMILIES = {"gin": GIN, "thirteen": THIRTEEN, "indian": INDIAN}


def _name(text: str) -> str:
    return text.upper().replace(" ", "_")


def constants() -> dict[str, int]:
    """Every shared number by the name the loops give it: ``<prefix>PHASE`` for a phase,
    ``<prefix>A_ACTION`` for an action, ``<prefix>BOT_NAME``, ``<prefix>END_NAME``,
    ``<prefix><TABLE>_<COLUMN>`` for a column and ``<prefix><TABLE>_WIDTH`` for a row's width."""
    pairs: list[tuple[str, int]] = [("STALLED", STALLED), ("NO_LIMIT", NO_LIMIT), ("CHANCE_PLAYER", CHANCE_PLAYER),
                                    ("TABLE_PLAYER", TABLE_PLAYER)]
    pairs += [(f"C_{_name(kind)}", i) for i, kind in enumerate(CHANCE)]
    for family in FAMILIES.values():
        p = family.prefix
        pairs += [(f"{p}{name}", i) for i, name in enumerate(family.phases)]
        pairs += [(f"{p}A_{name}", i) for i, name in enumerate(family.actions)]
        pairs += [(f"{p}BOT_{_name(name)}", i) for i, name in enumerate(family.bots)]
        pairs += [(f"{p}END_{_name(name)}", i) for i, name in enumerate(family.ends)]
        for table, columns in family.columns.items():
            pairs += [(f"{p}{table.upper()}_{_name(c)}", i) for i, c in enumerate(columns)]
            pairs.append((f"{p}{table.upper()}_WIDTH", len(columns)))
        pairs += [(f"{p}{name}", value) for name, value in family.limits.items()]
    out = dict(pairs)
    if len(out) != len(pairs):
        names = [n for n, _ in pairs]
        raise ValueError(f"codes that share a name: {sorted({n for n in names if names.count(n) > 1})}")
    return out


def _declared(declaration: str) -> tuple[str, str, int]:
    """(C type, name, length or 0) of an option's declaration."""
    ctype, name = declaration.split()
    if "[" in name:
        name, length = name.rstrip("]").split("[")
        return ctype, name, int(length)
    return ctype, name, 0


def option_names(family: LoopCodes) -> tuple[str, ...]:
    """The names of a family's loop options."""
    return tuple(_declared(d)[1] for d in family.options)


def options_dict(family: LoopCodes, values: dict[str, object]) -> dict[str, object]:
    """``values`` as a loop takes its options: exactly the declared names (ValueError naming any
    missing or unknown one: a bug of the caller)."""
    names = option_names(family)
    missing, unknown = sorted(set(names) - set(values)), sorted(set(values) - set(names))
    if missing or unknown:
        raise ValueError(f"{family.options_struct}: missing {missing}, unknown {unknown}")
    return dict(values)


def _options_pxi(family: LoopCodes) -> list[str]:
    """A family's struct of loop options and the function filling it from a dict."""
    struct = family.options_struct
    lines = ["", "", f"cdef struct {struct}:"] + [f"    {d}" for d in family.options]
    lines += ["", "", f"cdef int _read_{struct}({struct} *o, dict values) except -1:",
              '    """Fill ``o`` from ``values``: the names of rummylab.sim.codes (options_dict)."""',
              "    cdef int i",
              f"    if len(values) != {len(family.options)}:",
              f'        raise ValueError(f"{struct}: {len(family.options)} options, not {{len(values)}}")']
    for d in family.options:
        _, name, length = _declared(d)
        if length:
            lines += [f'    if len(values["{name}"]) != {length}:',
                      f'        raise ValueError("{struct}.{name}: {length} values")',
                      f"    for i in range({length}):", f'        o.{name}[i] = values["{name}"][i]']
        else:
            lines.append(f'    o.{name} = values["{name}"]')
    lines.append("    return 0")
    return lines


def pxi() -> str:
    """``ext/_codes.pxi``: the constants as Cython compile-time enums, and each family's struct of
    loop options with its reader."""
    lines = ["# Generated by setup.py from rummylab/sim/codes.py at build time: edit that file, not this one.",
             "", "cdef enum:"]
    lines += [f"    {name} = {value}" for name, value in constants().items()]
    for family in FAMILIES.values():
        if family.options:
            lines += _options_pxi(family)
    return "\n".join(lines) + "\n"
