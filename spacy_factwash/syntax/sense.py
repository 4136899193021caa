"""Cue sense from a parse: the right word in the wrong sense is not a cue.

A word list cannot tell "the results suggest that X" (a hedge) from "he
suggests four products" (an offer), "Alice stated that" from "the state of
Texas", or "this could explain it" from "we could detect it". A tagger and a
dependency parser can. When a cue's token carries a tag and a dependency
(any spaCy pipeline with a tagger and a parser: ``spacy_factwash.load(parse=True)``,
or a user's ``en_core_web_sm``), the hedge and attribution detectors ask this
module from their ``keep`` hooks; without a parse nothing here runs and the
cues are exactly those of the word lists.

The words each rule applies to are data, in the frozen lists of
``lexicons/sense/`` (same format, manifest and checks as the cue lexicons; a table set: the
cue component carries it, and every pipeline of a process reads one version, ``lexicon/tables.py``):

- ``verbal.jsonl``: words that are cues only as verbs. A noun or adjective
  use ("the state", "an insurance claim", "the proposed site") counts only
  with a content clause ("the claim that ...").
- ``clausal.jsonl``: verbs that report only with a clausal complement
  ("added that"), a quotation in the sentence, or a source construction
  ("as noted"); over a noun object or nothing they do not ("added salt",
  "heard a noise").
- ``propositional.jsonl``: verbs that hedge only over a proposition: a
  clausal complement ("indicate that"), a source construction ("as
  suggested"), or a noun object that states one through its argument
  ("suggest a role for p53", "indicate the presence of"); not over a plain
  noun object ("suggests flexible payment options") or nothing ("as
  indicated in Fig. 2").
- ``modifier.jsonl``: words that are cues only as adjectives or adverbs
  ("potential role", "potentially"); their noun use is not ("the membrane
  potential").
- ``ability.jsonl``: verbs that read as ability, not possibility, under
  "could" ("we could detect", "could be isolated").

Which words go in which list was chosen on the corpora's dev halves only.
Dependency labels are compared without their Universal Dependencies subtype
(``parse.relation``), so the ClearNLP labels of spaCy's English pipelines and
the UD labels of the shipped parser both work.
"""

from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Optional, Tuple, Union

from spacy.tokens import Doc, Token

from ..lexicon.frozen import LexiconSet, load_set
from ..lexicon.matcher import Match
from ..lexicon.sets import LABELS, SENSE, SENSE_FILES
from ..lexicon.tables import installed
from .parse import relation

# a clause under a verb (ClearNLP and UD names): "said that ...", "urged him to ...", "it is suggested that ..."
CLAUSE_DEPS = frozenset({"ccomp", "xcomp", "csubj", "csubjpass", "parataxis"})
# a verb attached to the clause it reports: "'...', he said" (UD parataxis), "X, it appears, ..." (ClearNLP)
REPORTING_ATTACHMENTS = frozenset({"parataxis"})
QUOTES = frozenset({'"', "“", "”", "''", "``", "«", "»"})
CONTENT_MARKS = frozenset({"that", "whether", "if"})
FIRST_PERSON = frozenset({"we", "i"})


def load_sense(path: Optional[Union[str, Path]] = None, verify: bool = True) -> LexiconSet:
    """The sense lists (the packaged ones when ``path`` is None), verified against their manifest."""
    return load_set(SENSE, path, verify=verify)


def is_verb(token: Token) -> bool:
    """A verb used as a verb: a VB* tag, and not a participle modifying a noun ("the proposed site")."""
    return token.tag_.startswith("VB") and relation(token) != "amod"


def has_clause(token: Token) -> bool:
    """Whether a clause hangs from the token ("said that ...", "appears to ...")."""
    return any(relation(child) in CLAUSE_DEPS for child in token.children)


def has_content_clause(token: Token) -> bool:
    """Whether a noun takes a content clause: "the claim that ...", "reports that ..."."""
    return has_clause(token) or any(
        relation(child) == "acl" and any(relation(m) == "mark" and m.lower_ in CONTENT_MARKS for m in child.children)
        for child in token.children
    )


def in_quotation(token: Token) -> bool:
    """Whether the token's sentence holds a quotation mark (a reporting verb next to what it reports)."""
    return any(t.text in QUOTES for t in token.sent)


def is_source_construction(token: Token) -> bool:
    """ "As noted", "as the CEO said": the verb points at the main clause's claim through "as"."""
    return any(relation(child) == "mark" and child.lower_ == "as" for child in token.children)


def states_proposition(noun: Token) -> bool:
    """A noun object that states a proposition through a prepositional argument: "a role for X", "the presence of Y"."""
    return any(relation(child) in ("nmod", "prep", "acl") for child in noun.children)


def proposes(token: Token) -> bool:
    """Whether a verb hedges a proposition: a clause, a source construction, or a noun object that states one."""
    return (has_clause(token) or relation(token) in REPORTING_ATTACHMENTS or is_source_construction(token)
            or any(relation(child) in ("obj", "dobj") and states_proposition(child) for child in token.children))


def reports(token: Token) -> bool:
    """Whether a verb reports or hedges a proposition: a clause, a quotation, or a source construction."""
    return (has_clause(token) or relation(token) in REPORTING_ATTACHMENTS or in_quotation(token)
            or is_source_construction(token))


# the rules that read the cue's own word ("the *suggested* route"); the ability rule reads the verb under "could"
CUE_WORD_RULES = ("MODIFIER", "VERBAL", "CLAUSAL", "PROPOSITIONAL")


class SenseRules:
    """The sense rules over one set of sense lists.

    A list entry's id names the rule, the cue class and the word
    (``clausal:attribution:added``): a word's sense rule applies to the cues
    of one class only ("suggested" may lose its hedge and keep its report).
    """

    def __init__(self, lists: LexiconSet) -> None:
        self.version = lists.version
        self.words: Dict[Tuple[str, str], FrozenSet[str]] = {}
        for rule in SENSE_FILES.values():
            for label in LABELS:
                self.words[(rule, label)] = frozenset(
                    phrase.lower() for entry in lists.for_label(rule)
                    if entry.id.split(":")[1] == label.lower() for phrase in entry.phrases)
        # the words of each label that are no cue right after a determiner (``neighbour_sense``): its verbal words,
        # the modals for hedges, "said"/"reported"/"alleged" for attributions
        self.nominal_uses: Dict[str, FrozenSet[str]] = {
            label: self.words[("VERBAL", label)] | (MODALS if label == "HEDGE" else frozenset())
            | (NOUN_USES if label == "ATTRIBUTION" else frozenset()) for label in LABELS}
        # the words whose one-word cues of each label ``keeps`` reads the parse for: the words of its rules on the
        # cue word, and "could" where the label has an ability rule (whose list is of the verbs "could" governs)
        self.parsed_words: Dict[str, FrozenSet[str]] = {
            label: frozenset().union(*(self.words[(rule, label)] for rule in CUE_WORD_RULES))
            | (frozenset({"could"}) if self.words[("ABILITY", label)] else frozenset()) for label in LABELS}

    def reads_parse(self, word: str, label: str) -> bool:
        """Whether ``keeps`` can tell a one-word cue of ``label`` on a token whose lower-case form is ``word`` from
        the parse (``parsed_words``): a cue of any other word holds its sense whatever the parse says."""
        return word in self.parsed_words[label]

    def keeps(self, token: Token, label: str) -> bool:
        """Whether a one-word cue of ``label`` on a parsed token holds its sense."""
        word = token.lower_
        if word in self.words[("MODIFIER", label)] and token.tag_.startswith("NN"):
            return False
        if word in self.words[("VERBAL", label)] and not is_verb(token):
            return has_content_clause(token)
        if word in self.words[("CLAUSAL", label)] and is_verb(token) and not reports(token):
            return False
        if word in self.words[("PROPOSITIONAL", label)] and is_verb(token) and not proposes(token):
            return False
        if word == "could" and token.head.lower_ in self.words[("ABILITY", label)]:
            return not uses_ability(token)
        return True


def uses_ability(modal: Token) -> bool:
    """ "could" over a verb in the passive ("could be detected") or with a first-person subject ("we could see")."""
    verb = modal.head
    return any(child.dep_ in ("auxpass", "aux:pass") or (relation(child) == "nsubj" and child.lower_ in FIRST_PERSON)
               for child in verb.children)


@lru_cache(maxsize=1)
def installed_rules() -> SenseRules:
    """The rules over the sense lists this process reads (the cue component's, ``lexicon/tables.py``), built once
    per process (on the first parsed cue)."""
    return SenseRules(installed(SENSE.name))


def holds_sense(doc: Doc, cue: Match, label: str) -> bool:
    """The detectors' hook: a one-word cue on a token with a tag and a dependency must hold its sense.

    A Doc the tagger and parser annotated has both on every token, so the
    cue's own token tells whether there is a parse, at no cost per Doc. The
    neighbouring words are read with or without a parse, so a parse only
    ever removes cues; a cue of several words is kept as the word lists
    resolved it.
    """
    token = doc[cue.start]
    if cue.end - cue.start != 1:
        return True
    if not neighbour_sense(doc, cue.start, label):
        return False  # a parse only removes cues: what the neighbouring words rule out stays out ("that said")
    return not (token.tag and token.dep) or installed_rules().keeps(token, label)


DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her", "our", "my",
                         "your", "'s", "’s", "many", "most", "some", "several", "few", "numerous", "various",
                         "multiple", "both", "each", "every", "all", "no", "any"})
MODALS = frozenset({"might", "may", "could", "can", "must", "will", "should"})
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})


def neighbour_sense(doc: Doc, i: int, label: str) -> bool:
    """Without a parse, the neighbouring words: a word that is a cue only as a verb (``verbal.jsonl``), or a modal,
    right after a determiner, a quantifier or a possessive is a noun or a modifier there ("the suspect", "the might of the
    river", "the said contract"), unless a content clause follows it ("the claim that ..."); a modal after a
    demonstrative is a verb ("This may cause outages")."""
    if i == 0 or doc[i - 1].lower_ not in DETERMINERS:
        return True
    word, after = doc[i].lower_, doc[i + 1].lower_ if i + 1 < len(doc) else ""
    if word in MODALS and doc[i - 1].lower_ in DEMONSTRATIVES:
        return True  # "This may cause outages": a demonstrative before a modal is its subject
    return not (word in installed_rules().nominal_uses[label] and after not in CONTENT_MARKS)


NOUN_USES = frozenset({"said", "reported", "alleged"})  # "the said contract", "the reported bug"
