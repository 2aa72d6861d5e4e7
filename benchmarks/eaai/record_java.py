"""Record the Java EAAI players' decisions into tests/data/eaai/*.json (needs a JDK: javac, java).

    .venv/bin/python benchmarks/eaai/record_java.py --eaai GITDIR --marjj GITDIR

``--eaai`` and ``--marjj`` are git directories (bare or not) of tneller/gin-rummy-eaai and
aqib-a99/MARJJ at the commits named below (or plain directories holding the files). The sources
are copied into a temporary directory, put in the default package (MARJJ_v5 is written for it),
and compiled with ``java/RecordEaai.java``. One change is made to the framework:
``GinRummyGame``'s ``new Random()`` becomes ``new Random(Long.getLong("eaai.seed", 1L))`` so a
recording can be made again; the players' own ``Random`` is replaced (by reflection) with a
seeded one whose ``nextInt`` the recorder can force, to list every card a tie could give.

Writes ``decisions.json`` (a sample of the positions of each player: what it knew, what it did,
the tie) and ``hands.json`` (whole hands as events, for replaying on rummylab's engine).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import ginrummyutil as gu  # benchmarks/eaai, next to this script

HERE = Path(__file__).parent
EAAI_COMMIT = "559c712516e3b0fd6b908864acd141e254d94f39"
MARJJ_COMMIT = "5d1f00c1dff5380021785c8146d039a11efcabc3"
FRAMEWORK = ["Card", "GinRummyGame", "GinRummyPlayer", "GinRummyUtil", "SimpleGinRummyPlayer",
             "SimpleFileGinRummyPlayer"]  # GinRummyGame.main names the last one
OUT = HERE.parent.parent / "tests" / "data" / "eaai"
MATCHES = [("simple", "marjj", 10), ("marjj", "simple", 10), ("simple", "simple", 3), ("marjj", "marjj", 3)]
"""(player 0, player 1, games) recorded, each with its own seed."""


def source(repo: Path, commit: str, path: str) -> str:
    if (repo / path).is_file():
        return (repo / path).read_text()
    return subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def build(eaai: Path, marjj: Path, where: Path) -> None:
    for name in FRAMEWORK:
        text = source(eaai, EAAI_COMMIT, f"ginrummy/{name}.java").replace("package ginrummy;", "")
        if name == "GinRummyGame":
            seeded = text.replace("new Random();", 'new Random(Long.getLong("eaai.seed", 1L));')
            assert seeded != text, "GinRummyGame's Random not found"
            text = seeded
        (where / f"{name}.java").write_text(text)
    (where / "MARJJ_v5.java").write_text(source(marjj, MARJJ_COMMIT, "MARJJ_v5-1.java"))
    (where / "RecordEaai.java").write_text((HERE / "java" / "RecordEaai.java").read_text())
    subprocess.run(["javac", "-nowarn", "-d", str(where), *sorted(str(p) for p in where.glob("*.java"))],
                   check=True, cwd=where)


def record(where: Path, seed: int, games: int, p0: str, p1: str) -> dict:
    run = subprocess.run(["java", f"-Deaai.seed={seed}", "-cp", str(where), "RecordEaai", str(games), p0, p1],
                         check=True, capture_output=True, text=True)
    return json.loads(run.stdout)


def interest(p: dict) -> int:
    """2: a rare case (the simple player's repeat rule excludes a card; MARJJ's draw with several
    least-deadwood meld sets, where its getBestMeld choice counts); 1: a tie, a take, a knock."""
    if p["player"] == "simple" and p["decision"] == "discard" and p["drawn"] != "null":
        hand = set(p["hand"].split())
        for pair in p["played"]:
            cards = set(pair.split())
            if p["drawn"] in cards and cards <= hand:
                return 2
    if p["player"] == "marjj" and p["decision"] == "draw":
        cards = gu.parse(p["hand"] + " " + p["card"])
        if len(gu.best_meld_sets(cards)) > 1:
            return 2
    return int(len(p.get("ties", "").split()) > 1 or bool(p.get("take")) or bool(p.get("knock")))


def _write(path: Path, meta: dict, key: str, items: list[dict]) -> None:
    """JSON with one item a line."""
    head = json.dumps(meta)[:-1]
    body = ",\n".join(json.dumps(item) for item in items)
    path.write_text(f'{head}, "{key}": [\n{body}\n]}}\n')


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eaai", type=Path, required=True)
    ap.add_argument("--marjj", type=Path, required=True)
    ap.add_argument("--per-player", type=int, default=150, help="positions kept per player and decision kind")
    ap.add_argument("--hands", type=int, default=30, help="whole hands kept per match")
    args = ap.parse_args(argv)
    positions: list[dict] = []
    hands: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="eaai-java-") as tmp:
        where = Path(tmp)
        build(args.eaai, args.marjj, where)
        for seed, (p0, p1, games) in enumerate(MATCHES, start=1):
            data = record(where, seed, games, p0, p1)
            for p in data["positions"]:
                p["match"] = seed
            positions += data["positions"]
            for i, h in enumerate(data["hands"]):
                if i < args.hands or not h["knocked"]:  # and every dead hand
                    h.update(match=seed, players=[p0, p1])
                    hands.append(h)
            print(f"match {seed}: {p0} v {p1}, {games} games, {len(data['positions'])} positions, "
                  f"{len(data['hands'])} hands", file=sys.stderr)
    rng = random.Random(2026)
    kept = []
    for player in ("simple", "marjj"):
        for decision in ("draw", "discard", "knock"):
            group = [p for p in positions if p["player"] == player and p["decision"] == decision]
            tiers: list[list[dict]] = [[], [], []]  # rare, notable, plain
            for p in group:
                tiers[2 - interest(p)].append(p)
            for tier in tiers:
                rng.shuffle(tier)
            rare, notable, plain = tiers
            n = args.per_player
            pick = rare[:n // 4]
            pick += notable[:n // 2 - len(pick)]
            pick += plain[:n - len(pick)]
            chosen = {id(p) for p in pick}
            pick += [p for p in rare + notable if id(p) not in chosen][:n - len(pick)]
            kept += pick
    meta = {"source": {"tneller/gin-rummy-eaai": EAAI_COMMIT, "aqib-a99/MARJJ": MARJJ_COMMIT},
            "recorded_by": "benchmarks/eaai/record_java.py", "matches": MATCHES}
    OUT.mkdir(parents=True, exist_ok=True)
    _write(OUT / "decisions.json", meta, "positions", kept)
    _write(OUT / "hands.json", meta, "hands", hands)
    print(f"kept {len(kept)} positions, {len(hands)} hands in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
