"""Pairs and screenshots for looking at the HTML report at scale (its tests, its benchmark and the pictures in
``docs/``): the written gate sets, some sources lengthened into documents, some memories left empty."""

import json
from itertools import cycle, islice
from pathlib import Path
from typing import List

from .gate_sets import read_set, set_names


def sample_pairs(sets: Path, count: int, long_every: int = 10, empty_every: int = 97) -> List[dict]:
    """``count`` pairs from the gate sets in ``sets``, in turn (repeated when there are fewer). Every
    ``long_every``-th source becomes a document: the sources of the sixty pairs after it, thirty placed before
    and thirty after it, so its flagged sentence sits inside a long text. Every ``empty_every``-th memory is empty, as a
    memory system writes when it stored nothing."""
    rows = [row for name in set_names(sets) for row in read_set(sets / f"{name}.jsonl")]
    if not rows:
        raise ValueError(f"{sets}: no pair sets to sample")
    pairs = []
    for number, row in enumerate(islice(cycle(rows), count), 1):
        source, memory = row["source"], row["memory"]
        if number % long_every == 0:
            around = [rows[(number + k) % len(rows)]["source"] for k in range(1, 61)]
            source = " ".join(around[:30] + [source] + around[30:])
        if number % empty_every == 0:
            memory = ""
        pairs.append({"id": f"{row['id']}#{number}", "source": source, "memory": memory})
    return pairs


def write_pairs(pairs: List[dict], path: Path) -> Path:
    """The pairs as the JSONL file ``report`` and ``gate`` read."""
    path.write_text("".join(json.dumps(pair, ensure_ascii=False) + "\n" for pair in pairs), encoding="utf8")
    return path


def browser_path() -> str:
    """Debian's chromium (or chromium-browser); a clear error when neither is installed."""
    import shutil

    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise FileNotFoundError("no chromium on this machine (apt-get install chromium)")
    return path


def open_page(playwright, html: Path, width: int = 1200, height: int = 1500):
    """The report opened in headless chromium through playwright, every request it makes recorded in
    ``page.requests`` (a self-contained page makes none but its own)."""
    browser = playwright.chromium.launch(executable_path=browser_path(),
                                         args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
    page = browser.new_page(viewport={"width": width, "height": height})
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.goto(html.resolve().as_uri())
    return browser, page


def screenshot(html: Path, png: Path, width: int = 1200, height: int = 1500, tick: List[str] = ()) -> Path:
    """A screenshot of the top of the report (after ticking the filters named in ``tick``: verdicts to untick
    are given as ``-verdict``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser, page = open_page(playwright, html, width, height)
        for name in tick:
            page.click(f'input[data-filter][value="{name.lstrip("-")}"]')
        page.screenshot(path=str(png))
        browser.close()
    return png
