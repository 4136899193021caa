"""The HTML report, looked at the way a person would: rendered in headless Chromium and screenshotted."""

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import in_ci
from spacy_factwash.cli import app
from spacy_factwash.cues.display import CUE_COLORS

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
    assert "<script" not in page and "http" not in page  # self-contained
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
