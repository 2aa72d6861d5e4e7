"""A warm lesson kernel's memory, lesson by lesson (issue 39: lean kernels, every lesson).

For each packaged lesson (or those named) a fresh kernel is started as Voilà starts a class's
kernels (`rummylab serve`: RUMMYLAB_CHARTS=svg, RUMMYLAB_APP=1, a progress database, the
lesson's folder as working directory), runs every cell of the lesson a served kernel runs (not
those rendered once for the class: ``rummylab.lessons.rendered``), and then the kernel
process's resident memory (psutil RSS) is read: what each warm kernel of `rummylab serve
--students N` holds. One lesson at a time. Also prints which of the big libraries the warm
kernel has loaded, and, with ``--class-size K`` (default 3), what each of K warm kernels of the
lesson holds side by side: their proportional set size (PSS: a page shared by K processes counts
1/K in each, as the libraries' code is shared between a class's kernels) and unique set size (USS:
what stopping one kernel would free). RSS counts every shared page in full in each kernel.

    python benchmarks/kernel_memory.py [00 02 11 ...] [--target 100] [--class-size 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

from rummylab.lessons.rendered import is_rendered_once

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WATCHED = ("polars", "numpy", "altair", "vl_convert", "ipywidgets", "pandas", "pyarrow", "narwhals", "jsonschema",
           "debugpy")
LOADED = f"import json, sys; print(json.dumps([m for m in {WATCHED!r} if sys.modules.get(m)]))"


def served_jupyter_path() -> str:
    """``JUPYTER_PATH`` as ``rummylab serve`` gives its Voilà: the class's kernel spec first."""
    from rummylab.classroom.serve import voila_command

    return voila_command(NOTEBOOKS, 9000, "progress.sqlite")[1]["JUPYTER_PATH"]


def warm_kernel(path: Path, db: Path, stack: contextlib.ExitStack) -> tuple[int, list[str], list[str]]:
    """Run the lesson at ``path`` in a new kernel served as a class serves it, kept running until
    ``stack`` closes; its PID, the watched libraries it loaded, and the errors its cells raised."""
    env = {**os.environ, "RUMMYLAB_CHARTS": "svg", "RUMMYLAB_APP": "1", "RUMMYLAB_DB": str(db),
           "RUMMYLAB_LESSON": path.stem}
    os.environ["JUPYTER_PATH"] = served_jupyter_path()  # the class's python3 kernel spec, as Voilà finds it
    for name in ("RUMMYLAB_SEED", "RUMMYLAB_N"):
        env.pop(name, None)
    nb = nbformat.read(path, as_version=4)
    # as served: a cell rendered once for the class (lessons.rendered) shows kept outputs, and no
    # student's kernel runs it
    nb.cells = [c for c in nb.cells if not is_rendered_once(c)]
    nb.cells.append(nbformat.v4.new_code_cell(LOADED))
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    stack.enter_context(client.setup_kernel(env=env, cwd=str(path.parent), stderr=subprocess.DEVNULL))
    for index, cell in enumerate(nb.cells):
        client.execute_cell(cell, index)
    pid = client.km.provisioner.pid  # type: ignore[union-attr]
    errors = [f"{o['ename']}: {o['evalue']}" for c in nb.cells for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    lines = [line for o in nb.cells[-1].get("outputs", []) if o.get("output_type") == "stream"
             and o.get("name") == "stdout" for line in o["text"].splitlines() if line.startswith("[")]
    loaded = json.loads(lines[-1]) if lines else []
    return int(pid), loaded, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lessons", nargs="*", help="lesson numbers or names (default: every packaged lesson)")
    ap.add_argument("--target", type=float, default=100, help="the MB a warm kernel may hold (default 100)")
    ap.add_argument("--class-size", type=int, default=3, help="warm kernels of a lesson side by side for PSS/USS "
                    "(default 3; 1: RSS only)")
    args = ap.parse_args()
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    if args.lessons:
        paths = [p for p in paths if any(p.stem.startswith(name) for name in args.lessons)]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; target <= {args.target:.0f} MB a warm kernel\n")
    k = max(1, args.class_size)
    print(f"| lesson | warm kernel RSS (MB) | PSS a kernel, {k} side by side | USS a kernel | big libraries loaded |")
    print("|---|---:|---:|---:|---|")
    over = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            with contextlib.ExitStack() as stack:
                pids, loaded, errors = [], [], []
                for _ in range(k):
                    pid, loaded, errors = warm_kernel(path, Path(tmp) / "progress.sqlite", stack)
                    pids.append(pid)
                rss = psutil.Process(pids[0]).memory_info().rss / 2**20
                full = [psutil.Process(pid).memory_full_info() for pid in pids]
                pss = sum(f.pss for f in full) / len(full) / 2**20
                uss = sum(f.uss for f in full) / len(full) / 2**20
            print(f"| {path.stem} | {rss:.0f} | {pss:.0f} | {uss:.0f} | {', '.join(loaded) or '-'} |", flush=True)
            if errors:
                print(f"  errors: {errors}", file=sys.stderr)
            if rss > args.target:
                over.append(path.stem)
    print(f"\nover {args.target:.0f} MB: {', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
