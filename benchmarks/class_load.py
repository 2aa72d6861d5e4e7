"""A class of N students on one machine: `rummylab serve` with N warm kernels, N browser contexts
(Debian's Chromium, Playwright) opening lesson 00 at once, each clicking cards.

Prints the time from opening the page to the first widget (p50, max), from a click to the
updated analysis (p50, p95), failures, and the peak memory of the server and its kernels.
Targets on a 2-core machine, browsers included: 10 students: every first widget <= 10 s,
click p95 <= 200 ms; 30 students: all served, every first widget <= 30 s.

    python benchmarks/class_load.py 10 [--clicks 6] [--address-bar] [--lang hi]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from rummylab.classroom.class_kernel import is_kernel  # noqa: E402
from rummylab.classroom.serve import free_port, wait_for_http  # noqa: E402
from rummylab.i18n import _, using  # noqa: E402

BASE_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
NO_ADDRESS_BAR = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
"""Chromium 156 gets the address bar's drop-down ready in every window: a browser-UI page in a
renderer of its own, about 1 CPU-second a window. A student's browser does that on the student's
own device, and a headless one has no address bar; --address-bar keeps it."""
ARGS = [*BASE_ARGS, NO_ADDRESS_BAR]
"""Debian's Chromium, headless."""
CODE = "BENCH7"
TIMEOUT_MS = 300_000
"""A student not served within five minutes counts as a failure."""
CARDS = ["QH", "KH", "QD", "5C", "8D", "2H"]

APPEARS = """sel => new Promise(resolve => {
  const check = () => { if (document.querySelector(sel)) { obs.disconnect(); resolve(true); } };
  const obs = new MutationObserver(check);
  obs.observe(document, {childList: true, subtree: true});
  check();
})"""
"""Wait in the page for an element to appear. (Playwright's wait_for_selector checks on every
animation frame: the harness itself would then paint 60 frames a second in every browser.)"""

JOIN = """code => {
  document.querySelector('#class-code').value = code;
  document.querySelector('#join').click();
}"""
"""Type the class code and join, as a student does. (Playwright's own fill and click first wait
for the element to stand still over animation frames: seconds, in a busy class.)"""

CLICK = """async (card) => {
  const report = document.querySelector('.rl-analyzer .rl-report');
  const deadwood = () => report.querySelector('.rl-deadwood').innerText;
  const before = deadwood();
  const done = new Promise(resolve => {
    const obs = new MutationObserver(() => {
      if (deadwood() !== before) { obs.disconnect(); resolve(performance.now()); }
    });
    obs.observe(report, {subtree: true, childList: true, characterData: true});
    setTimeout(() => { obs.disconnect(); resolve(NaN); }, 10000);
  });
  const t0 = performance.now();
  document.querySelector(`.rl-analyzer .rl-card-${card}`).click();
  return (await done) - t0;
}"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


def tree_rss(proc: subprocess.Popen[bytes]) -> int:
    """Resident memory of the class server, Voilà and every kernel."""
    total = 0
    for p in [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            total += p.memory_info().rss
    return total


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (every core, every process)."""
    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0))


def group_of(p: psutil.Process, server: set[int]) -> str:
    """Which part of the class a process is: the server, a kernel, a browser's renderer, the rest
    of the browser, Playwright's driver, or anything else on the machine."""
    cmd = " ".join(p.cmdline())
    if p.pid in server:
        return "kernels" if is_kernel(cmd) else "server"
    if "chromium" in cmd:
        return "renderers" if "--type=renderer" in cmd else "browser (other)"
    return "playwright" if "playwright" in cmd else "other"


class CpuLedger:
    """CPU seconds by part of the class, from samples of every process every 0.25 s: a
    process that ends between two samples keeps its last sample (a browser's renderers end
    when its context closes, and a student's kernel when the page is left)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.seen: dict[int, tuple[str, float, float]] = {}  # pid -> (group, first, last)
        self.sample(first=True)

    def sample(self, first: bool = False) -> None:
        with contextlib.suppress(psutil.Error):
            server = {self.proc.pid, *(c.pid for c in psutil.Process(self.proc.pid).children(recursive=True))}
        for p in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                used = float(t.user + t.system)
                group, start, _ = self.seen.get(p.pid) or (group_of(p, server), used if first else 0.0, 0.0)
                self.seen[p.pid] = (group, start, used)

    def spent(self) -> dict[str, float]:
        out = dict.fromkeys(["server", "kernels", "renderers", "browser (other)", "playwright", "other"], 0.0)
        for group, start, last in self.seen.values():
            out[group] += last - start
        return out


async def student(browser: object, url: str, clicks: int, out: dict[str, list[float]], lesson: str) -> None:
    context = await browser.new_context(viewport={"width": 1200, "height": 1400})  # type: ignore[attr-defined]
    page = await context.new_page()
    t0 = time.perf_counter()
    try:
        await page.goto(f"{url}/voila/render/{lesson}", wait_until="commit", timeout=TIMEOUT_MS)
        await page.evaluate(APPEARS, "#join")
        out["code page"].append(time.perf_counter() - t0)
        t1 = time.perf_counter()
        await page.evaluate(JOIN, CODE)
        await page.wait_for_url("**/voila/render/**", wait_until="commit", timeout=TIMEOUT_MS)
        out["lesson page"].append(time.perf_counter() - t1)
        await page.evaluate(APPEARS, ".rl-analyzer .rl-deadwood")
        out["first"].append(time.perf_counter() - t0)
        out["after_login"].append(time.perf_counter() - t1)
        await page.wait_for_timeout(500)
        for i in range(clicks):
            ms = await page.evaluate(CLICK, CARDS[(i // 2) % len(CARDS)])
            (out["click"] if ms == ms else out["missed"]).append(ms)
            await page.wait_for_timeout(300)
    except Exception as exc:  # a student not served is what this counts
        out["failed"].append(0.0)
        print(f"  a student failed: {type(exc).__name__}: {str(exc).splitlines()[0]}", file=sys.stderr)
    finally:
        await context.close()


async def run_class(url: str, n: int, clicks: int, chromium: str, args: list[str],
                    lesson: str = "00-start-here.ipynb") -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"first": [], "click": [], "missed": [], "failed": [], "after_login": [],
                                   "code page": [], "lesson page": []}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=args)
        await asyncio.gather(*(student(browser, url, clicks, out, lesson) for _student in range(n)))
        await browser.close()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("students", type=int)
    p.add_argument("--clicks", type=int, default=6)
    p.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    p.add_argument("--address-bar", action="store_true",
                   help="keep Chromium's address-bar renderer in every window (about 1 CPU-second each)")
    p.add_argument("--lang", default=None, help="serve the lesson in this language (rummylab serve --lang)")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rummylab-class-"))
    shutil.copy(ROOT / "notebooks" / "00-start-here.ipynb", work)
    port = free_port()
    cmd = [sys.executable, "-m", "rummylab.cli", "serve", str(work), f"--port={port}", f"--code={CODE}",
           f"--students={args.students}", "--lesson=00", f"--teacher-port={free_port()}",
           f"--db={work / 'progress.sqlite'}", *([f"--lang={args.lang}"] if args.lang else [])]
    t_start = time.perf_counter()
    log = work / "serve.log"
    with open(log, "wb") as out_file:
        proc = subprocess.Popen(cmd, cwd=work, stdout=out_file, stderr=subprocess.STDOUT)
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            with contextlib.suppress(psutil.Error):
                peak[0] = max(peak[0], tree_rss(proc))
            time.sleep(0.5)

    threading.Thread(target=sample, daemon=True).start()
    try:
        wait_for_http(f"http://127.0.0.1:{port}/voila/static/voila.js")
        # the teacher starts the class before the students arrive: wait for the warm kernels
        with using(args.lang):  # the teacher's terminal speaks the class's language
            ready_line = _("class ready: {warm} warm kernel(s){failed}, {mb} MB each").split("{")[0]
        while ready_line not in log.read_text() and time.perf_counter() - t_start < 900:
            time.sleep(1)  # each warm kernel has run the lesson ahead of time
        ready = time.perf_counter() - t_start
        idle = tree_rss(proc)
        ledger, busy = CpuLedger(proc), busy_seconds()
        sampling = threading.Event()

        def sample_cpu() -> None:
            while not sampling.wait(0.25):
                ledger.sample()

        threading.Thread(target=sample_cpu, daemon=True).start()
        out = asyncio.run(run_class(f"http://127.0.0.1:{port}", args.students, args.clicks, args.chromium,
                                    BASE_ARGS if args.address_bar else ARGS,
                                    f"{args.lang}/00-start-here.ipynb" if args.lang else "00-start-here.ipynb"))
        sampling.set()
        ledger.sample()
        busy = busy_seconds() - busy
        spent = ledger.spent()
    finally:
        stop.set()
        proc.terminate()
        proc.wait(30)
    first, click = out["first"], out["click"]
    n = args.students
    print(f"class of {n} on {psutil.cpu_count()} cores{f' in {args.lang}' if args.lang else ''} (server, kernels and "
          f"{n} browser contexts on one machine"
          + (", each window with its address-bar renderer):" if args.address_bar else "):"))
    print(f"  class ready (warm kernels) in {ready:.0f} s; server and kernels {idle / 2**20:,.0f} MB before the "
          f"students, {idle / 2**20 / max(n, 1):.0f} MB per student")
    print(f"  served {len(first)} of {n}; failures {len(out['failed'])}")
    if first:
        print(f"  first widget: p50 {statistics.median(first):.1f} s, max {max(first):.1f} s")
    if click:
        print(f"  click -> updated analysis: p50 {statistics.median(click):.0f} ms, p95 {pct(click, .95):.0f} ms "
              f"({len(click)} clicks, {len(out['missed'])} not updated within 10 s)")
    print(f"  peak memory of the server and its kernels: {peak[0] / 2**20:,.0f} MB")
    print(f"  CPU seconds while the students worked: {busy:.1f} on the machine; "
          + ", ".join(f"{k} {v:.1f}" for k, v in spent.items()))
    if out["after_login"]:
        print(f"  on the way (p50): the class-code page {statistics.median(out['code page']):.1f} s; after typing the "
              f"code, the lesson page {statistics.median(out['lesson page']):.1f} s and its first widget "
              f"{statistics.median(out['after_login']):.1f} s")
    limit = 10 if n <= 10 else 30
    ok = len(first) == n and first and max(first) <= limit and (n > 10 or pct(click, .95) <= 200)
    goal = "first widget <= 10 s, click p95 <= 200 ms" if n <= 10 else "all served, first widget <= 30 s"
    print(f"  targets ({goal}): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
