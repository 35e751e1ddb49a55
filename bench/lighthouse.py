"""Lighthouse scores and server time for the home page and one rules page per language.

Runs the site as production would (DEBUG off, collectstatic, WhiteNoise, daphne) on a free
loopback port, then:
- Lighthouse (bench/node_modules, `npm ci` in bench/ if missing) with Debian's Chromium:
  performance, accessibility, best practices and SEO for /<lang>/ (the home page, with its
  picture, live figures and lesson progress) and /<lang>/rules/rung/;
- the server time of that page: ~200 sequential GETs per language over keep-alive, p50/p90.

Prints the figures and writes a dated file, bench/results/<date>-lighthouse[-<pages>].json
(history.py; no <pages> for every page in every language). Bounded: a few minutes at most
for one run a page.

    .venv/bin/python bench/lighthouse.py            # every page, one Lighthouse run each
    .venv/bin/python bench/lighthouse.py home 3     # only /<lang>/, median of 3 runs
    .venv/bin/python bench/lighthouse.py home 3 ur  # only /ur/
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import history

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CHROME = "/usr/bin/chromium"
LANGS = ("ur", "hi", "en")
PAGES = ("/{lang}/", "/{lang}/rules/rung/")
REQUESTS = 200
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
DAPHNE = "import bootstrap; from daphne.cli import CommandLineInterface as C; C.entrypoint()"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-not-used-anywhere-else-0123456789",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"sqlite:///{tmp / 'bench.sqlite3'}",
        DJANGO_SETTINGS_MODULE="baithak.settings",
        # Plain HTTP on loopback: no TLS proxy in front, so no redirect to https.
        SECURE_SSL_REDIRECT="false",
    )
    return env


def _run(args: list[str], env: dict[str, str]) -> None:
    subprocess.run(args, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def _lighthouse_bin() -> Path:
    binary = BENCH / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BENCH, check=True)
    return binary


def _wait_until_up(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/en/rules/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("daphne did not answer within 30 s")


def lighthouse(binary: Path, url: str, out: Path, runs: int = 1) -> dict[str, float]:
    """The run with the median performance of `runs` runs (the machine is shared, so one
    run's blocking time moves with its neighbours' load)."""
    results = sorted((_lighthouse_once(binary, url, out) for _ in range(runs)),
                     key=lambda r: r["performance"])
    return results[len(results) // 2]


def _lighthouse_once(binary: Path, url: str, out: Path, attempts: int = 3) -> dict[str, float]:
    # Under heavy load Chromium sometimes loses the trace (NO_NAVSTART): try again.
    for attempt in range(attempts):
        try:
            return _lighthouse_run(binary, url, out)
        except subprocess.CalledProcessError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def _lighthouse_run(binary: Path, url: str, out: Path) -> dict[str, float]:
    env = dict(os.environ, CHROME_PATH=CHROME)
    subprocess.run(
        [
            str(binary),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={CHROME_FLAGS}",
            "--max-wait-for-load=30000",
        ],
        cwd=BENCH,
        env=env,
        check=True,
        timeout=180,
    )
    report = json.loads(out.read_text())
    scores = {c: report["categories"][c]["score"] for c in CATEGORIES}
    audits = report["audits"]
    for key, audit in (
        ("fcp_ms", "first-contentful-paint"),
        ("lcp_ms", "largest-contentful-paint"),
        ("si_ms", "speed-index"),
        ("tbt_ms", "total-blocking-time"),
    ):
        scores[key] = round(audits[audit]["numericValue"])
    scores["cls"] = round(audits["cumulative-layout-shift"]["numericValue"], 3)
    # Audits that lost points, so a low score says why.
    scores["failing"] = sorted(  # type: ignore[assignment]
        a["id"]
        for a in audits.values()
        if a.get("score") is not None and a["score"] < 0.9 and a.get("scoreDisplayMode") == "binary"
    )
    return scores


def server_time(port: int, path: str, n: int = REQUESTS) -> dict[str, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        times.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            raise RuntimeError(f"{path} answered {response.status}")
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.close()
    times.sort()
    return {
        "requests": n,
        "p50_ms": round(statistics.median(times), 2),
        "p90_ms": round(times[int(n * 0.9) - 1], 2),
    }


def main() -> int:
    # Optional arguments: which pages ("home", "rules" or "all") and runs per page.
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    pages = {"home": PAGES[:1], "rules": PAGES[1:], "all": PAGES}[which]
    langs = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else LANGS
    run = history.begin("lighthouse")
    if not Path(CHROME).exists():
        print(f"{CHROME} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    binary = _lighthouse_bin()
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="baithak-lh-") as tmpdir:
        tmp = Path(tmpdir)
        env = _env(tmp)
        _run([python, "scripts/compile_messages.py"], env)
        _run([python, "manage.py", "collectstatic", "--noinput", "--clear"], env)
        _run([python, "manage.py", "migrate", "--noinput"], env)
        port = _free_port()
        server = subprocess.Popen(
            # daphne's own entry point after bootstrap maps site/ to `baithak`, so the bench
            # runs from a bare checkout too (the `daphne` script needs the project installed).
            [python, "-c", DAPHNE, "-b", "127.0.0.1", "-p", str(port),
             "baithak.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            _wait_until_up(port)
            results: dict[str, object] = {
                "pages": list(pages), "runs": runs, "lighthouse": {}, "server": {}
            }
            for page in pages:
                for lang in langs:
                    path = page.format(lang=lang)
                    server_time(port, path, 20)  # warm up: first requests parse the content
                    results["server"][path] = server_time(port, path)  # type: ignore[index]
                    url = f"http://127.0.0.1:{port}{path}"
                    scores = lighthouse(binary, url, tmp / f"lh-{lang}.json", runs)
                    results["lighthouse"][path] = scores  # type: ignore[index]
        finally:
            server.terminate()
            server.wait(timeout=10)
    which += "" if langs == LANGS else "-" + "-".join(langs)
    results_path = history.write(run, results, "" if which == "all" else which)
    print(f"{'page':<20}{'perf':>6}{'a11y':>6}{'b.p.':>6}{'seo':>6}{'LCP ms':>8}{'p50 ms':>8}")
    for page in pages:
        for lang in langs:
            path = page.format(lang=lang)
            s = results["lighthouse"][path]  # type: ignore[index]
            t = results["server"][path]  # type: ignore[index]
            print(
                f"{path:<20}{s['performance']:>6.2f}{s['accessibility']:>6.2f}"
                f"{s['best-practices']:>6.2f}{s['seo']:>6.2f}{s['lcp_ms']:>8}{t['p50_ms']:>8}"
            )
            if s["failing"]:
                print(f"  failing audits: {', '.join(s['failing'])}")
    print(f"written to {results_path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
