"""A spaCy ``DocBin`` that packs its Docs with one msgpack packer: the DocBin a corpus run writes per partition.

``DocBin.add`` packs a Doc's ``user_data`` and each of its span groups with
``srsly.msgpack_dumps``, and every such call builds a new packer, which
looks its encoders up in srsly's ``msgpack_encoders`` registry: catalogue
scans the installed entry points and its whole registry each time, five
times for a Doc of the default pipeline (its user data, three span groups
and the map of them), which cost several times annotating it
(``bench-scale`` prints both). ``PackedDocBin`` resolves the encoders once,
when it is made (``srsly.msgpack.Packer``), and packs every Doc with that
packer: the same bytes, so the file is a plain ``DocBin`` file
(``DocBin().from_disk(path).get_docs(vocab)`` reads it back, user data and
extension values included). A Doc's token attributes, spaces and the
hashes of its tokens' strings (``TOKEN_STRINGS``) are read in one array, and
only the strings of hashes the DocBin has not met are looked up: the same
set of strings as ``DocBin.add`` keeps token by token, so the same sorted
list in the file. An empty span group is packed once per name.
"""

import struct
from typing import Dict, List, Set, Tuple

import numpy
from spacy.attrs import DEP, ENT_ID, ENT_KB_ID, ENT_TYPE, LEMMA, MORPH, NORM, ORTH, SPACY, TAG
from spacy.strings import get_string_id
from spacy.tokens import Doc, DocBin, SpanGroup
from srsly.msgpack import Packer

SPAN_LAYOUT = ">QQQllll"  # how SpanGroup.to_bytes packs a span: id, kb_id, label, start, end, start_char, end_char
# the hashes of the strings DocBin.add keeps of each token, in its order: text, tag_, lemma_, norm_, morph, dep_,
# ent_type_, ent_kb_id_, ent_id_
TOKEN_STRINGS = [ORTH, TAG, LEMMA, NORM, MORPH, DEP, ENT_TYPE, ENT_KB_ID, ENT_ID]


class PackedDocBin(DocBin):
    """A ``DocBin`` whose ``add`` packs with the packer made with it (encoders resolved once); its bytes are
    those ``DocBin.add`` would have made."""

    def __init__(self, *args, **kwargs) -> None:
        self.packer = Packer(use_bin_type=True)  # what srsly.msgpack_dumps packs with, made once
        self.empty_groups: Dict[str, bytes] = {}  # an empty span group's bytes, by its name (a Doc's few names)
        self.hashes: Tuple[Set[str], Set[int]] = (set(), set())  # the strings set, and its tokens' string hashes
        super().__init__(*args, **kwargs)

    def add(self, doc: Doc) -> None:
        """Add a Doc's annotations, as ``DocBin.add`` does (same arrays, strings and bytes), from one array of the
        Doc's token attributes, their spaces and the hashes of their strings (``TOKEN_STRINGS``)."""
        count = len(self.attrs)
        columns = doc.to_array(self.attrs + [SPACY] + TOKEN_STRINGS)
        self.tokens.append(numpy.ascontiguousarray(columns[:, :count]))
        self.spaces.append(numpy.asarray(columns[:, count:count + 1], dtype=bool))
        self.flags.append({"has_unknown_spaces": doc.has_unknown_spaces})
        self.add_token_strings(doc, columns[:, count + 1:])
        self.cats.append(doc.cats)
        if self.store_user_data:
            self.user_data.append(self.packer.pack(doc.user_data))
        self.span_groups.append(self.span_groups_bytes(doc))

    def add_token_strings(self, doc: Doc, hashes: numpy.ndarray) -> None:
        """Add the strings of a Doc's tokens (``string_hashes``) that the DocBin lacks: those of the hashes it has
        not added before, while its strings are the set it added them to (the file lists them sorted, so the
        order they are added in is not in it)."""
        if self.hashes[0] is not self.strings:  # strings set anew (``from_bytes``): what was added is forgotten
            self.hashes = (self.strings, set())
        added = self.hashes[1]
        new = string_hashes(doc, hashes) - added
        added |= new
        self.strings.update(doc.vocab.strings[key] for key in new)

    def span_groups_bytes(self, doc: Doc) -> bytes:
        """A Doc's span groups as ``SpanGroups.to_bytes`` packs them (each group's bytes mapped to its keys),
        adding the strings of their spans as ``DocBin.add`` does."""
        if not doc.spans:
            return self.packer.pack([])  # SpanGroups' bytes for no group
        groups: Dict[bytes, List[str]] = {}
        for key, group in doc.spans.items():
            groups.setdefault(self.span_group_bytes(group), []).append(key)
        return self.packer.pack(groups)

    def span_group_bytes(self, group: SpanGroup) -> bytes:
        """One span group as ``SpanGroup.to_bytes`` packs it; its spans' label, kb_id and id strings added. An empty
        group without attributes is packed once per name."""
        if not len(group) and not group.attrs:
            if group.name not in self.empty_groups:
                self.empty_groups[group.name] = self.packer.pack({"name": group.name, "attrs": {}, "spans": []})
            return self.empty_groups[group.name]
        strings, spans = group.doc.vocab.strings, []
        for span in group:
            self.strings.add(span.label_)
            if span.kb_id in strings:
                self.strings.add(span.kb_id_)
            if span.id in strings:
                self.strings.add(span.id_)
            spans.append(struct.pack(SPAN_LAYOUT, span.id, span.kb_id, span.label, span.start, span.end,
                                     span.start_char, span.end_char))
        return self.packer.pack({"name": group.name, "attrs": group.attrs, "spans": spans})


def string_hashes(doc: Doc, hashes: numpy.ndarray) -> Set[int]:
    """The hashes of the strings ``DocBin.add`` adds for a Doc's tokens, read from their ``TOKEN_STRINGS`` columns
    (``hashes``, changed here). A token's morph is read as ``str(token.morph)`` reads it: the empty analysis, kept
    as ``"_"``, is the empty string (hash 0)."""
    morphs = hashes[:, TOKEN_STRINGS.index(MORPH)]
    morphs[morphs == get_string_id(doc.vocab.morphology.EMPTY_MORPH)] = 0
    return set(hashes.ravel().tolist())
