"""Click-to-analysis latency of the HandAnalyzer in a real browser (Voilà + Debian's Chromium).

Starts Voilà on 127.0.0.1 on a temp copy of lesson 00, clicks a card on and off --clicks
times, and prints the p50/p95 time from the click to the updated deadwood text, and to the
updated chart (11-card hands). Target: p95 <= 100 ms.

    python benchmarks/browser_latency.py [--clicks 60]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from class_load import ARGS  # the same Chromium flags as the class
from playwright.sync_api import sync_playwright

from rummylab.classroom.serve import free_port, voila_command, wait_for_http

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """async ([card, withChart]) => {
  const report = document.querySelector('.rl-analyzer .rl-report');
  const extras = document.querySelector('.rl-analyzer .rl-extras');
  const deadwood = () => report.querySelector('.rl-deadwood').innerText;
  const before = deadwood(), chartBefore = extras.innerHTML;
  const waitFor = (el, changed) => new Promise(resolve => {
    if (changed()) return resolve(performance.now());
    const obs = new MutationObserver(() => { if (changed()) { obs.disconnect(); resolve(performance.now()); } });
    obs.observe(el, {subtree: true, childList: true, characterData: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(NaN); }, 10000);
  });
  const t0 = performance.now();
  const textDone = waitFor(report, () => deadwood() !== before);
  const chartChanged = () => extras.innerHTML !== chartBefore && extras.querySelector('.rl-chart svg');
  const chartDone = withChart ? waitFor(extras, chartChanged) : null;
  document.querySelector(`.rl-analyzer .rl-card-${card}`).click();
  const t1 = await textDone;
  const t2 = chartDone ? await chartDone : t1;
  return [t1 - t0, t2 - t0];
}"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clicks", type=int, default=60)
    p.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rummylab-latency-"))
    shutil.copy(ROOT / "notebooks" / "00-start-here.ipynb", work)
    port = free_port()
    cmd, env = voila_command(work, port)
    env.update(RUMMYLAB_N="1000")
    proc = subprocess.Popen(cmd, env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/voila/static/voila.js")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            page = browser.new_page()
            page.route("**/*", lambda r: r.continue_() if "127.0.0.1" in r.request.url else r.abort())
            page.goto(f"http://127.0.0.1:{port}/voila/render/00-start-here.ipynb", wait_until="commit")
            page.wait_for_selector(".rl-analyzer .rl-deadwood", timeout=120_000)
            page.wait_for_timeout(1000)
            text_ms, chart_ms = [], []
            extra = ["QH", "KH", "QD", "5C", "8D", "2H", "6S", "4D"]  # each 11th card draws a new chart
            for i in range(args.clicks):
                adding = i % 2 == 0  # an 11th card on (chart redraw), then off again (10 cards)
                t_text, t_chart = page.evaluate(MEASURE, [extra[(i // 2) % len(extra)], adding])
                text_ms.append(t_text)
                if adding:
                    chart_ms.append(t_chart)
                page.wait_for_timeout(50)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(15)
    missed = sum(1 for x in text_ms + chart_ms if x != x)
    text_ms = [x for x in text_ms if x == x]
    chart_ms = [x for x in chart_ms if x == x]
    if missed:
        print(f"  {missed} updates did not arrive within 10 s")
    print(f"HandAnalyzer in Voilà, {args.clicks} clicks (10 <-> 11 cards):")
    print(f"  click -> deadwood text: p50 {statistics.median(text_ms):6.1f} ms, p95 {pct(text_ms, .95):6.1f} ms, "
          f"max {max(text_ms):6.1f} ms")
    print(f"  click -> chart redrawn: p50 {statistics.median(chart_ms):6.1f} ms, p95 {pct(chart_ms, .95):6.1f} ms "
          f"(11-card hands)")
    print(f"  target p95 <= 100 ms: {'met' if pct(text_ms, .95) <= 100 else 'NOT met'}")


if __name__ == "__main__":
    main()
