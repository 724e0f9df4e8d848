"""The dispute builder's round trips over loopback: median (and p90) of 100 checks and 100 resolves.

    python bench/builder_bench.py                 # the Coral Elf worked example, 100 of each
    python bench/builder_bench.py -n 30 FILE.yaml # another scenario, fewer requests
    python bench/builder_bench.py --steps 1000 -n 10 --page   # a scenario of 1,000 steps, and edits in the page

``--steps N`` replaces the scenario's steps with N copies of its first step (a long game written down).
``--before DIR`` times a second server, run from the code in DIR (``git worktree add /tmp/before <commit>``), in
the same run: the before and after of a change side by side.
``--page`` also times edits in the page itself (headless chromium, as the browser tests): from a change of a field
to the form checked and drawn again, for a pick that redraws the form and for a typed number; "every step open" is
the page drawing every step and asking the options of every step (as it did before steps were folded, and as it
still does with "Show every field"), "folded" the page as it opens (long scenarios: each step folded but the one
being edited). The check is also timed asking the options of every step (?steps=all) and of one (?steps=N-1).
"every step open" is the before: the page drew every step and asked the options of every step on each edit.

It starts the installed ``ddref serve --port 0`` (its own temporary index cache), then, on one kept-alive
connection as the page does, times what the page asks on each change and on Resolve:
- ``POST /build/check`` with the scenario as JSON (its YAML, the loader's errors, each step's options); the same
  scenario each time, then edits as the page sends them: a number of the last step's (or the first step's) roll
  changed on each check, which the check replays from (ddref.builder.ReplayCache: the first step's edit replays
  every step);
- ``POST /resolve`` with its YAML (the trace).
The first request of each kind is a warm-up and not counted. Every request goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))

from serve_bench import start_server  # noqa: E402 - bench/serve_bench.py, beside this script

CORAL = ROOT / "scenarios" / "sfr2012-modifiers-coral-elf-17-saves.yaml"


def timed(conn: http.client.HTTPConnection, path: str, body: bytes | list[bytes], kind: str, n: int) -> list[float]:
    """Milliseconds of each of n requests (after one not counted); a list of bodies is sent in turn."""
    bodies = body if isinstance(body, list) else [body]
    out = []
    for i in range(n + 1):
        start = time.perf_counter()
        conn.request("POST", path, body=bodies[i % len(bodies)], headers={"Content-Type": kind})
        response = conn.getresponse()
        data = response.read()
        took = time.perf_counter() - start
        if response.status != 200:
            sys.exit(f"{path} answered {response.status}: {data[:300]!r}")
        if i:
            out.append(took * 1000)
    return out


# the page, driven from the script: an edit of the last step (opened first), timed from the change to the form checked
# and drawn (body[data-busy] cleared, then the next frame)
EDIT = """
const [kind, key, value, done] = arguments;
const field = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
const start = performance.now();
field.value = value;
field.dispatchEvent(new Event(kind, {bubbles: true}));
const wait = () => document.body.dataset.busy ? setTimeout(wait, 2)
  : requestAnimationFrame(() => done(performance.now() - start));
setTimeout(wait, 0);
"""


def page_edits(port: int, text: bytes, steps: int, n: int) -> dict[str, list[float]]:
    """Milliseconds of each edit in the page, every step open (as before folding) and folded."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as profile:
        options.add_argument(f"--user-data-dir={profile}")
        browser = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        browser.set_script_timeout(600)
        try:
            # filled as a pasted scenario (a #yaml= link of a thousand steps is slow to hand to the driver)
            browser.get(f"http://127.0.0.1:{port}/build")
            browser.execute_script("window.ddrefCheckDelay = 0")
            WebDriverWait(browser, 60, poll_frequency=0.05).until(
                lambda b: b.execute_script("return !!document.querySelector('[data-key=\"steps-add\"]') && !document.body.dataset.busy"))
            browser.execute_script("fromYaml(arguments[0], false)", text.decode())
            idle = WebDriverWait(browser, 600, poll_frequency=0.05)
            idle.until(lambda b: b.execute_script("return !!document.querySelector('[data-key=\"steps-add\"]') "
                                                  "&& !document.body.dataset.busy"))
            last = steps - 1
            # every step open takes minutes a draw past a few hundred steps (the old page, or "Show every field"):
            # timed up to 300 steps only
            for mode in (("every step open", "folded") if steps <= 300 else ("folded",)):
                browser.execute_script(f"B.allOpen = {'true' if mode == 'every step open' else 'false'}; "
                                       f"if (B.openSteps) B.openSteps.add({last}); draw(); scheduleCheck()")
                idle.until(lambda b: b.execute_script("return !document.body.dataset.busy"))
                army = browser.execute_script(f"return Object.values(B.S.steps[{last}])[0].army")
                kind = next(iter(browser.execute_script(f"return B.S.steps[{last}]")))
                icon = browser.execute_script(f"return Object.keys(Object.values(B.S.steps[{last}])[0].roll || {{}})[0]")
                picks, typed = [], []
                for i in range(n + 1):
                    # a pick that redraws the form: the army (set to itself: the same scenario, the full cycle)
                    took = browser.execute_async_script(EDIT, "change", f"steps[{last}].{kind}.army", army)
                    if i:
                        picks.append(took)
                    if icon:
                        took = browser.execute_async_script(EDIT, "input", f"steps[{last}].{kind}.roll.{icon}", str(2 + i % 2))
                        if i:
                            typed.append(took)
                out[f"page, {mode}: a pick (redraws)"] = picks
                if typed:
                    out[f"page, {mode}: a typed number"] = typed
        finally:
            browser.quit()
    return out


def report(name: str, ms: list[float]) -> None:
    p90 = statistics.quantiles(ms, n=10)[-1] if len(ms) > 1 else ms[0]
    print(f"  {name}: median {statistics.median(ms):.1f} ms, p90 {p90:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenario", nargs="?", type=Path, default=CORAL)
    parser.add_argument("-n", type=int, default=100, help="requests of each kind (default 100)")
    parser.add_argument("--steps", type=int, default=0, help="repeat the first step to this many steps")
    parser.add_argument("--page", action="store_true", help="also time edits in the page (headless chromium)")
    parser.add_argument("--before", type=Path, help="also time a server run from the code in this directory")
    args = parser.parse_args()
    text = args.scenario.read_bytes()
    scenario = yaml.safe_load(text)
    if args.steps:
        first = scenario["steps"][0]
        scenario["steps"] = [json.loads(json.dumps({k: v for k, v in first.items() if k not in ("expect", "expect_error")}))
                             for _ in range(args.steps)]
        scenario.pop("expect", None)
        text = yaml.safe_dump(scenario, sort_keys=False).encode()
    steps = len(scenario.get("steps") or [])
    data = json.dumps(scenario).encode()
    edits = {where: [json.dumps(edited(scenario, where, k)).encode() for k in range(3)] for where in ("first", "last")}
    runs = {"": measure(text, data, edits, steps, args, None)}
    if args.before:
        runs[f"before ({args.before}): "] = measure(text, data, edits, steps, args, args.before)
    print(f"{args.scenario.name}, {steps} steps, {args.n} requests (edits) each, one kept-alive connection:")
    for label, timings in runs.items():
        for name, ms in timings.items():
            report(label + name, ms)


def edited(scenario: dict, where: str, k: int) -> dict:
    """The scenario with the first whole number of the first (or last) step's roll lessened by k: an edit of that
    step as the page sends it."""
    copy = json.loads(json.dumps(scenario))
    if not copy.get("steps"):
        return copy
    step = copy["steps"][0 if where == "first" else -1]
    roll = next(iter(step.values())).get("roll") or {}
    for key, value in roll.items():
        if isinstance(value, int) and not isinstance(value, bool):
            roll[key] = max(value - k, 0)
            break
    return copy


def measure(text: bytes, data: bytes, edits: dict[str, list[bytes]], steps: int, args,
            code: Path | None) -> dict[str, list[float]]:
    import os

    cache = tempfile.mkdtemp(prefix="builder-bench-")
    saved, here = os.environ.get("PYTHONPATH"), os.getcwd()
    if code is not None:    # the server imports ddref (and engine, index) from there first: `python -c` puts its
        os.environ["PYTHONPATH"] = str(code.resolve())  # directory first on sys.path, then PYTHONPATH's
        os.chdir(code)
    try:
        server, port = start_server(cache)
    finally:
        if code is not None:
            os.chdir(here)
            os.environ.pop("PYTHONPATH") if saved is None else os.environ.update(PYTHONPATH=saved)
    out = {}
    one = f"/build/check?steps={max(steps - 1, 0)}"
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        out["check   (POST /build/check, options of every step)"] = timed(conn, "/build/check", data, "application/json", args.n)
        out["check   (POST /build/check?steps=N-1, options of one)"] = timed(conn, one, data, "application/json", args.n)
        out["check   (?steps=N-1), an edit of the last step each time"] = timed(
            conn, one, edits["last"], "application/json", args.n)
        out["check   (?steps=N-1), an edit of the first step each time"] = timed(
            conn, one, edits["first"], "application/json", args.n)
        out["resolve (POST /resolve)"] = timed(conn, "/resolve", text, "application/yaml", args.n)
        conn.close()
        if args.page:
            out.update(page_edits(port, text, steps, args.n))
    finally:
        server.terminate()
        server.wait(15)
        shutil.rmtree(cache, ignore_errors=True)
    return out


if __name__ == "__main__":
    main()
