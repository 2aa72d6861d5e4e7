"""One simulation protocol: every family's ``simulate`` and ``trace`` take the same arguments by the
same names, and every argument (and every flag of ``rummylab simulate``) either changes the games
or is refused with a ValueError that names it."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest

from rummylab import gin, indian, three_thirteen
from rummylab.cli import main
from rummylab.gin import bots as gin_bots
from rummylab.gin import three_handed
from rummylab.indian import bots as indian_bots
from rummylab.three_thirteen import bots as tt_bots

FAMILIES = {  # module, two tables of bots that differ, rules, rules that change the games
    "gin": (gin_bots, ("greedy", "greedy"), ("random", "strong"), gin.DEFAULT,
            dataclasses.replace(gin.DEFAULT, knock_limit=0)),
    "gin_three_handed": (three_handed, ("greedy",) * 3, ("random", "greedy", "strong"), gin.THREE_HANDED,
                         dataclasses.replace(gin.THREE_HANDED, target=40)),
    "three_thirteen": (tt_bots, ("greedy", "greedy"), ("greedy", "greedy", "greedy"), three_thirteen.DEFAULT,
                       three_thirteen.ACE_HIGH),
    "indian": (indian_bots, ("random", "random"), ("random", "random", "random"), indian.DEFAULT,
               dataclasses.replace(indian.DEFAULT, wrong_show_points=60)),
}
COMMON = ("n_games", "bots", "rules", "seed", "scheduler", "workers", "progress")
"""The arguments of every family's simulate and trace, in this order; a family's own options follow."""


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_takes_the_same_arguments(family: str) -> None:
    module = FAMILIES[family][0]
    for fn in (module.simulate, module.trace):
        names = tuple(inspect.signature(fn).parameters)
        assert names[:len(COMMON)] == COMMON, (family, fn.__name__, names)
        assert set(names[len(COMMON):]) == set(module.FAMILY.options), (family, names)


@pytest.mark.once  # the driver's arguments, the same on both backends (the twin plays Three Thirteen for minutes)
@pytest.mark.parametrize("family", FAMILIES)
def test_every_argument_changes_the_games(family: str) -> None:
    module, bots, other_bots, rules, other_rules = FAMILIES[family]
    base = module.simulate(2, bots, rules, 1)
    assert module.simulate(2, bots, rules, 1).equals(base)  # seeded: the same games again
    assert module.simulate(3, bots, rules, 1)["game"].n_unique() == 3
    assert not module.simulate(2, bots, rules, 2).equals(base)
    assert not module.simulate(2, other_bots, rules, 1).equals(base)
    assert not module.simulate(2, bots, other_rules, 1).equals(base)
    assert not module.trace(2, bots, rules, 1).equals(base)
    if family == "indian":
        assert not module.simulate(2, bots, rules, 1, pool=201).equals(base)
        assert not module.simulate(2, bots, rules, 1, pool=None).equals(base)
        assert "chips_0" in module.simulate(2, bots, rules, 1, deals=2).columns


def test_progress_shows_a_bar(capsys: pytest.CaptureFixture[str]) -> None:
    gin_bots.simulate(2, progress=True)
    assert "games" in capsys.readouterr().err
    gin_bots.simulate(2, progress=False)
    assert capsys.readouterr().err == ""


BAD = [
    ({"n_games": -1}, "n_games=-1"),
    ({"bots": "greedy"}, "bots='greedy'"),
    ({"bots": "genius"}, "unknown bot 'genius'"),  # in the last seat
    ({"seed": -2}, "seed=-2"),
    ({"seed": "x"}, "seed 'x'"),
    ({"scheduler": 3}, "scheduler=3"),
    ({"workers": 2}, "workers=2"),  # without a local cluster, workers would change nothing
    ({"scheduler": "dask", "workers": 0}, "workers=0"),
    ({"progress": "yes"}, "progress='yes'"),
]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(("change", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_arguments_are_refused_by_name(family: str, change: dict[str, Any], message: str) -> None:
    module, bots, _, rules, _ = FAMILIES[family]
    if change.get("bots") == "genius":
        change = {"bots": (*bots[:-1], "genius")}
    args: dict[str, Any] = {"n_games": 2, "bots": bots, "rules": rules, "seed": 1, **change}
    for fn in (module.simulate, module.trace):
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            fn(**args)


@pytest.mark.parametrize("family", FAMILIES)
def test_options_of_another_family_are_refused(family: str) -> None:
    """Python refuses a keyword a function does not take (TypeError, naming it); the driver, which
    takes any family's options, refuses one its family does not have."""
    from rummylab.sim import driver

    module, bots, _, rules, _ = FAMILIES[family]
    wrong = "colour" if family == "indian" else "pool"
    with pytest.raises(TypeError, match=wrong):
        module.simulate(1, bots, rules, 1, **{wrong: 101})
    with pytest.raises(ValueError, match=f"{wrong}: not an option of {module.FAMILY.name}"):
        driver.simulate(module.FAMILY, 1, bots, rules, 1, **{wrong: 101})


@pytest.mark.parametrize("family", FAMILIES)
def test_wrong_rules_and_tables_are_refused(family: str) -> None:
    module, bots, _, rules, _ = FAMILIES[family]
    foreign = three_thirteen.DEFAULT if family != "three_thirteen" else gin.DEFAULT
    with pytest.raises(ValueError, match="rules="):
        module.simulate(1, bots, foreign, 1)
    low, high = module.FAMILY.seats
    with pytest.raises(ValueError, match=f"{high + 1} bots"):
        module.simulate(1, (bots[0],) * (high + 1), rules, 1)
    kind = {"three_thirteen": tt_bots.GreedyBot, "indian": indian_bots.RandomBot}.get(family, gin_bots.RandomBot)
    objects = [kind(0) for _ in bots]  # bots the compiled loop cannot play
    with pytest.raises(ValueError, match="bot objects play in this process"):
        module.simulate(1, objects, rules, 1, scheduler="dask")


@pytest.mark.parametrize("family", FAMILIES)
def test_a_name_beside_a_bot_object_plays_on_the_engine(family: str) -> None:
    """A named bot beside an object the loop cannot play: every seat plays on the engine, the named
    one made from its name (it once reached the engine as a string)."""
    module, bots, _, rules, _ = FAMILIES[family]
    kind = {"three_thirteen": tt_bots.GreedyBot, "indian": indian_bots.RandomBot}.get(family, gin_bots.RandomBot)
    table = (*bots[:-1], kind(0))
    df = module.simulate(1, table, rules, 1)
    assert df["game"].n_unique() == 1


FLAGS = [  # every flag of `rummylab simulate`: two values that give different rows
    ("--bots", ["gin", "--bots", "greedy,greedy"], ["gin", "--bots", "random,strong"]),
    ("--games", ["gin", "--games", "2"], ["gin", "--games", "3"]),
    ("--hands", ["gin", "--hands", "5"], ["gin", "--hands", "30"]),
    ("--rules", ["gin", "--rules", "default"], ["gin", "--rules", "classic"]),
    ("--players", ["three_thirteen", "--players", "2"], ["three_thirteen", "--players", "3"]),
    ("--pool", ["indian", "--bots", "random,random", "--pool", "101"],
     ["indian", "--bots", "random,random", "--pool", "points"]),
    ("--deals", ["indian", "--bots", "random,random", "--deals", "2"],
     ["indian", "--bots", "random,random", "--deals", "3"]),
    ("--seed", ["gin", "--seed", "1"], ["gin", "--seed", "2"]),
]


@pytest.mark.once
@pytest.mark.parametrize(("flag", "one", "other"), FLAGS, ids=[f for f, _, _ in FLAGS])
def test_every_flag_changes_the_rows(flag: str, one: list[str], other: list[str], tmp_path: Path) -> None:
    import polars as pl

    frames = []
    for i, argv in enumerate((one, other)):
        out = tmp_path / f"{i}.parquet"
        extra = [] if "--games" in argv or "--hands" in argv else ["--games", "2"]
        assert main(["simulate", *argv, *extra, "--no-progress", "--out", str(out)]) == 0
        frames.append(pl.read_parquet(out))
    assert not frames[0].equals(frames[1]), flag


def test_a_scheduler_address_plays_with_its_own_workers(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``--scheduler ADDRESS`` (with the default ``--workers``) goes to that scheduler; one that does
    not answer is one clear line."""
    import rummylab.sim

    monkeypatch.setattr(rummylab.sim, "CONNECT_TIMEOUT", "1s")
    assert main(["simulate", "gin", "--games", "1", "--scheduler", "tcp://127.0.0.1:9", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "scheduler 'tcp://127.0.0.1:9': no Dask scheduler answers there" in err and "Traceback" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["gin", "--workers", "0"], "--workers 0"),
    (["gin", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers 2 with --scheduler"),
    (["indian", "--hands", "10"], "--hands: Indian rummy's rows are games"),
    (["gin", "--pool", "201"], "--pool 201: only Indian rummy has a pool"),
    (["gin", "--out", "/nonexistent-folder/x.parquet"], "cannot write /nonexistent-folder/x.parquet"),
])
def test_flags_that_would_change_nothing_are_refused(argv: list[str], message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *argv, "--games", "1", "--no-progress"] if "--hands" not in argv
                else ["simulate", *argv, "--no-progress"]) == 2
    assert message in capsys.readouterr().err


def test_each_loops_options_are_declared_once() -> None:
    """The options a loop reads are declared in sim/codes.py (its struct and reader are generated
    from them); each family's Python side gives exactly those names, and anything else is refused."""
    from rummylab import three_thirteen
    from rummylab.gin import DEFAULT as GIN_DEFAULT
    from rummylab.gin.loop import BotSpec
    from rummylab.gin.loop import loop_options as gin_options
    from rummylab.indian import DEFAULT as INDIAN_DEFAULT
    from rummylab.indian.simulation import loop_options as indian_options
    from rummylab.sim import codes

    assert set(gin_options([BotSpec("greedy")] * 2, GIN_DEFAULT)["rules"]) == set(
        codes.option_names(codes.GIN))
    assert set(indian_options(INDIAN_DEFAULT, 3, 101, None)) == set(codes.option_names(codes.INDIAN))
    assert codes.option_names(codes.THIRTEEN) == ("decks", "points") and len(three_thirteen.Rules().points) == 13
    with pytest.raises(ValueError, match=r"missing \['target'\]"):
        codes.options_dict(codes.GIN, {n: 0 for n in codes.option_names(codes.GIN) if n != "target"})
    with pytest.raises(ValueError, match=r"unknown \['tax'\]"):
        codes.options_dict(codes.THIRTEEN, {"decks": 1, "points": [1] * 13, "tax": 2})
    assert "cdef struct GinRules:" in codes.pxi() and "cdef int _read_IOptions(" in codes.pxi()
