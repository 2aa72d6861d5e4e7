"""Command line: ``rummylab analyze "AS 2S 3S 7H 7D 7C 9C TC JC KD"``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import BACKEND, __version__, gin
from .cards import cards_str, parse_cards
from .i18n import _, ngettext


def _analyze(args: argparse.Namespace) -> str:
    hand = parse_cards(" ".join(args.cards), size=(10, 11), jokers=0)
    a = gin.analyze(hand)
    melds = " | ".join(str(m) for m in a.melds) or "none"
    loose = cards_str(a.deadwood_cards) or "none"
    report: dict[str, object] = {
        "hand": cards_str(hand),
        "melds": [str(m) for m in a.melds],
        "deadwood_cards": [str(c) for c in a.deadwood_cards],
        "deadwood": a.deadwood,
    }
    lines = [f"hand:           {cards_str(hand)}",
             f"melds:          {melds}",
             f"deadwood cards: {loose}",
             f"deadwood:       {a.deadwood}" + (" (all 11 cards, no discard)" if len(hand) == 11 else "")]
    limit = args.knock_limit
    if len(hand) == 10:
        can_knock, is_gin = a.deadwood <= limit, a.deadwood == 0
        report |= {"can_knock": can_knock, "gin": is_gin}
        lines.append(f"can knock:      {'yes' if can_knock else 'no'} (knock at {limit} or less)")
        lines.append(f"gin:            {'yes' if is_gin else 'no'}")
    else:
        b = gin.best_discards(hand, knock_limit=limit)
        order = {c: i for i, c in enumerate(hand)}
        best = cards_str(sorted(b.discards, key=order.__getitem__))
        report |= {"best_discards": best.split(), "deadwood_after_discard": b.deadwood,
                   "can_knock": b.can_knock, "gin": b.gin, "big_gin": b.big_gin}
        lines += [f"best discards:  {best} (deadwood {b.deadwood} after discarding)",
                  f"can knock:      {'yes' if b.can_knock else 'no'} (knock at {limit} or less)",
                  f"gin:            {'yes' if b.gin else 'no'}",
                  f"big gin:        {'yes' if b.big_gin else 'no'}"]
    return json.dumps(report) if args.json else "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rummylab", description="Teach and analyse rummy games.")
    p.add_argument("--version", action="version", version=f"rummylab {__version__} ({BACKEND} kernel)")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("analyze", help="melds, deadwood and best discards of a 10- or 11-card gin hand")
    a.add_argument("cards", nargs="+", help='the hand, e.g. "AS 2S 3S 7H 7D 7C 9C TC JC KD"')
    a.add_argument("--knock-limit", type=int, default=gin.KNOCK_LIMIT, help="knock at this deadwood or less")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.set_defaults(run=_analyze)
    o = sub.add_parser("odds", help="exact and Monte Carlo odds (gin; other families as they land)")
    osub = o.add_subparsers(dest="method", required=True)
    ex = osub.add_parser("exact", help="exact deadwood distribution of every dealt hand")
    ex.add_argument("family", help="gin")
    ex.add_argument("--cards", type=int, default=10, help="10, or 11 (after the best discard)")
    ex.add_argument("--out", help="write the table as Parquet (or CSV if the name ends .csv)")
    ex.add_argument("--resume", help="folder for finished chunks: a stopped run resumes from it")
    mc = osub.add_parser("mc", help="Monte Carlo estimates with standard errors")
    mc.add_argument("family", help="gin, three_thirteen or indian")
    mc.add_argument("--hands", type=int, default=1_000_000)
    mc.add_argument("--seed", type=int, default=1)
    mc.add_argument("--cards", type=int, default=10, help="gin: 10 or 11")
    mc.add_argument("--decks", type=int, default=1, help="three_thirteen: 1, 2 or 3 decks")
    mc.add_argument("--out", help="write the estimates as Parquet (or CSV)")
    for q in (ex, mc):
        q.add_argument("--workers", type=int, default=1,
                       help="workers: above 1, a Dask LocalCluster on 127.0.0.1 unless --scheduler says otherwise")
        q.add_argument("--scheduler", default=None,
                       help="'dask' (a LocalCluster of --workers), 'threads' (this process), or a Dask address")
        q.add_argument("--no-progress", action="store_true")
    o.set_defaults(run=_odds)
    le = sub.add_parser("lessons", help="the lessons for a class, and the teacher's answer key")
    lsub = le.add_subparsers(dest="lessons_command", required=True)
    k = lsub.add_parser("key", help="every exercise with its answer, why, a hint and common wrong answers")
    k.add_argument("folder", nargs="?", default=None, help="a folder of lessons, or one (default: the packaged ones)")
    k.add_argument("--lesson", default=None, help="only this lesson, e.g. 02 or 02-melds-and-deadwood")
    k.add_argument("--html", help="also write the key as a standalone HTML page")
    k.add_argument("--student", default=None, help="the variants this student is on (her name, or her login on a "
                   "hub), read from the class's checks")
    k.add_argument("--db", default=None, help="where the class's checks are (default: progress.sqlite in the folder)")
    ck = lsub.add_parser("check", help="preflight: run every lesson of a folder as the class will, and say what "
                         "would go wrong (non-zero exit when a lesson fails)")
    ck.add_argument("folder", help="a folder of lessons, or one lesson")
    ck.add_argument("--quick", action="store_true", help="one run a lesson, small (not its defaults and two seeds)")
    nw = lsub.add_parser("new", help="write a short lesson to start from (a text, a widget, an exercise)")
    nw.add_argument("path", help="the new lesson, e.g. lessons/12-my-lesson.ipynb")
    nw.add_argument("--title", default=None, help="its title (default: from the file name)")
    cp = lsub.add_parser("copy", help="copy the lessons into a folder for a class")
    cp.add_argument("folder")
    cp.add_argument("--force", action="store_true", help="overwrite lessons already in the folder")
    ct = lsub.add_parser("catalog", help="the lessons' strings into every language's catalog (docs/translating.md)")
    ct.add_argument("folder", nargs="?", default=None, help="a folder of lessons (default: the packaged ones)")
    tr = lsub.add_parser("translate", help="build a folder's lessons in another language from their catalog")
    tr.add_argument("folder", nargs="?", default=None, help="a folder of lessons (default: the packaged ones)")
    tr.add_argument("--lang", required=True, help="hi, ro, or a language with a catalog")
    tr.add_argument("--out", default=None, help="where the built lessons go (default: FOLDER/LANG)")
    for parser in (k, ck):
        parser.add_argument("--lang", default=None, help="in this language (hi, ro…): the lessons built from their "
                            "catalogs, and what is still English listed")
    le.set_defaults(run=_lessons)
    cl = sub.add_parser("class", help="the class's progress")
    csub = cl.add_subparsers(dest="class_command", required=True)
    rp = csub.add_parser("report", help="who has done which exercise (a table, --html for a page, --csv for a "
                         "gradebook to import)")
    rp.add_argument("--db", default=None, help="the progress database: a path, sqlite:///PATH or "
                    "postgresql://user:password@host:port/db (default: $RUMMYLAB_DB or ./progress.sqlite); "
                    "checks spooled on this machine are uploaded first")
    rp.add_argument("--html", help="also write the report with a chart as a standalone HTML page")
    rp.add_argument("--lesson", default=None, help="only this lesson (its name, or its number: 02)")
    rp.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                    help="write the gradebook as CSV (a row a student, a column an exercise: 1 solved, 0 tried) "
                    "for Canvas's or Moodle's gradebook import (docs/gradebook.md); - or no FILE: print it alone")
    cl.set_defaults(run=_class)
    s = sub.add_parser("serve", help="serve the lessons to a class as a click-through app (Voilà)")
    s.add_argument("path", nargs="?", default=None, help="a lesson or a folder (default: the packaged lessons)")
    s.add_argument("--port", type=int, default=None, help="default: 8866, or the hub's when JupyterHub runs "
                   "rummylab serve as a service")
    s.add_argument("--db", default=None, help="where named students' checks go: a path, sqlite:///PATH or "
                   "postgresql://user:password@host:port/db (default: progress.sqlite in the served folder; the "
                   "packaged lessons: ./progress.sqlite)")
    s.add_argument("--students", type=int, default=1,
                   help="kernels kept ready, each with its lesson already run, per lesson of the day (0: none)")
    s.add_argument("--lesson", action="append", default=None,
                   help="a lesson of the day to keep ready, e.g. 02 (repeat for more; default: the folder's first)")
    s.add_argument("--ip", default=None,
                   help="the address to listen on (default 127.0.0.1); anything else asks visitors for a class code")
    s.add_argument("--base-url", default=None, help="the path the class is served under, behind a proxy (e.g. "
                   "jupyter-server-proxy with absolute_url); default: /, or the hub service's prefix")
    s.add_argument("--code", default=None, help="the class code (default: made up when --ip is not 127.0.0.1)")
    s.add_argument("--teacher-port", type=int, default=None,
                   help="the teacher page's port (default: --port + 1, or a free port when that one is taken)")
    s.add_argument("--teacher-token", default=None, help="the teacher page's token (default: made up)")
    s.add_argument("--hub-server", action="store_true", help="a student's own server on JupyterHub (rummylab "
                   "hub --warm): where the hub says, behind its login, no teacher page (the hub service has it)")
    s.add_argument("--lang", default=None, help="the language of the lessons, the pages and the feedback: en, hi "
                   "or ro (or a language with a catalog: docs/translating.md)")
    s.set_defaults(run=_serve)
    hb = sub.add_parser("hub", help="the lessons on JupyterHub: each student a hub user, the teacher page a hub "
                        "service (pip install 'rummylab[hub]' and npm's configurable-http-proxy)")
    hb.add_argument("path", nargs="?", default=None, help="the folder of lessons (default: the packaged lessons)")
    hb.add_argument("--config-only", default=None, metavar="FILE", help="write the JupyterHub config to FILE "
                    "(mode 600: it holds the class password) and stop")
    hb.add_argument("--lesson", default=None, help="the lesson of the day, e.g. 02 (default: the folder's first)")
    hb.add_argument("--students", type=int, default=0, help="hub users student01..NN may log in (0: any name)")
    hb.add_argument("--db", default=None, help="the progress database, held by the hub service only (default: "
                    "progress.sqlite in --state-dir; postgresql://user@host/db for many machines, its password "
                    "in PGPASSWORD or ~/.pgpass, never here)")
    hb.add_argument("--teacher-group", default="teachers", help="the hub group that sees the teacher page "
                    "(the hub user 'teacher' is in it)")
    hb.add_argument("--class", dest="classes", action="append", default=[], metavar="NAME=STUDENT,...",
                    help="a class: a hub group of students the teacher page can show alone (repeat for more; "
                    "groups made on the hub's admin page count too)")
    hb.add_argument("--warm", type=int, default=0, help="1: each student's server runs the lesson of the day in "
                    "a kernel as soon as it starts, so her lesson opens at once (0: her kernel starts when she opens "
                    "it); either way she holds one kernel")
    hb.add_argument("--lab", action="store_true", help="each student gets JupyterLab (a coding class) instead of "
                    "the lessons as an app only; she still reaches no secret and no grade")
    hb.add_argument("--lang", default=None, help="the class's language: en, hi or ro (each student may choose another "
                    "on the lessons' first page; the teacher page speaks it)")
    hb.add_argument("--ip", default="127.0.0.1", help="the address the hub listens on")
    hb.add_argument("--port", type=int, default=8000)
    hb.add_argument("--state-dir", default="rummylab-hub", help="the hub's own files (its database, cookie secret)")
    hb.add_argument("--spawner", default="local", choices=["local", "simple"], help="local: students are system "
                    "accounts; simple: no accounts and no isolation (a trial only)")
    hb.set_defaults(run=_hub)
    sm = sub.add_parser("simulate", help="play many games between bots; one row per hand (Parquet or CSV)")
    sm.add_argument("family", choices=SIMULATED, help="the game")
    sm.add_argument("--bots", default=None, help="comma-separated bot names, one per seat (default: greedy each)")
    size = sm.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, default=None, help="games to play (default 100)")
    size.add_argument("--hands", type=int, default=None, help="play whole games until at least this many hands")
    sm.add_argument("--rules", default="default", help="a preset: default, classic (gin), ace_high (Three Thirteen), "
                    "brief (Indian)")
    sm.add_argument("--players", type=int, default=None, help="players at the table (Indian rummy and Three "
                    "Thirteen; default 2)")
    sm.add_argument("--pool", default=None, help="Indian rummy: 101 (default) or 201 (pool rummy), or points "
                    "(one deal)")
    sm.add_argument("--deals", type=int, default=None, help="Indian rummy: deals rummy over 2, 3 or 6 deals")
    sm.add_argument("--seed", type=int, default=0)
    sm.add_argument("--workers", type=int, default=1,
                    help="worker processes (over 1: a local Dask cluster on 127.0.0.1)")
    sm.add_argument("--scheduler", default=None, help="a Dask scheduler's address instead")
    sm.add_argument("--out", default=None, help="write the rows to this .parquet (or .csv) file")
    sm.add_argument("--no-progress", action="store_true", help="no progress bar")
    sm.set_defaults(run=_simulate)
    rv = sub.add_parser("review", help="judge every decision of one seat in a played game (a history JSON: gin, "
                        "Indian rummy or Three Thirteen)")
    rv.add_argument("game", help="the game's history, as the family's history_json writes it (a .json file)")
    rv.add_argument("--seat", type=int, default=0, help="whose decisions (default 0)")
    rv.add_argument("--seed", type=int, default=0, help="the sampled worlds' seed")
    rv.add_argument("--samples", type=int, default=None, help="worlds an option is played in (at most), a decision "
                    "(default: gin 4096, the others 256; fewer is faster and less sure)")
    rv.add_argument("--html", default=None, help="also write the review as an HTML page to this file")
    rv.set_defaults(run=_review)
    return p


REVIEWED = ("gin", "indian", "three_thirteen")
"""The games whose histories ``rummylab review`` reads (by the history's ``game``)."""


def _review_of(name: str) -> Any:
    """The ``review`` of a game's family (imported here, so that the layer check sees it)."""
    if name == "indian":
        from .indian.review import review
    elif name == "three_thirteen":
        from .three_thirteen.review import review  # type: ignore[assignment]
    else:
        from .gin.game_review import review  # type: ignore[assignment]
    return review


def _review(args: argparse.Namespace) -> str:
    path = Path(args.game)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    name = data.get("game", "gin") if isinstance(data, dict) else None
    if name not in REVIEWED:
        raise ValueError(f"{path}: not a history review reads (a game of {', '.join(REVIEWED)}; this is {name!r})")
    r = _review_of(name)(data, args.seat, seed=args.seed, **({} if args.samples is None else {"samples": args.samples}))
    if args.html:
        Path(args.html).write_text(r.page(), encoding="utf-8")
    return str(r)


SIMULATED = ("gin", "gin_three_handed", "three_thirteen", "indian")
SIMULATORS = {"gin": "rummylab.gin.simulation", "gin_three_handed": "rummylab.gin.box_simulation",
              "three_thirteen": "rummylab.three_thirteen.simulation", "indian": "rummylab.indian.simulation"}
"""Where each family's ``FAMILY`` (what the simulation driver plays) lives; its presets are its package's."""
PRESETS = {"gin": {"default": "DEFAULT", "classic": "CLASSIC"}, "gin_three_handed": {"default": "THREE_HANDED"},
           "three_thirteen": {"default": "DEFAULT", "ace_high": "ACE_HIGH"},
           "indian": {"default": "DEFAULT", "brief": "BRIEF"}}


def _simulate(args: argparse.Namespace) -> str:
    import importlib
    import math
    import time

    from .sim import driver

    family = args.family
    presets = PRESETS[family]
    if args.rules not in presets:
        raise ValueError(f"--rules {args.rules}: {family} has {', '.join(presets)}")
    package = importlib.import_module(f"rummylab.{'gin' if family.startswith('gin') else family}")
    rules = getattr(package, presets[args.rules])
    described = importlib.import_module(SIMULATORS[family]).FAMILY
    low, high = described.seats
    if args.players is not None and not low <= args.players <= high:
        raise ValueError(f"--players {args.players}: {family} is played by "
                         f"{low if low == high else f'{low} to {high}'}")
    names = args.bots.split(",") if args.bots else ["greedy"] * (args.players or low)
    if args.players is not None and len(names) != args.players:
        raise ValueError(f"--players {args.players} and {len(names)} bots: one bot per player")
    options: dict[str, Any] = {}
    for option, value, what in (("pool", args.pool, "a pool"), ("deals", args.deals, "deals rummy")):
        if value is not None and option not in described.options:
            raise ValueError(f"--{option} {value}: only Indian rummy has {what}")
    if args.pool is not None:
        if args.pool not in ("101", "201", "points"):
            raise ValueError(f"--pool {args.pool}: 101, 201 or points")
        options["pool"] = None if args.pool == "points" else int(args.pool)
    if args.deals is not None:
        options["deals"] = args.deals
    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: at least 1")
    if args.scheduler and args.workers != 1:
        raise ValueError(f"--workers {args.workers} with --scheduler: the scheduler's own workers play")
    scheduler = args.scheduler or ("dask" if args.workers > 1 else None)
    t = time.perf_counter()

    def play(n: int) -> Any:
        return driver.simulate(described, n, names, rules, args.seed, scheduler=scheduler,  # a scheduler's
                               workers=args.workers if scheduler == "dask" else None,  # address: its own workers
                               progress=not args.no_progress, **options)

    if args.hands is not None:
        if args.hands < 0:
            raise ValueError(f"--hands {args.hands}: a non-negative number")
        if family == "indian":
            raise ValueError("--hands: Indian rummy's rows are games; pass --games")
        games = max(1, math.ceil(args.hands / 8))
        df = play(games)
        while df.height < args.hands:
            games = math.ceil(games * 1.1 * args.hands / max(df.height, 1)) + 1
            df = play(games)
        per_game = df.group_by("game").len().sort("game")
        last = int(per_game["game"][int((per_game["len"].cum_sum() >= args.hands).arg_max())])
        df = df.filter(df["game"] <= last)
    else:
        df = play(100 if args.games is None else args.games)
    seconds = time.perf_counter() - t
    rows = df.height
    n_games = df["game"].n_unique()
    lines = [f"{family}, {' vs '.join(names)}, rules {args.rules}, seed {args.seed}: {n_games:,} games, "
             f"{rows:,} rows in {seconds:.1f} s"]
    if args.out:
        driver.write(df, args.out)
        lines.append(f"  written to {args.out}")
    else:
        lines.append(str(df))
    return "\n".join(lines)


FAMILIES_WITH_ODDS = ("gin", "three_thirteen", "indian")


def _odds(args: argparse.Namespace) -> str:
    from . import odds

    if args.family not in FAMILIES_WITH_ODDS:
        raise ValueError(f"odds for {args.family!r} are not available yet; available: {', '.join(FAMILIES_WITH_ODDS)}")
    scheduler = args.scheduler or ("dask" if args.workers > 1 else None)
    common = {"scheduler": None if scheduler == "threads" else scheduler, "workers": args.workers,
              "progress": not args.no_progress}
    if args.method == "exact":
        if args.family != "gin":
            raise ValueError(f"exact odds are available for gin only, not {args.family!r}")
        if args.cards not in (10, 11):
            raise ValueError(f"--cards {args.cards}: gin hands have 10 or 11 cards")
        table = odds.exact_histogram(args.cards, resume_dir=args.resume, **common)
        s = odds.summary(table)
        lines = [f"gin, {args.cards} cards" + (" (after the best discard)" if args.cards == 11 else "")
                 + f": {s['hands']:,} hands, exact",
                 f"  mean deadwood {s['mean']:.4f}, sd {s['sd']:.4f}",
                 f"  can knock: {s['p_knock']:.6%}   gin: {s['gin_hands']:,} hands ({s['p_gin']:.6%})"]
    elif args.family == "three_thirteen":
        table = odds.three_thirteen_dealt(args.hands, args.seed, decks=args.decks, **common)
        lines = [f"Three Thirteen, {args.decks} deck(s): Monte Carlo on {args.hands:,} deals per round, "
                 f"seed {args.seed}",
                 "  round cards  mean dealt penalty ± SE   P(all melded)"]
        lines += [f"  {r:>5} {c:>5}  {m:>10.3f} ± {se:<8.3f}  {p:.4%}" for r, c, m, se, p in
                  zip(table["round"], table["cards"], table["mean_penalty"], table["se"], table["p_melded"],
                      strict=True)]
    elif args.family == "indian":
        table = odds.indian_dealt(args.hands, args.seed, **common)
        lines = [f"Indian rummy, dealt 13 cards, random cut joker: Monte Carlo on {args.hands:,} hands, "
                 f"seed {args.seed}"]
        lines += [f"  {st:<18} {est:.6g} ± {se:.2g} (1 SE)" for st, est, se in
                  zip(table["statistic"], table["estimate"], table["se"], strict=True)]
    else:
        table = odds.gin_dealt(args.hands, args.seed, size=args.cards, **common)
        lines = [f"gin, {args.cards} cards: Monte Carlo on {args.hands:,} hands, seed {args.seed}"]
        lines += [f"  {st:<18} {est:.6g} ± {se:.2g} (1 SE)" for st, est, se in
                  zip(table["statistic"], table["estimate"], table["se"], strict=True)]
    if args.out:
        (table.write_csv if args.out.endswith(".csv") else table.write_parquet)(args.out)
        lines.append(f"  written to {args.out}")
    return "\n".join(lines)


def _lessons(args: argparse.Namespace) -> str:
    if args.lessons_command in ("catalog", "translate"):
        from .classroom.serve import lessons_dir
        from .lessons.translate import update_catalogs

        folder = Path(args.folder) if args.folder else lessons_dir()
        if args.lessons_command == "catalog":
            written = update_catalogs(folder)
            return "rummylab: " + ("; ".join(_("wrote {path}").format(path=p) for p in written)
                                   or _("every catalog was up to date"))
        from .lessons.translate import translate_folder

        built = translate_folder(folder, args.lang, Path(args.out) if args.out else None)
        return "rummylab: " + _("{n} lessons built in {lang} into {folder}").format(
            n=len(built), lang=args.lang, folder=built[0].parent if built else args.out)
    if getattr(args, "lang", None):
        from .classroom.serve import in_language, lessons_dir

        args.folder = str(in_language(Path(args.folder) if args.folder else lessons_dir(), args.lang))
    if args.lessons_command == "copy":
        from .classroom.serve import copy_lessons

        written = copy_lessons(args.folder, args.force)
        kept = "" if args.force else " " + _("(lessons already there were kept; --force overwrites)")
        return "rummylab: " + _("{n} lessons copied to {folder}").format(n=len(written), folder=args.folder) + kept

    if args.lessons_command == "new":
        from .lessons.starter import new_lesson

        path = new_lesson(args.path, args.title)
        return "rummylab: " + _("wrote {path}: open it in JupyterLab, make it yours, then {check} and {serve}").format(
            path=path, check=f"`rummylab lessons check {path.parent}`",
            serve=f"`rummylab serve {path.parent} --lesson {path.stem}`")
    if args.lessons_command == "check":
        from .lessons.preflight import CLASS_PAGE, VARIANTS, preflight

        verdicts = preflight(args.folder, [CLASS_PAGE] if args.quick else VARIANTS,
                             progress=lambda v: print(v, flush=True))
        failed = [v.lesson for v in verdicts if not v.ok]
        if failed:
            print("rummylab: " + _("{n} of {total} lessons would go wrong in class: {lessons}").format(
                n=len(failed), total=len(verdicts), lessons=", ".join(failed)))
            raise SystemExit(1)
        ready = ngettext("ready for class: {n} lesson, all checked", "ready for class: {n} lessons, all checked",
                         len(verdicts))
        return "rummylab: " + ready.format(n=len(verdicts))
    from .lessons.key import for_student, key, key_html, key_text

    found = key(args.folder, args.lesson)
    if args.student is not None:
        found = for_student(found, args.student, _variants_of(args.student, args.folder, args.db))
    text = key_text(found)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(key_html(found))
        except OSError as exc:
            raise ValueError(f"cannot write {args.html}: {exc.strerror}") from None
        text += "\n\n" + _("written to {path}").format(path=args.html)
    return text


def _variants_of(student: str, folder: str | None, db: str | None) -> dict[str, dict[str, int]]:
    """The variants ``student`` answered right, per lesson and exercise, from the class's store
    (by her name, or her hub login); none when the store has no checks yet."""
    from .classroom.serve import lessons_dir, progress_db
    from .progress import Progress

    store = Progress(progress_db(folder or lessons_dir(), db))
    if not store.exists():
        return {}
    by_name = store.right_variants(student)
    by_login = store.right_variants(student, by_login=True)
    return {lesson: {**by_name.get(lesson, {}), **by_login.get(lesson, {})} for lesson in {*by_name, *by_login}}


def _class(args: argparse.Namespace) -> str:
    from .progress import (
        Progress,
        answers_text,
        default_db,
        gradebook_csv,
        gradebook_of,
        report_html,
        report_table,
        students_text,
    )

    progress = Progress(args.db or default_db() or "progress.sqlite")
    if not progress.exists() and not progress.waiting():
        raise ValueError(f"no progress database at {progress.path} (give --db)")
    uploaded = progress.upload()
    lesson = progress.find_lesson(args.lesson) if args.lesson else None
    rows = progress.rows(lesson=lesson)
    if args.csv == "-":
        return gradebook_csv(gradebook_of(rows)).rstrip("\n")
    table = report_table(rows)
    students, checks = table.select("student").n_unique(), table["attempts"].sum() or 0
    head = (_("{n} spooled checks uploaded to {store}").format(n=uploaded, store=progress.name) + "\n"
            if uploaded else "")
    head += _("lesson {lesson}: ").format(lesson=lesson) if lesson else ""
    head += _("{students} students, {checks} checks").format(students=students, checks=checks)
    text = (f"{head}\n\n{students_text(table)}\n\n" + _("Answers per exercise (wrong first, the most common first):")
            + f"\n{answers_text(rows)}")
    for path, write in ((args.html, lambda: report_html(rows, lesson=lesson)),
                        (args.csv, lambda: gradebook_csv(gradebook_of(rows)))):
        if not path:
            continue
        try:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(write())
        except OSError as exc:
            raise ValueError(f"cannot write {path}: {exc.strerror}") from None
        text += "\n" + _("written to {path}").format(path=path)
    return text


def _serve(args: argparse.Namespace) -> str:
    import os

    from .classroom.serve import serve
    from .progress import DB_ENV

    # never write into site-packages; RUMMYLAB_DB (a hub service's) is taken when --db is not given
    db = args.db or (None if args.path or os.environ.get(DB_ENV, "").strip() else "progress.sqlite")
    status = serve(args.path, args.port, db, ip=args.ip, code=args.code, students=args.students,
                   lessons=args.lesson, teacher_port=args.teacher_port, teacher_token=args.teacher_token,
                   base_url=args.base_url, hub_server=args.hub_server, lang=args.lang)
    if status:
        raise SystemExit(status)
    return "rummylab: " + _("stopped")


def _hub(args: argparse.Namespace) -> str:
    from .classroom.hub import (
        PASSWORD_ENV,
        TEACHER_PASSWORD_ENV,
        hub_options,
        render_lessons,
        run_hub,
        service_secrets,
        write_config,
    )
    from .classroom.serve import LOOPBACK

    options, made_up = hub_options(args.path, args.lesson, args.students, args.db, args.teacher_group, args.ip,
                                   args.port, args.state_dir, args.spawner, args.classes, args.warm, args.lab,
                                   args.lang)
    lesson = options["lesson"]
    password = made_up or f"passwords: from {PASSWORD_ENV} and {TEACHER_PASSWORD_ENV}"
    service_secrets(Path(options["state_dir"]), options["db"])  # PGPASSWORD: for the service alone, in a file
    if args.config_only:
        path = write_config(args.config_only, **options)
        from .classroom.hub import outputs_folder

        return (f"rummylab: wrote {path} (run: jupyterhub -f {path}; first, to render the lessons' tables once for "
                f"every student: python -m rummylab.lessons.rendered {options['lessons']}/*.ipynb --out "
                f"{outputs_folder(Path(options['state_dir']))}, with RUMMYLAB_APP=1 RUMMYLAB_CHARTS=svg); lesson "
                f"{lesson}; {password}")
    config = write_config(Path(options["state_dir"]) / "jupyterhub_config.py", **options)
    rendered, background = render_lessons(Path(options["lessons"]), lesson, Path(options["state_dir"]))
    if rendered:
        print("rummylab: " + _("rendered once for the class: {lessons}").format(lessons=", ".join(rendered)),
              flush=True)
    shown = "127.0.0.1" if args.ip in LOOPBACK else args.ip
    if args.lang:  # the teacher's terminal speaks the class's language (after the English lessons are rendered)
        from .i18n import set_language

        set_language(args.lang)
    print("rummylab: " + _("JupyterHub at {url} (Ctrl+C stops), lesson {lesson}").format(
        url=f"http://{shown}:{args.port}/", lesson=lesson) + f"\n  {password}\n  "
          + _("teacher page: {url} (hub user 'teacher')").format(url=f"http://{shown}:{args.port}/services/rummylab/"),
          flush=True)
    try:
        status = run_hub(config, Path(options["state_dir"]))
    finally:
        if background is not None and background.poll() is None:
            background.terminate()
    if status:
        raise SystemExit(status)
    return "rummylab: " + _("hub stopped")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        print(args.run(args))
    except ValueError as exc:
        print(f"rummylab: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
