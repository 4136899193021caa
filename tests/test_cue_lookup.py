"""The gate finds the pipeline's cue component (for its evidentials) without reading ``nlp.pipeline`` at every
comparison, and finds it again whenever the pipeline's components change: removed, disabled, replaced, added."""

import spacy_factwash
from spacy_factwash.pipes.gate.component import cue_component


def test_the_gate_finds_the_cue_component_again_when_the_pipeline_changes():
    """Disabling, enabling, removing and adding the cue component: the gate's evidentials are what a fresh look
    through the pipeline (``cue_component``) gives, at each step."""
    nlp = spacy_factwash.load()
    gate = nlp.get_pipe("factwash_compare")
    found = gate.evidentials
    assert found and gate._cue_component() is cue_component(nlp) is nlp.get_pipe("factwash_cues")
    nlp.disable_pipe("factwash_cues")
    assert cue_component(nlp) is None and gate._cue_component() is None and gate.evidentials == frozenset()
    nlp.enable_pipe("factwash_cues")
    assert gate._cue_component() is nlp.get_pipe("factwash_cues") and gate.evidentials == found
    removed = nlp.remove_pipe("factwash_cues")[1]
    assert gate._cue_component() is None and gate.evidentials == frozenset()
    nlp.add_pipe("factwash_cues", before="factwash_strength")
    fresh = nlp.get_pipe("factwash_cues")
    assert fresh is not removed and gate._cue_component() is fresh is cue_component(nlp)
    assert gate.evidentials == found


def test_the_gate_finds_a_replaced_cue_component():
    """A cue component replaced under the same name (``nlp.replace_pipe``) is the one the gate reads."""
    nlp = spacy_factwash.load()
    gate = nlp.get_pipe("factwash_compare")
    old = gate._cue_component()
    nlp.replace_pipe("factwash_cues", "factwash_cues")
    assert gate._cue_component() is nlp.get_pipe("factwash_cues") is not old
