"""The HTML report, looked at the way a person would: rendered in headless Chromium, screenshotted, clicked."""

import json
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest
from conftest import in_ci
from typer.testing import CliRunner

from spacy_factwash.cli import app
from spacy_factwash.render.display import CUE_COLORS

PAIRS = (
    '{"id": "a", "source": "Someone said Alice might not get admin access if the audit fails, as of Monday.", '
    '"memory": "Alice will get admin access."}\n'
    '{"id": "b", "source": "The cluster has 4,500 nodes.", "memory": "The cluster has 5,400 nodes."}\n'
)


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if in_ci():
            pytest.fail("chromium is missing in CI: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    return path


def read_png(path: Path):
    """Width, height and rows of (r, g, b) pixels of an 8-bit, non-interlaced RGB or RGBA PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, {}
    idat = b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
        position += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and color in (2, 6) and interlace == 0
    channels = 3 if color == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, up_left = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def test_report_renders_with_every_cue_class_highlighted(tmp_path):
    browser = chromium()
    (tmp_path / "pairs.jsonl").write_text(PAIRS, encoding="utf8")
    result = CliRunner().invoke(app, ["report", str(tmp_path / "pairs.jsonl"), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r.html").read_text(encoding="utf8")
    assert not any(ref in page for ref in ("http:", "https:", "src=", "<link", "@import"))  # self-contained
    shot = tmp_path / "shot.png"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--window-size=1100,700",
         f"--screenshot={shot}", (tmp_path / "r.html").as_uri()],
        capture_output=True, timeout=120, check=False,
    )
    width, height, rows = read_png(shot)
    pixels = {pixel for row in rows for pixel in row}
    assert (width, height) == (1100, 700) and len(pixels) > 50  # not blank
    legend_end = next(y for y, row in enumerate(rows) if (253, 230, 138) in row) + 40
    pixels = {pixel for row in rows[legend_end:] for pixel in row}  # the pairs, below the colour legend
    for label in ("HEDGE", "ATTRIBUTION", "NEGATION", "CONDITIONAL", "TEMPORAL"):
        color = CUE_COLORS[label]
        rgb = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in pixels, f"no {label} highlight ({color}) in the screenshot"


def test_report_names_a_bad_line(tmp_path):
    (tmp_path / "pairs.jsonl").write_text('{"id": 1, "source": "x"}\n', encoding="utf8")
    result = CliRunner().invoke(app, ["report", str(tmp_path / "pairs.jsonl"), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 1 and ":1: memory missing or not a string" in result.output


# -- hundreds of pairs: the page clicked in the browser through playwright (driving Debian's chromium) -----------

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "training" / "gate_sets"


def playwright_or_skip():
    chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci():
            pytest.fail("playwright is missing in CI: it is in the test extra")
        pytest.skip("playwright is not installed (pip install playwright; it drives Debian's chromium)")
    return sync_playwright


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The report of the same sampled pairs at 1, 100 and 1,000 pairs, and the gate's JSONL of the 100."""
    from factwash_dev.evaluation.report_sample import sample_pairs, write_pairs

    folder = tmp_path_factory.mktemp("reports")
    made = {}
    for count in (1, 100, 1000):
        pairs = write_pairs(sample_pairs(SETS, count), folder / f"pairs-{count}.jsonl")
        result = CliRunner().invoke(app, ["report", str(pairs), "--html", str(folder / f"r-{count}.html")])
        assert result.exit_code == 0, result.output
        made[count] = folder / f"r-{count}.html"
    gated = CliRunner().invoke(app, ["gate", str(folder / "pairs-100.jsonl"), str(folder / "gated.jsonl")])
    assert gated.exit_code == 0, gated.output
    made["gated"] = [json.loads(line) for line in (folder / "gated.jsonl").read_text().splitlines()]
    return made


def visible(page):
    """(verdict, kinds) of every pair section the browser shows."""
    return page.eval_on_selector_all("section.pair", "s => s.filter(e => e.offsetParent !== null)"
                                                     ".map(e => [e.dataset.verdict, e.dataset.kinds.split(' ')])")


def test_counts_match_the_gate_and_filters_hide_rows(reports):
    from factwash_dev.evaluation.report_sample import open_page

    with playwright_or_skip()() as playwright:
        browser, page = open_page(playwright, reports[100])
        verdicts = Counter(report["verdict"] for report in reports["gated"])
        assert len(visible(page)) == 100 and page.inner_text("#shown") == "100"
        for verdict in ("pass", "rewrite", "uncheckable"):
            page.click(f'input[data-filter="verdict"][value="{verdict}"]')
        shown = visible(page)
        assert {v for v, _ in shown} == {"reject"} and len(shown) == verdicts["reject"] > 0
        assert page.inner_text("#shown") == str(len(shown))
        page.click('input[data-filter="verdict"][value="rewrite"]')
        page.click('input[data-filter="kind"][value="dropped_attribution"]')
        shown = visible(page)
        wanted = sum(1 for r in reports["gated"] if r["verdict"] in ("reject", "rewrite")
                     and any(c["type"] == "dropped_attribution" for c in r["changes"]))
        assert len(shown) == wanted > 0 and all("dropped_attribution" in kinds for _, kinds in shown)
        assert page.requests == [reports[100].resolve().as_uri()]  # nothing fetched
        browser.close()


def test_jump_links_long_sources_and_empty_memories(reports):
    from factwash_dev.evaluation.report_sample import open_page

    with playwright_or_skip()() as playwright:
        browser, page = open_page(playwright, reports[1000])
        page.click('a[data-first="pass"]')
        target = page.evaluate("location.hash").lstrip("#")
        assert page.get_attribute(f"#{target}", "data-verdict") == "pass"
        assert page.evaluate(f"document.getElementById('{target}').getBoundingClientRect().top") < 50
        # a lengthened source (every tenth pair) takes no more room than its context until it is opened
        long_pair = page.locator("section.pair").nth(9)
        source_chars = int(long_pair.locator("details summary").inner_text().split("source ")[1].split(")")[0]
                           .replace(",", ""))
        closed = long_pair.bounding_box()["height"]
        long_pair.locator("details summary").click()
        assert source_chars > 2000 and closed < 700 < long_pair.bounding_box()["height"]
        empty = page.locator('section.pair[data-kinds~="empty_memory"]')
        assert empty.count() == 10
        assert "empty memory: there is nothing in it to check" in empty.first.inner_text()
        assert "no change found" not in page.content()
        browser.close()


def test_screenshots_at_1_100_and_1000_pairs(reports, tmp_path):
    from factwash_dev.evaluation.report_sample import screenshot

    playwright_or_skip()
    for count in (1, 100, 1000):
        width, height, rows = read_png(screenshot(reports[count], tmp_path / f"{count}.png", 1000, 900))
        assert (width, height) == (1000, 900)
        colours = Counter(pixel for row in rows for pixel in row)
        assert len(colours) > 50 and colours.most_common(1)[0][1] < 0.9 * width * height  # drawn, not blank


def test_report_of_1000_pairs_size_and_time(tmp_path, capsys):
    """Benchmark: the report of 1,000 pairs against gating the same pairs alone (the floor), in the same run."""
    import time

    from factwash_dev.evaluation.report_sample import sample_pairs, write_pairs
    from spacy_factwash.api import default_pipeline

    pairs = sample_pairs(SETS, 1000)
    path = write_pairs(pairs, tmp_path / "pairs.jsonl")
    gate = default_pipeline().get_pipe("factwash_compare")
    start = time.perf_counter()
    floor = sum(1 for _ in gate.pipe_pairs((p["source"], p["memory"]) for p in pairs))
    floor_seconds = time.perf_counter() - start
    start = time.perf_counter()
    result = CliRunner().invoke(app, ["report", str(path), "--html", str(tmp_path / "r.html")])
    seconds = time.perf_counter() - start
    size = (tmp_path / "r.html").stat().st_size
    assert result.exit_code == 0 and floor == 1000
    with capsys.disabled():
        print(f"\nreport: 1,000 pairs -> {size / 1e6:.2f} MB of HTML in {seconds:.1f} s; gating them alone "
              f"{floor_seconds:.1f} s; ratio {seconds / floor_seconds:.2f}")
    assert size < 5_000_000


def test_a_pair_not_in_english_is_said_in_words_and_filterable(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "de", "source": "Jemand sagte, Alice sei heute Morgen befördert worden.",
                                 "memory": "Alice wurde befördert."}) + "\n"
                     + json.dumps({"id": "mixed", "source": "Alice was promoted. Bob was hired.",
                                   "memory": "Alice was promoted. Bob wurde eingestellt."}) + "\n", encoding="utf8")
    result = CliRunner().invoke(app, ["report", str(pairs), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r.html").read_text(encoding="utf8")
    assert 'data-verdict="uncheckable" data-kinds="not_english"' in page
    assert "not English: the source reads as &#x27;de&#x27;" in page and "nothing was checked" in page
    assert 'data-filter="kind" value="not_english"' in page
    assert "not English: the memory sentence “Bob wurde eingestellt.” reads as &#x27;de&#x27;" in page
