"""The simulation lab: the compiled play loop plays the Python engine's games action for action,
chunks and Dask change nothing, and bad arguments get a clear ValueError."""

from __future__ import annotations

import dataclasses
import random
from unittest import mock

import numpy as np
import pytest
from conftest import soak

from rummylab import three_thirteen
from rummylab.gin import CLASSIC, DEFAULT, three_handed
from rummylab.gin import bots as gin_bots
from rummylab.indian import BRIEF as INDIAN_BRIEF
from rummylab.indian import DEFAULT as INDIAN
from rummylab.indian import Rules as IndianRules
from rummylab.sim import play_loops
from rummylab.three_thirteen import bots as tt_bots

COMPILED = play_loops() is not None
needs_compiled = pytest.mark.skipif(not COMPILED, reason="needs the compiled loop (make test builds it)")
INDIAN_OLD = IndianRules(leaver="drop_after_missed", joker_from_discard=True, dropped_cards_to_stock=False,
                         max_rejoins=1, toss_jokers=False, elimination="exceed", toss_suit_order="CDHS")

PAIRINGS = [  # each bot plays 400 games or more; the other rules are played too
    (("greedy", "greedy"), DEFAULT, soak(400)),
    (("random", "strong"), DEFAULT, soak(400)),
    (("strong", "strong"), CLASSIC, soak(80)),
    (("greedy", "random"), dataclasses.replace(DEFAULT, knock_limit=0, undercut_on_tie=False, big_gin_bonus=None),
     soak(120)),
    (("strong", "greedy"), dataclasses.replace(CLASSIC, target=50, dead_hand_stock=8, undercut_on_tie=False),
     soak(120)),
]


def _engine(*args: object) -> tuple:
    with mock.patch.object(gin_bots, "play_loops", lambda: None):
        return gin_bots._frames(*args, trace=True)  # type: ignore[arg-type]


@pytest.mark.once  # the pure-Python run has no compiled loop to compare
@needs_compiled
@pytest.mark.parametrize(("pair", "rules", "n"), PAIRINGS, ids=lambda p: "-".join(p) if isinstance(p, tuple) else "")
def test_compiled_gin_loop_plays_the_engines_games(pair: tuple[str, str], rules: gin_bots.Rules, n: int) -> None:
    """Every action of every turn (the full history) and every hand's record are the engine's."""
    args = (n, pair, rules, 11, None, None, False)
    hands, turns = gin_bots._frames(*args, trace=True)  # type: ignore[arg-type]
    e_hands, e_turns = _engine(*args)
    assert hands.height > n and turns.height > 10 * hands.height
    assert turns.equals(e_turns)
    assert hands.equals(e_hands)
    if not rules.undercut_on_tie and rules.knock_limit:  # ties are no hand won, in the loop as on the engine
        ties = hands.filter(hands["kind"] == "tie")
        assert ties.height and ties["winner"].is_null().all() and (ties["points"] == 0).all()


BOX_TRIOS = [(("greedy", "greedy", "greedy"), three_handed.THREE_HANDED, soak(350)),
             (("strong", "random", "greedy"), three_handed.THREE_HANDED, soak(350)),
             (("random", "strong", "strong"), dataclasses.replace(three_handed.THREE_HANDED, big_gin_bonus=31,
                                                                  target=60, undercut_on_tie=False), soak(350))]


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("trio", "rules", "n"), BOX_TRIOS, ids=lambda p: "-".join(p) if isinstance(p, tuple) else "")
def test_compiled_three_handed_loop_plays_the_engines_games(trio: tuple[str, str, str], rules: gin_bots.Rules,
                                                             n: int) -> None:
    args = (n, trio, rules, 5, None, None, False)
    hands, turns = three_handed._frames(*args, trace=True)  # type: ignore[arg-type]
    with mock.patch.object(three_handed, "play_loops", lambda: None):
        e_hands, e_turns = three_handed._frames(*args, trace=True)  # type: ignore[arg-type]
    assert hands.height > n
    assert turns.equals(e_turns)
    assert hands.equals(e_hands)
    if not rules.undercut_on_tie:  # a tie is a drawn hand: no scorer, the roles stay
        ties = hands.filter(hands["kind"] == "tie")
        assert ties.height and (ties["result"] == "draw").all() and ties["scorer"].is_null().all()


THIRTEEN_TABLES = [  # greedy and the planner each play 350 games
    (("greedy", "greedy"), three_thirteen.DEFAULT, soak(350)),
    (("planner", "greedy"), three_thirteen.DEFAULT, soak(150)),
    (("greedy", "planner"), three_thirteen.DEFAULT, soak(150)),
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
    args = (n, names, rules, 8, None, None, False)
    rounds, turns = tt_bots._frames(*args, trace=True)  # type: ignore[arg-type]
    with mock.patch.object(tt_bots, "play_loops", lambda: None):
        e_rounds, e_turns = tt_bots._frames(*args, trace=True)  # type: ignore[arg-type]
    assert rounds.height == n * 11 * len(names) and turns.height > rounds.height
    assert turns.equals(e_turns)
    assert rounds.equals(e_rounds)


def test_thirteen_tables_give_each_bot_hundreds_of_games() -> None:
    for bot in ("greedy", "planner"):
        assert sum(n for names, _, n in THIRTEEN_TABLES if bot in names) >= 350


@pytest.mark.once
@needs_compiled
def test_mersenne_twister_and_generator_draws_match_python_and_numpy() -> None:
    from rummylab.sim import _play  # type: ignore[attr-defined]

    for text in ["gin:0:0", "gin:2147483647:12", "gin:5:first-dealer", "x" * 300, ""]:
        cards = list(range(52))
        random.Random(text).shuffle(cards)
        assert _play.shuffled(text, range(52)) == cards
    for n in (1, 2, 3, 11, 22, 1000, 2**31 - 1):
        a, b = np.random.default_rng(n), np.random.default_rng(n)
        assert _play.generator_below(a, n, 300) == [int(b.integers(n)) for _ in range(300)]
        assert a.integers(10**9) == b.integers(10**9)  # the generator's state moved alike


def test_chunks_change_nothing() -> None:
    seeds = np.random.default_rng(3).integers(2**31, size=30)
    args = (("random", None, "greedy"), ("greedy", 4, "pass")), (5, 6), seeds, DEFAULT, True
    whole = gin_bots.play_chunk(*args, 0, 30)
    parts = [gin_bots.play_chunk(*args, a, b) for a, b in ((0, 7), (7, 8), (8, 30))]
    assert np.array_equal(whole[0], np.concatenate([p[0] for p in parts]))
    assert np.array_equal(whole[1], np.concatenate([p[1] for p in parts]))


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
    """Greedy and strong bots with options (a knocking threshold, a first-upcard policy) play in
    the compiled loop, the same games as on the engine; a random bot object plays on the engine."""
    players = [gin_bots.GreedyBot(knock_at=3, first_upcard="take"), gin_bots.StrongBot(first_upcard="pass")]
    hands, turns = gin_bots._frames(300, players, DEFAULT, 3, None, None, False, trace=True)
    e_hands, e_turns = _engine(300, players, DEFAULT, 3, None, None, False)
    assert hands.equals(e_hands) and turns.equals(e_turns)
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
    ({"bots": ("greedy",)}, "two players"),
    ({"rules": three_thirteen.DEFAULT}, "gin needs rummylab.gin.Rules"),
    ({"scheduler": 3}, "scheduler=3"),
    ({"workers": 0, "scheduler": "dask"}, "workers=0"),
])
def test_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    args = {"n_games": 2, **kwargs}
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        gin_bots.simulate(**args)


INDIAN_TABLES = [  # (bots, players, pool, deals, rules, seed, games): greedy and random each play >= 400
    (("greedy", "greedy"), 2, None, None, INDIAN, 11, soak(250)),
    (("greedy", "greedy"), 2, None, None, INDIAN_BRIEF, 12, soak(60)),
    (("random", "random"), 2, None, None, INDIAN, 13, soak(200)),
    (("greedy", "random"), 2, 101, None, INDIAN, 14, soak(40)),
    (("random", "greedy", "random"), 3, 201, None, INDIAN_OLD, 15, soak(25)),
    (("random", "random", "random"), 3, None, 2, INDIAN, 16, soak(80)),
    (("random",) * 6, 6, 101, None, dataclasses.replace(INDIAN, max_rejoins=2, cap=60), 17, soak(40)),
    (("greedy",) * 6, 6, 201, None, INDIAN, 7, 1),  # game 293: a deal that stalls
    (("greedy", "random", "random"), 3, 101, None, INDIAN_BRIEF, 18, 8),  # the greedy table re-joins when it may
]


def _indian_rows(bots: tuple[str, ...], players: int, pool: int | None, deals: int | None, rules: object,
                 seed: int, n: int, engine: bool) -> tuple:
    """(games, deals, turns) rows of n games, by the compiled loop or the engine (one table plays
    only its game 293)."""
    from rummylab.indian import bots as indian_bots

    first = 293 if n == 1 else 0
    if engine:
        return indian_bots.play_engine(bots, players, pool, seed, rules, deals, first, first + n, True)
    return indian_bots.play_chunk(bots, players, pool, seed, rules, deals, True, first, first + n)


@pytest.mark.once
@needs_compiled
@pytest.mark.parametrize(("bots", "players", "pool", "deals", "rules", "seed", "n"), INDIAN_TABLES,
                         ids=lambda p: "-".join(p) if isinstance(p, tuple) else None)
def test_compiled_indian_loop_plays_the_engines_games(bots: tuple[str, ...], players: int, pool: int | None,
                                                      deals: int | None, rules: object, seed: int, n: int) -> None:
    """Every action of every player (the full history, with the loser points before and after),
    every deal's ending and points, and every game's result are the engine's."""
    games, deal_rows, turns = _indian_rows(bots, players, pool, deals, rules, seed, n, engine=False)
    e_games, e_deals, e_turns = _indian_rows(bots, players, pool, deals, rules, seed, n, engine=True)
    assert len(games) == n and len(deal_rows) >= n and len(turns) > 10 * len(deal_rows)
    np.testing.assert_array_equal(turns, e_turns)
    np.testing.assert_array_equal(deal_rows, e_deals)
    np.testing.assert_array_equal(games, e_games)


def test_indian_tables_give_each_bot_hundreds_of_games() -> None:
    assert sum(n * bots.count("greedy") for bots, *_, n in INDIAN_TABLES) >= 400
    assert sum(n * bots.count("random") for bots, *_, n in INDIAN_TABLES) >= 400


@pytest.mark.once
@needs_compiled
def test_indian_stalled_deal_ends_with_random_natural_throws() -> None:
    """Six greedy players whose hands each need the cards the others keep: before the stalled-deal
    rule this game never ended; now it does, in the loop as on the engine."""

    games, deal_rows, turns = _indian_rows(("greedy",) * 6, 6, 201, None, INDIAN, 7, 1, engine=False)
    assert games[0, 2] >= 0 and len(turns) < 20_000


@pytest.mark.once
@needs_compiled
def test_indian_trace_and_shuffles_match_numpy() -> None:
    from rummylab.indian import bots as indian_bots
    from rummylab.sim import _play  # type: ignore[attr-defined]

    for n in (0, 1, 2, 13, 14, 300):
        a, b = np.random.default_rng(n), np.random.default_rng(n)
        items = list(range(n))
        b.shuffle(items)
        assert _play.generator_shuffled(a, range(n)) == items
        assert a.integers(10**9) == b.integers(10**9)
    df = indian_bots.trace(20, 3, 101, ("greedy", "random", "greedy"), seed=2)
    assert set(df.columns) == set(indian_bots.TURN_COLUMNS)
    assert df["action"].is_in([str(a) for a in indian_bots.ACTIONS]).all()
    assert (df.filter(df["action"] == "draw_stock")["card"].is_null()).all()
    assert df.filter(df["action"] == "discard")["card"].null_count() == 0


def test_indian_games_play_the_same_in_any_chunk() -> None:
    """Each game is seeded by its number, so chunks (and Dask, which runs them through the same
    driver as gin) change nothing."""
    from rummylab.indian import bots as indian_bots

    args = (("greedy", "random"), 2, 101, 5, INDIAN, None)
    whole = indian_bots.play_games(*args, 0, 4)
    assert whole == indian_bots.play_games(*args, 0, 1) + indian_bots.play_games(*args, 1, 4)
    with pytest.raises(ValueError, match="scheduler=3"):
        indian_bots.simulate(2, scheduler=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"games": -1}, "games=-1"),
    ({"bots": ["greedy", "genius"]}, "unknown bot 'genius'"),
    ({"bots": ["greedy"]}, "1 bots for 2 players"),
    ({"rules": DEFAULT}, "Indian rummy needs rummylab.indian.Rules"),
    ({"players": 7, "bots": ["greedy"] * 7}, "players=7"),
    ({"pool": 150}, "pool=150"),
    ({"deals": 4}, "deals=4"),
    ({"seed": -2}, "seed=-2"),
])
def test_indian_bad_arguments_are_named(kwargs: dict, message: str) -> None:
    from rummylab.indian import bots as indian_bots

    with pytest.raises(ValueError, match=message):
        indian_bots.simulate(**{"games": 2, **kwargs})
    with pytest.raises(ValueError, match=message):
        indian_bots.trace(**{"games": 2, **kwargs})


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
