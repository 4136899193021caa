"""Write the HTML report's pictures in docs/: the report of 1, 100 and 1,000 sampled pairs, and the 1,000 filtered
to the rejected pairs with a changed value. Run from any folder: python training/report_screenshots.py"""

import subprocess
import sys
import tempfile
from pathlib import Path

from factwash_dev.evaluation.report_sample import sample_pairs, screenshot, write_pairs

ROOT = Path(__file__).resolve().parent.parent
SHOTS = {"report-1": (1, 450, ()), "report-100": (100, 1300, ()), "report-1000": (1000, 1300, ()),
         "report-1000-filtered": (1000, 1300, ("-pass", "-rewrite", "-uncheckable", "changed_value"))}


def main() -> None:
    """Report each sample with the command line, as a user would, and screenshot the top of the page."""
    with tempfile.TemporaryDirectory() as folder:
        for name, (count, height, tick) in SHOTS.items():
            pairs = write_pairs(sample_pairs(ROOT / "training" / "gate_sets", count), Path(folder) / f"{count}.jsonl")
            html = Path(folder) / f"{name}.html"
            subprocess.run([sys.executable, "-m", "spacy_factwash", "report", str(pairs), "--html", str(html)],
                           check=True)
            print(screenshot(html, ROOT / "docs" / f"{name}.png", 1100, height, list(tick)))


if __name__ == "__main__":
    main()
