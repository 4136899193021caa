"""The Open English WordNet reader, its candidate extractors, the candidates command and the lexicon writer
(tools/factwash_dev/wordnet: developer tooling, not in the wheel).

The real-resource tests read only the files their queries need, through a parse cache kept in pytest's cache
folder: the first run parses a few files, later runs read pickles. The command and the writer are tested end to
end on a small WordNet written here in the resource's own format.
"""

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factwash_dev.cli import app
from factwash_dev.wordnet.candidate import load_seeds, read_candidates
from factwash_dev.wordnet.frames import frame_candidates
from factwash_dev.wordnet.reader import WORDNET_DIR, WordNet, WordNetError
from factwash_dev.wordnet.writer import LABELS, class_file, write_lexicon_set
from spacy_factwash.lexicon.frozen import load_lexicons

corpus = pytest.mark.corpus


@pytest.fixture(scope="session")
def wordnet(corpora, request, tmp_path_factory) -> WordNet:
    """The corpora's WordNet, its parses kept in pytest's cache folder (a temporary one without the plugin)."""
    cache = getattr(request.config, "cache", None)
    folder = cache.mkdir("wordnet") if cache is not None else tmp_path_factory.mktemp("wordnet-cache")
    return WordNet.from_corpora(corpora, cache_dir=folder)


@corpus
def test_say_is_a_communication_verb(wordnet):
    synsets = wordnet.synsets("say", "v")
    assert synsets[0] == "01011267-v" and "say" in wordnet.members("01011267-v")
    assert wordnet.lexfile("01011267-v") == "verb.communication"
    assert wordnet.synset("01011267-v").pos == "v" and wordnet.synsets("say", "n") == ["14509110-n"]
    assert wordnet.senses("no-such-lemma-here") == []
    with pytest.raises(WordNetError, match="no synset '99999999-v'"):
        wordnet.lexfile("99999999-v")


@corpus
def test_antonyms_and_derivations_of_senses(wordnet):
    reliable = wordnet.senses("reliable", "a")[0]
    assert [s.lemma for s in wordnet.antonyms(reliable.id)] == ["unreliable"]
    assert [s.lemma for s in wordnet.antonyms("unreliable%3:00:00::")] == ["reliable"]
    deny = wordnet.senses("deny", "v")[0]
    assert "denial" in [s.lemma for s in wordnet.derivations(deny.id)]
    assert wordnet.sense("denial%1:10:01::").synset in wordnet.synsets("denial", "n")
    with pytest.raises(WordNetError, match="no sense 'deny%9:99:99::'"):
        wordnet.sense("deny%9:99:99::")


@corpus
def test_hypernyms_hyponyms_and_similar(wordnet):
    elaborate, clarify, explain = "00957633-v", "00941888-v", "00941308-v"
    assert wordnet.hypernyms(elaborate)[explain] == (elaborate, clarify, explain)
    assert explain not in wordnet.hypernyms(elaborate, depth=1)
    lexfiles = ["verb.communication"]
    assert wordnet.hyponyms(explain, lexfiles=lexfiles)[elaborate] == (explain, clarify, elaborate)
    assert elaborate not in wordnet.hyponyms(explain, depth=1, lexfiles=lexfiles)
    head = wordnet.senses("reliable", "a")[0].synset
    satellites = wordnet.similar(head)
    assert satellites and all(head in wordnet.similar(s) and s.endswith("-s") for s in satellites)


@corpus
def test_stance_comes_from_the_nearest_root(wordnet):
    stances = {}
    for candidate in frame_candidates(wordnet, load_seeds()["frames"]):
        stances.setdefault(candidate.word, set()).add(candidate.group)
        assert candidate.synsets[0] in {r["synset"] for r in load_seeds()["frames"]["stances"][candidate.group]}
    assert "ask" in stances["inquire"] and "ask" in stances["request"]
    assert stances["elaborate"] == {"inform"} and stances["clarify"] == {"inform"}
    assert "deny" in stances["refute"] and "deny" in stances["reject"] and "propose" in stances["recommend"]
    assert "say" in stances["state"] and "believe" in stances["believe"] and "confirm" in stances["corroborate"]


@corpus
def test_the_cache_answers_as_a_fresh_parse(corpora, tmp_path):
    def answers(wn):
        return (wn.senses("quote", "v"), wn.synset("00691086-v"), wn.hypernyms("00691086-v"),
                wn.hyponyms("00691086-v", lexfiles=["verb.cognition"]))

    folder = Path(corpora) / WORDNET_DIR
    fresh = answers(WordNet(folder, cache_dir=False))
    cold = WordNet(folder, cache_dir=tmp_path)
    assert answers(cold) == fresh and cold.parsed and cold.cache.written == len(cold.parsed) + 1  # + the index
    warm = WordNet(folder, cache_dir=tmp_path)
    assert answers(warm) == fresh and warm.parsed == [] and warm.cache.read == cold.cache.written
    pickle_file = tmp_path / warm.digest / "entries-q.yaml.pickle"
    pickle_file.write_bytes(b"not a pickle")  # a damaged cache file is parsed again, not trusted
    again = WordNet(folder, cache_dir=tmp_path)
    assert answers(again) == fresh and again.parsed == ["entries-q.yaml"]


def test_malformed_yaml_is_a_one_line_error_naming_the_file(tmp_path):
    (tmp_path / "entries-a.yaml").write_text("able:\n  a:\n    sense: [unclosed\n", encoding="utf8")
    (tmp_path / "verb.odd.yaml").write_text("- just\n- a list\n", encoding="utf8")
    (tmp_path / "entries-b.yaml").write_text("bad:\n  v:\n    sense:\n    - id: 'bad%2:00:00::'\n", encoding="utf8")
    wordnet = WordNet(tmp_path, cache_dir=False)
    for query, file, problem in [(lambda: wordnet.senses("able"), "entries-a.yaml", "not valid YAML (line 4"),
                                 (lambda: wordnet.synsets_in("verb.odd"), "verb.odd.yaml", "not a WordNet synset"),
                                 (lambda: wordnet.senses("bad"), "entries-b.yaml", "without a string id and synset")]:
        with pytest.raises(WordNetError) as caught:
            query()
        message = str(caught.value)
        assert message.startswith(f"[E017] {tmp_path / file}: ") and problem in message and "\n" not in message
    with pytest.raises(WordNetError, match="no WordNet YAML sources"):
        WordNet(tmp_path / "nowhere")


# -- the command and the writer, on a small WordNet written here ---------------------------------------------------

SMALL = {
    "entries-d.yaml": """
        deny:
          v:
            sense:
            - derivation: ['denial%1:10:00::']
              id: 'deny%2:32:00::'
              synset: 00000003-v
        denial:
          n:
            sense:
            - derivation: ['deny%2:32:00::']
              id: 'denial%1:10:00::'
              synset: 00000004-n
        """,
    "entries-s.yaml": """
        say:
          v:
            sense:
            - id: 'say%2:32:00::'
              synset: 00000001-v
        state:
          v:
            sense:
            - id: 'state%2:32:00::'
              synset: 00000001-v
        """,
    "entries-r.yaml": """
        reliable:
          a:
            sense:
            - antonym: ['unreliable%3:00:00::']
              id: 'reliable%3:00:00::'
              synset: 00000005-a
        """,
    "entries-u.yaml": """
        unreliable:
          a:
            sense:
            - id: 'unreliable%3:00:00::'
              synset: 00000006-a
        """,
    "entries-m.yaml": """
        mention:
          v:
            sense:
            - id: 'mention%2:32:00::'
              synset: 00000002-v
        """,
    "verb.communication.yaml": """
        00000001-v:
          definition: [express in words]
          members: [state, say]
          partOfSpeech: v
        00000002-v:
          definition: [make mention of]
          hypernym: [00000001-v]
          members: [mention]
          partOfSpeech: v
        00000003-v:
          definition: [declare untrue]
          members: [deny]
          partOfSpeech: v
        """,
    "noun.communication.yaml": """
        00000004-n:
          definition: [the act of denying]
          members: [denial]
          partOfSpeech: n
        """,
    "adj.all.yaml": """
        00000005-a:
          definition: [worthy of trust]
          members: [reliable, dependable]
          partOfSpeech: a
        00000006-a:
          definition: [not worthy of trust]
          members: [unreliable]
          partOfSpeech: a
        """,
}
SMALL_SEEDS = {
    "frames": {"lexfiles": ["verb.communication"], "depth": 3, "stances": {
        "say": [{"synset": "00000001-v", "lemma": "say", "why": "test"}],
        "deny": [{"synset": "00000003-v", "lemma": "deny", "why": "test"}]}},
    "synonyms": {"relations": ["similar"], "classes": {"degree": {"reliable": "a"}}},
    "antonyms": {"pos": ["a", "r"], "prefixes": ["un", "in"]},
    "derivations": {"pos": ["n", "v", "a"], "relations": ["derivation"]},
}


@pytest.fixture
def small_corpora(tmp_path) -> Path:
    """A corpora folder holding a WordNet of eight words, and seeds for it."""
    folder = tmp_path / "corpora" / WORDNET_DIR
    folder.mkdir(parents=True)
    for name, text in SMALL.items():
        (folder / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf8")
    (tmp_path / "corpora" / "SOURCES.md").write_text("test corpora\n", encoding="utf8")
    (tmp_path / "seeds.json").write_text(json.dumps(SMALL_SEEDS), encoding="utf8")
    return tmp_path / "corpora"


def _run(small_corpora: Path, out: Path):
    """The candidates command on the small WordNet, with no cache."""
    return CliRunner().invoke(app, ["wordnet-candidates", "--corpora", str(small_corpora), "--out", str(out),
                                    "--no-cache", "--seeds", str(small_corpora.parent / "seeds.json")])


def test_the_command_writes_every_extractor_and_the_writer_freezes_a_set(small_corpora, tmp_path):
    out = tmp_path / "candidates"
    result = _run(small_corpora, out)
    assert result.exit_code == 0, result.output
    read = {name: read_candidates(out / f"{name}.json") for name in LABELS}
    assert {name: extractor for name, (extractor, _) in read.items()} == {name: name for name in LABELS}
    frames = {(c.word, c.group, c.relation, c.synsets) for c in read["frames"][1]}
    assert frames == {("state", "say", "root", ("00000001-v",)), ("say", "say", "root", ("00000001-v",)),
                      ("mention", "say", "hyponym", ("00000001-v", "00000002-v")),
                      ("deny", "deny", "root", ("00000003-v",))}
    assert {(c.word, c.group) for c in read["synonyms"][1]} == {("reliable", "reliable.a.01"),
                                                                ("dependable", "reliable.a.01")}
    antonyms = {(c.word, c.group, c.value, c.kind) for c in read["antonyms"][1]}
    assert antonyms == {("reliable", "reliable|unreliable", "unreliable|reliable", "affixal:un-"),
                        ("unreliable", "unreliable|reliable", "reliable|unreliable", "affixal:un-")}
    assert {(c.word, c.group, c.kind) for c in read["derivations"][1]} == {("deny", "deny|denial", "v-n"),
                                                                           ("denial", "deny|denial", "v-n")}
    header = json.loads((out / "frames.json").read_text(encoding="utf8"))
    assert header["commit"] and header["digest"] and header["count"] == 4 and header["groups"] == 2

    lexicon = tmp_path / "lexicon"
    manifest = write_lexicon_set(lexicon, {name: candidates for name, (_, candidates) in read.items()}, "0.0.1")
    words = load_lexicons(lexicon, class_files={class_file(label): label for label in LABELS.values()})
    assert words.version == manifest["version"] == "0.0.1"
    say = words.get("frame:say")
    assert say.value == "say" and {"say", "says", "said", "state", "stated", "mention", "mentioned"} <= set(say.phrases)
    assert say.provenance["source"] == "open-english-wordnet" and say.provenance["relation"] == "hyponym; root"
    assert say.provenance["paths"]["mention"] == ["00000001-v>00000002-v"]
    assert words.get("antonym:reliable|unreliable").value == "antonym:unreliable|reliable"
    assert words.get("derivation:deny|denial").provenance["senses"] == ["denial%1:10:00::", "deny%2:32:00::"]
    with pytest.raises(WordNetError, match="is there already; nothing was written"):
        write_lexicon_set(lexicon, {"frames": read["frames"][1]}, "0.0.2")
    with pytest.raises(WordNetError, match="was not chosen"):
        write_lexicon_set(tmp_path / "half", {"antonyms": read["antonyms"][1][:1]}, "0.0.1")
    assert not (tmp_path / "half").exists()


def test_the_command_never_writes_over_a_file(small_corpora, tmp_path):
    out = tmp_path / "candidates"
    out.mkdir()
    (out / "synonyms.json").write_text("mine\n", encoding="utf8")
    result = _run(small_corpora, out)
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "synonyms.json: is there already; nothing was written" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["synonyms.json"]
    assert (out / "synonyms.json").read_text(encoding="utf8") == "mine\n"


def test_a_root_the_resource_does_not_bear_out_is_refused(small_corpora, tmp_path):
    seeds = json.loads((small_corpora.parent / "seeds.json").read_text(encoding="utf8"))
    seeds["frames"]["stances"]["say"][0]["lemma"] = "shout"
    (small_corpora.parent / "seeds.json").write_text(json.dumps(seeds), encoding="utf8")
    result = _run(small_corpora, tmp_path / "candidates")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "frame root 00000001-v (say): expected 'shout'" in result.output


# -- the admission rule (training/MINING.md, revision 4), on the real gate ----------------------------------------


def test_a_keeper_stays_for_a_net_gain_on_real_edits_and_leaves_for_any_written_cost(tmp_path):
    from factwash_dev.wordnet.admit import Word, admit, gate_builder

    lists = {"FRAME": {w: Word("FRAME", w, "v", {"believe"}) for w in ("consider", "regard")},
             "SYNONYM": {}, "NEGATIVE": {}}
    consistent = [("The flu was deemed a threat to humans.", "The flu was considered a threat to humans.", False, False),
                  ("The road was deemed a danger.", "The road was considered a danger.", False, False),
                  ("The plan was deemed a failure.", "The plan was regarded as a failure.", False, False)]
    inconsistent = [("Bird flu was deemed a threat in Hong Kong.", "Bird flu was considered a threat in Thailand.",
                     True, False),
                    ("The dam was deemed a risk by Leeds.", "The dam was regarded as a risk by York.", True, False)]
    kept, removed = admit(gate_builder(tmp_path), lists, consistent + inconsistent)
    # consider: two consistent edits let pass, one inconsistent edit cost -> kept; regard: one and one -> out
    assert set(kept["FRAME"]) == {"consider"}, removed
    assert [(r["word"], r["pairs"], r["edits_let_pass"]) for r in removed] == [("regard", 1, 1)]
    # a written must-flag pair it lets pass takes it out, whatever it gains on real edits
    written = [("The tax was deemed a success.", "The tax was considered a success.", True, True)]
    lists = {"FRAME": {"consider": Word("FRAME", "consider", "v", {"believe"})}, "SYNONYM": {}, "NEGATIVE": {}}
    kept, removed = admit(gate_builder(tmp_path / "second"), lists, consistent + inconsistent + written)
    assert not kept["FRAME"] and [(r["word"], r["pairs"]) for r in removed] == [("consider", 1)]


def test_the_synonym_seeds_read_a_lemma_as_a_verb_when_any_listed_form_is_inflected():
    """"claim" and "claimed" are both attribution cues: the lemma's verb senses are read whichever form comes first
    (the seeds once depended on the order a set was read in, and so did the mined lists)."""
    from spacy.lookups import load_lookups

    from factwash_dev.wordnet.admit import cue_words, seed_words

    lemmas = load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")
    seeds = seed_words(lemmas)
    for label, phrases in cue_words().items():
        for phrase in phrases:
            lemma = lemmas.get(phrase, phrase)
            if lemma != phrase:
                assert seeds[label.lower()][lemma] == "var", (label, phrase, lemma)
