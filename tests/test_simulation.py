"""The simulation lab: the compiled play loop plays the Python engine's games action for action,
chunks and Dask change nothing, and bad arguments get a clear ValueError."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest import mock

import numpy as np
import pytest
from conftest import soak

from rummylab import three_thirteen
from rummylab.bots import STALLED
from rummylab.gin import CLASSIC, DEFAULT, EAAI, box_simulation, three_handed
from rummylab.gin import bots as gin_bots
from rummylab.gin import simulation as gin_simulation
from rummylab.gin.rollout_bot import RolloutBot
from rummylab.indian import BRIEF as INDIAN_BRIEF
from rummylab.indian import DEFAULT as INDIAN
from rummylab.indian import Rules as IndianRules
from rummylab.indian import bots as indian_bots
from rummylab.indian import simulation as indian_simulation
from rummylab.sim import driver, play_loops, trace_outcomes
from rummylab.three_thirteen import simulation as tt_simulation

COMPILED = play_loops() is not None
needs_compiled = pytest.mark.skipif(not COMPILED, reason="needs the compiled loop (make test builds it)")
INDIAN_OLD = IndianRules(leaver="drop_after_missed", joker_from_discard=True, dropped_cards_to_stock=False,
                         max_rejoins=1, toss_jokers=False, elimination="exceed", toss_suit_order="CDHS")

PAIRINGS = [  # each bot plays 250 games or more, whole traces replayed; the other rules are played too
    (("greedy", "greedy"), DEFAULT, soak(250)),
    (("random", "strong"), DEFAULT, soak(250)),
    (("strong", "strong"), CLASSIC, soak(80)),
    (("greedy", "random"), dataclasses.replace(DEFAULT, knock_limit=0, undercut_on_tie=False, big_gin_bonus=None),
     soak(120)),
    (("strong", "greedy"), dataclasses.replace(CLASSIC, target=50, dead_hand_stock=8, undercut_on_tie=False),
     soak(120)),
    (("expert", "strong"), DEFAULT, soak(60)),  # 500 hands or more: the expert's decisions, samples included
    (("random", "expert"), dataclasses.replace(CLASSIC, big_gin_bonus=None), soak(40)),
    # the rollout bot's decisions: its worlds, every option's rollouts, the screening (70 hands and more)
    (("rollout", "strong"), EAAI, soak(6)),
    (("random", "rollout"), DEFAULT, soak(3)),
]


def loop_and_engine(module: Any, n: int, bots: tuple, rules: object, seed: int, **options: Any) -> tuple:
    """(table, the compiled loop's rows, the engine's rows) of the same n games of a family: the
    engine replays the loop's traced games, making again the chance outcomes the trace records
    (its own bots choose every action, each checked legal), so equal rows are the same actions,
    the same records and the same outcomes."""
    table, loop = driver.play_rows(module.FAMILY, n, bots, rules, seed, trace=True, options=options)
    return table, loop, module.play_engine(table, 0, n, trace_outcomes(loop[-1]))


def same_rows(loop: tuple, engine: tuple) -> None:
    """Every kind of row, the turns (the full history) first, equal."""
    for a, b in zip(loop[::-1], engine[::-1], strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.once  # the pure-Python run has no compiled loop to compare
@needs_compiled
@pytest.mark.parametrize(("pair", "rules", "n"), PAIRINGS, ids=lambda p: "-".join(p) if isinstance(p, tuple) else "")
def test_compiled_gin_loop_plays_the_engines_games(pair: tuple[str, str], rules: gin_bots.Rules, n: int) -> None:
    """Every action of every turn (the full history) and every hand's record are the engine's
    (the engine's rollout bot valuing its options by ``evaluate``, not the loop's decision)."""
    with mock.patch.object(RolloutBot, "use_loop", False):
        table, loop, engine = loop_and_engine(gin_simulation, n, pair, rules, 11)
    assert len(loop[0]) > n and len(loop[1]) > 10 * len(loop[0])
    same_rows(loop, engine)
    hands = gin_bots.FAMILY.frame(loop, table)
    if not rules.undercut_on_tie and rules.knock_limit:  # ties are no hand won, in the loop as on the engine
        ties = hands.filter(hands["kind"] == "tie")
        assert ties.height and ties["winner"].is_null().all() and (ties["points"] == 0).all()


BOX_TRIOS = [(("greedy", "greedy", "greedy"), three_handed.THREE_HANDED, soak(350)),
             (("strong", "random", "greedy"), three_handed.THREE_HANDED, soak(350)),
             (("random", "strong", "strong"), dataclasses.replace(three_handed.THREE_HANDED, big_gin_bonus=31,
                                                                  target=60, undercut_on_tie=False), soak(350)),
             (("expert", "greedy", "expert"), three_handed.THREE_HANDED, soak(40)),
             # the rollout bot in the box and as captain, each hand valued by its points (30 hands and more)
             (("rollout", "expert", "greedy"), three_handed.THREE_HANDED, soak(3))]


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("trio", "rules", "n"), BOX_TRIOS, ids=lambda p: "-".join(p) if isinstance(p, tuple) else "")
def test_compiled_three_handed_loop_plays_the_engines_games(trio: tuple[str, str, str], rules: gin_bots.Rules,
                                                             n: int) -> None:
    """Every action and every hand's record are the engine's (its rollout bot valuing by
    ``evaluate``, not the loop's decision)."""
    with mock.patch.object(RolloutBot, "use_loop", False):
        table, loop, engine = loop_and_engine(three_handed, n, trio, rules, 5)
    assert len(loop[0]) > n
    same_rows(loop, engine)
    hands = three_handed.FAMILY.frame(loop, table)
    if not rules.undercut_on_tie:  # a tie is a drawn hand: no scorer, the roles stay
        ties = hands.filter(hands["kind"] == "tie")
        assert ties.height and (ties["result"] == "draw").all() and ties["scorer"].is_null().all()


THIRTEEN_TABLES = [  # greedy and the planner each play 250 games or more
    (("greedy", "greedy"), three_thirteen.DEFAULT, soak(150)),
    (("planner", "greedy"), three_thirteen.DEFAULT, soak(100)),
    (("greedy", "planner"), three_thirteen.DEFAULT, soak(100)),
    (("planner", "greedy", "planner"), three_thirteen.DEFAULT, soak(30)),
    (("greedy", "planner"), three_thirteen.ACE_HIGH, soak(20)),
    (("greedy",) * 8, dataclasses.replace(three_thirteen.DEFAULT, min_non_wild=1, max_wilds_per_meld=2), soak(20)),
]


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("names", "rules", "n"), THIRTEEN_TABLES,
                         ids=lambda p: "-".join(p) if isinstance(p, tuple) else "")
def test_compiled_thirteen_loop_plays_the_engines_games(names: tuple[str, ...], rules: three_thirteen.Rules,
                                                        n: int) -> None:
    """Every action of every turn (the full history) and every round's penalties are the engine's."""
    _, loop, engine = loop_and_engine(tt_simulation, n, names, rules, 8)
    assert len(loop[0]) == n * 11 * len(names) and len(loop[1]) > len(loop[0])
    same_rows(loop, engine)


def test_thirteen_tables_give_each_bot_hundreds_of_games() -> None:
    for bot in ("greedy", "planner"):
        assert sum(n for names, _, n in THIRTEEN_TABLES if bot in names) >= 250


@pytest.mark.once
@needs_compiled
def test_the_loops_draw_as_numpy_draws() -> None:
    """The loops shuffle a chance event's cards as ``chance.shuffle`` (numpy's Generator.shuffle)
    does, and draw a random bot's numbers as Generator.integers and Generator.shuffle do."""
    from rummylab import chance
    from rummylab.sim import _play  # type: ignore[attr-defined]

    for family, seed, kind, n, deal, number in [("gin", 0, "deal", 52, 0, 0), ("313", 2**64 - 1, "restock", 97, 11, 3),
                                                ("indian", 7, "toss", 108, 0, 0), ("indian", 7, "dropped", 1, 2, 5)]:
        assert _play.shuffled(family, seed, kind, range(n), deal, number) == chance.shuffle(
            list(range(n)), family, seed, kind, deal, number)
    for n in (1, 2, 3, 11, 22, 1000, 2**31 - 1, 2**40):
        a, b = np.random.default_rng(n), np.random.default_rng(n)
        assert _play.generator_below(a, n, 300) == [int(b.integers(n)) for _ in range(300)]
        assert a.integers(10**9) == b.integers(10**9)  # the generator's state moved alike
    for n in (0, 1, 2, 13, 14, 300):
        a, b = np.random.default_rng(n), np.random.default_rng(n)
        items = list(range(n))
        b.shuffle(items)
        assert _play.generator_shuffled(a, range(n)) == items
        assert a.integers(10**9) == b.integers(10**9)


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("module", "bots", "rules", "n", "options"), [
    (gin_simulation, ("random", "strong"), DEFAULT, 15, {}),
    (box_simulation, ("random", "strong", "greedy"), three_handed.THREE_HANDED, 10, {}),
    (tt_simulation, ("greedy", "planner", "greedy"), three_thirteen.DEFAULT, 2, {}),
    (indian_simulation, ("random", "greedy", "random"), INDIAN, 4, {"pool": 101}),
], ids=["gin", "three_handed", "three_thirteen", "indian"])
def test_the_engine_draws_the_loops_chance_outcomes(module: Any, bots: tuple, rules: object, n: int,
                                                     options: dict) -> None:
    """Left to draw its own outcomes from the same seeds, the engine deals and shuffles what the
    loop did (each event's stream is defined once: rummylab.chance)."""
    def rows() -> tuple:
        return driver.play_rows(module.FAMILY, n, bots, rules, 6, trace=True, options=options)[1]

    loop = rows()
    with mock.patch.object(module, "play_loops", lambda: None):
        same_rows(loop, rows())


@pytest.mark.once
@needs_compiled
def test_the_engine_follows_the_trace_not_the_seed() -> None:
    """The engine makes the trace's outcomes, not its own: another game's deals make other games,
    and a trace that records a deal the game does not make is refused by name."""
    from rummylab.play import Chance, IllegalAction, Outcomes

    table, loop = driver.play_rows(gin_bots.FAMILY, 2, ("greedy", "greedy"), DEFAULT, 9, trace=True)
    outcomes = trace_outcomes(loop[-1])
    swapped = gin_simulation.play_engine(table, 0, 1, {0: outcomes[1]})
    assert not np.array_equal(swapped[1], loop[1][loop[1][:, 0] == 0])
    with pytest.raises(IllegalAction, match="records a restock where the game makes a dealer"):
        gin_simulation.play_engine(table, 0, 1, {0: Outcomes([Chance("restock", ())])})
    with pytest.raises(IllegalAction, match="records no dealer"):
        gin_simulation.play_engine(table, 0, 1, {0: Outcomes([])})


@pytest.mark.parametrize(("module", "bots", "rules", "options"), [
    (gin_simulation, ("random", gin_bots.GreedyBot(knock_at=4, first_upcard="pass")), DEFAULT, {}),
    (three_handed, ("random", "strong", "greedy"), three_handed.THREE_HANDED, {}),
    # the twin plays a Three Thirteen or greedy Indian game in seconds: the compiled run has these
    pytest.param(tt_simulation, ("greedy", "greedy", "greedy"), three_thirteen.DEFAULT, {}, marks=pytest.mark.once),
    pytest.param(indian_simulation, ("random", "greedy", "random"), INDIAN, {"pool": 201}, marks=pytest.mark.once),
], ids=["gin", "three_handed", "three_thirteen", "indian"])
def test_chunks_change_nothing(module: Any, bots: tuple, rules: object, options: dict) -> None:
    """A chunk is a function of its table and game numbers: any split plays the same games."""
    n = 12 if COMPILED else 4
    table = driver.make_table(module.FAMILY, n, bots, rules, 3, trace=True, options=options)
    whole = module.FAMILY.play(table, 0, n)
    parts = [module.FAMILY.play(table, a, b) for a, b in ((0, 1), (1, 2), (2, n)) if a < n]
    for i, rows in enumerate(whole):
        np.testing.assert_array_equal(rows, np.concatenate([p[i] for p in parts]))


@pytest.mark.once
def test_dask_plays_the_same_games() -> None:
    """A real LocalCluster on 127.0.0.1 with two worker processes, started and stopped here."""
    with mock.patch("rummylab.sim.CHUNK_GAMES", 50):
        local = gin_bots.simulate(300, ("strong", "random"), seed=4)
        on_dask = gin_bots.simulate(300, ("strong", "random"), seed=4, scheduler="dask", workers=2)
    assert on_dask.equals(local)


@pytest.mark.once
@needs_compiled
def test_bot_options_play_in_the_loop_and_other_objects_on_the_engine() -> None:
    """Greedy and strong bots with options (a knocking threshold, a first-upcard policy, taking
    only into melds) play in the compiled loop, the same games as on the engine, two-handed and
    three-handed; a random bot object plays on the engine."""
    players = [gin_bots.GreedyBot(knock_at=3, first_upcard="take"), gin_bots.StrongBot(first_upcard="pass")]
    table, loop, engine = loop_and_engine(gin_simulation, 300, tuple(players), DEFAULT, 3)
    same_rows(loop, engine)
    melders = (gin_bots.GreedyBot(takes="melds"), gin_bots.StrongBot(takes="melds", knock_at=0))
    _, loop_m, engine_m = loop_and_engine(gin_simulation, 150, melders, DEFAULT, 4)
    same_rows(loop_m, engine_m)
    trio = ("greedy", melders[0], "strong")
    _, loop_b, engine_b = loop_and_engine(three_handed, 60, trio, three_handed.THREE_HANDED, 5)
    same_rows(loop_b, engine_b)
    hands, turns = gin_bots.FAMILY.frame(loop, table), gin_bots.FAMILY.turns(loop[1], table)
    first = turns.filter((turns["hand"] == 0) & (turns["turn"] == 0))
    assert set(first.filter(first["player"] == 0)["action"]) <= {"take_upcard", "discard", "knock"}
    assert "take_upcard" not in set(first.filter(first["player"] == 1)["action"])
    knocks = hands.filter((hands["kind"] == "knock") & (hands["knocker"] == 0))
    assert knocks.height and (knocks["deadwood_0"] <= 3).all()
    objects = [gin_bots.RandomBot(1), gin_bots.GreedyBot()]
    df = gin_bots.simulate(5, objects, seed=3)
    assert df.height >= 5 and df["bot_0"].unique().to_list() == ["random"]
    with pytest.raises(ValueError, match="bot names"):
        gin_bots.simulate(5, objects, scheduler="dask")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n_games": -1}, "n_games=-1"),
    ({"n_games": 2.5}, "n_games=2.5"),
    ({"bots": ("greedy", "genius")}, "unknown bot 'genius'"),
    ({"bots": ("greedy",)}, "played here by 2 players"),
    ({"rules": three_thirteen.DEFAULT}, "gin needs rummylab.gin.Rules"),
    ({"scheduler": 3}, "scheduler=3"),
    ({"workers": 0, "scheduler": "dask"}, "workers=0"),
])
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    args = {"n_games": 2, **kwargs}
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        gin_bots.simulate(**args)


INDIAN_TABLES = [  # (bots, pool, deals, rules, seed, games): greedy and random each play >= 400
    (("greedy", "greedy"), None, None, INDIAN, 11, soak(250)),
    (("greedy", "greedy"), None, None, INDIAN_BRIEF, 12, soak(60)),
    (("random", "random"), None, None, INDIAN, 13, soak(200)),
    (("greedy", "random"), 101, None, INDIAN, 14, soak(40)),
    (("random", "greedy", "random"), 201, None, INDIAN_OLD, 15, soak(25)),
    (("random", "random", "random"), None, 2, INDIAN, 16, soak(80)),
    (("random",) * 6, 101, None, dataclasses.replace(INDIAN, max_rejoins=2, cap=60), 17, soak(40)),
    (("greedy", "random", "random"), 101, None, INDIAN_BRIEF, 18, 8),  # the greedy table re-joins when it may
]


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("bots", "pool", "deals", "rules", "seed", "n"), INDIAN_TABLES,
                         ids=lambda p: "-".join(p) if isinstance(p, tuple) else None)
def test_compiled_indian_loop_plays_the_engines_games(bots: tuple[str, ...], pool: int | None, deals: int | None,
                                                      rules: object, seed: int, n: int) -> None:
    """Every action of every player (the full history, with the loser points before and after),
    every deal's ending and points, and every game's result are the engine's."""
    _, loop, engine = loop_and_engine(indian_simulation, n, bots, rules, seed, pool=pool, deals=deals)
    games, deal_rows, turns = loop
    assert len(games) == n and len(deal_rows) >= n and len(turns) > 10 * len(deal_rows)
    same_rows(loop, engine)


def test_indian_tables_give_each_bot_hundreds_of_games() -> None:
    assert sum(n * bots.count("greedy") for bots, *_, n in INDIAN_TABLES) >= 400
    assert sum(n * bots.count("random") for bots, *_, n in INDIAN_TABLES) >= 400


STALLED_TABLE = (("greedy",) * 6, 201, 7, 0)
"""Six greedy players in a 201 pool (seed, game): deals whose hands each need the cards the others keep."""


@pytest.mark.once
@needs_compiled
def test_indian_stalled_deal_ends_with_random_natural_throws() -> None:
    """Before the stalled-deal rule this game never ended; now it does, in the loop as on the engine."""
    bots, pool, seed, game = STALLED_TABLE
    table = driver.make_table(indian_bots.FAMILY, game + 1, bots, INDIAN, seed, trace=True, options={"pool": pool})
    loop = indian_bots.FAMILY.play(table, game, game + 1)
    with mock.patch.object(indian_simulation, "play_loops", lambda: None):
        engine = indian_bots.FAMILY.play(table, game, game + 1)
    same_rows(loop, engine)
    games, _, turns = loop
    assert games[0, 2] >= 0 and len(turns) < 20_000
    turns = turns[turns[:, 3] >= 0]  # the players' actions
    rebuilt = [int((np.diff(turns[turns[:, 1] == d][:, 8]) > 0).sum()) for d in np.unique(turns[:, 1])]
    assert max(rebuilt) >= STALLED  # a deal whose stock was rebuilt from the pile STALLED times: stalled


def test_indian_trace_names_every_action_and_chance_outcome() -> None:
    from rummylab.sim import codes

    df = indian_bots.trace(6 if COMPILED else 2, ("greedy", "random", "greedy"), seed=2, pool=101)
    assert df.columns == [*indian_simulation.TURN_COLUMNS, "outcome"]
    acted, chance = df.filter(df["player"] != codes.CHANCE_PLAYER), df.filter(df["player"] == codes.CHANCE_PLAYER)
    assert acted["action"].is_in([str(a) for a in indian_simulation.ACTIONS]).all() and acted["outcome"].is_null().all()
    assert (acted.filter(acted["action"] == "draw_stock")["card"].is_null()).all()
    assert acted.filter(acted["action"] == "discard")["card"].null_count() == 0
    assert set(acted.filter(acted["player"] == codes.TABLE_PLAYER)["action"]) <= {"next_deal", "finish"}
    assert {"toss", "deal"} <= set(chance["action"]) <= set(codes.CHANCE)
    assert chance["card"].is_null().all() and chance["points_before"].is_null().all()
    deals = chance.filter(chance["action"] == "deal")["outcome"].str.split(" ")
    assert (deals.list.len() == 104 + INDIAN.printed_jokers).all()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"n_games": -1}, "n_games=-1"),
    ({"bots": ["greedy", "genius"]}, "unknown bot 'genius'"),
    ({"bots": ["greedy"]}, "1 bots: Indian rummy is played here by 2 to 6"),
    ({"rules": DEFAULT}, "Indian rummy needs rummylab.indian.Rules"),
    ({"bots": ["greedy"] * 7}, "played here by 2 to 6"),
    ({"pool": 150}, "pool=150"),
    ({"deals": 4}, "deals=4"),
    ({"pool": 201, "deals": 2}, "pool=201 with deals=2"),
    ({"seed": -2}, "seed=-2"),
    ({"scheduler": 3}, "scheduler=3"),
    ({"workers": 2}, "workers=2"),
])
def test_indian_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        indian_bots.simulate(**{"n_games": 2, **kwargs})
    with pytest.raises(ValueError, match=message):
        indian_bots.trace(**{"n_games": 2, **kwargs})


def test_the_loops_codes_name_the_engines_phases_and_actions() -> None:
    """rummylab/sim/codes.py names each family's phases and actions by the engine's own members, and
    the build wrote them for the loops as they are now (ext/_codes.pxi, in a source checkout)."""
    from pathlib import Path

    from rummylab.gin import game as gin_game
    from rummylab.indian import game as indian_game
    from rummylab.sim import codes
    from rummylab.three_thirteen import game as tt_game

    for family, module in ((codes.GIN, gin_game), (codes.THIRTEEN, tt_game), (codes.INDIAN, indian_game)):
        assert all(name in module.Phase.__members__ for name in family.phases), family.phases
        assert all(name in module.Kind.__members__ for name in family.actions), family.actions
    built = Path(__file__).resolve().parent.parent / "ext" / "_codes.pxi"
    if built.exists():
        assert built.read_text() == codes.pxi(), "ext/_codes.pxi is stale: rebuild (make test, or pip install -e .)"
