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
extension values included). The strings of a Doc's tokens are read from one
array of their hashes (``TOKEN_STRINGS``), in the order ``DocBin.add``
reads them token by token: the same set, filled in the same order, so the
same list in the file.
"""

import struct
from typing import Dict, List

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
        super().__init__(*args, **kwargs)

    def add(self, doc: Doc) -> None:
        """Add a Doc's annotations, as ``DocBin.add`` does (same arrays, strings and bytes)."""
        array = doc.to_array(self.attrs)
        if len(array.shape) == 1:
            array = array.reshape((array.shape[0], 1))
        self.tokens.append(array)
        spaces = doc.to_array(SPACY)
        self.spaces.append(numpy.asarray(spaces.reshape((spaces.shape[0], 1)), dtype=bool))
        self.flags.append({"has_unknown_spaces": doc.has_unknown_spaces})
        self.strings.update(token_strings(doc))
        self.cats.append(doc.cats)
        if self.store_user_data:
            self.user_data.append(self.packer.pack(doc.user_data))
        self.span_groups.append(self.span_groups_bytes(doc))

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
        """One span group as ``SpanGroup.to_bytes`` packs it; its spans' label, kb_id and id strings added."""
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


def token_strings(doc: Doc) -> List[str]:
    """The strings ``DocBin.add`` adds for a Doc's tokens (each token's ``TOKEN_STRINGS``), each once, in the order
    it first adds them. A token's morph is read as ``str(token.morph)`` reads it: the empty analysis, kept as
    ``"_"``, is the empty string (hash 0)."""
    hashes = doc.to_array(TOKEN_STRINGS)
    morphs = hashes[:, TOKEN_STRINGS.index(MORPH)]
    morphs[morphs == get_string_id(doc.vocab.morphology.EMPTY_MORPH)] = 0
    strings = doc.vocab.strings
    return [strings[key] for key in dict.fromkeys(hashes.ravel().tolist())]
