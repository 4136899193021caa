"""The work of one partition of a corpus run (run/partitions.py), counted in Python calls (the same on every run,
unlike seconds on a shared machine): writing its DocBin looks srsly's msgpack encoders up a fixed number of times
however many Docs it holds, and reading its lines parses none of the lines before it."""

import json

from factwash_dev.evaluation.work import counted, cue_sentences

from spacy_factwash.run.partitions import Partition, annotate_partition

CATALOGUE = "catalogue/__init__.py"  # srsly's encoder registry: every look-up of the msgpack encoders runs here
INPUTS = "io/inputs.py"  # where a line of input is parsed


def partition_calls(nlp, folder, lines: int, first_line: int = 1, within: str = CATALOGUE, **settings) -> int:
    """The calls into the files ending ``within`` while the partition of ``lines`` lines from ``first_line`` of a
    file of cue sentences is annotated and written (with its DocBin unless ``settings`` say otherwise)."""
    last_line = first_line + lines - 1
    source = folder / f"{last_line}.jsonl"
    source.write_text("".join(json.dumps({"text": text}) + "\n" for text in cue_sentences(last_line)),
                      encoding="utf8")
    out = folder / f"out-{first_line}-{last_line}-{len(list(folder.iterdir()))}"
    out.mkdir()
    partition = Partition(0, str(source), first_line, last_line)
    return counted(lambda: annotate_partition(nlp, partition, out, 16, False, **settings), within)


def test_writing_a_partitions_docbin_looks_its_encoders_up_a_fixed_number_of_times(default_nlp, tmp_path):
    partition_calls(default_nlp, tmp_path, 4)  # the pipeline's first Docs (what loads at first use, loaded)
    few, many = (partition_calls(default_nlp, tmp_path, lines) for lines in (40, 80))
    assert few == many > 0  # one look-up for the DocBin's packer, one for its file: not one per Doc
    assert partition_calls(default_nlp, tmp_path, 40, docbin=False) == 0


def test_a_partition_parses_its_own_lines_only(default_nlp, tmp_path):
    first = partition_calls(default_nlp, tmp_path, 40, within=INPUTS, docbin=False)
    assert partition_calls(default_nlp, tmp_path, 40, first_line=161, within=INPUTS, docbin=False) == first > 40
