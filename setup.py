"""The package's compiled passes: Cython over spaCy's Doc, built with the package (``pip install .``). Everything
else about the package (metadata, dependencies, data, entry points) is in pyproject.toml."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# each a loop over a Doc's tokens in C (spaCy's Doc struct, cimported): what the components would otherwise do a
# Python call per token for
COMPILED = {
    "spacy_factwash.lexicon.passes": "spacy_factwash/lexicon/passes.pyx",
    "spacy_factwash.syntax.token_passes": "spacy_factwash/syntax/token_passes.pyx",
    "spacy_factwash.pipes.lemmas.table": "spacy_factwash/pipes/lemmas/table.pyx",
}

setup(ext_modules=cythonize(
    [Extension(name, [source], language="c++", include_dirs=[numpy.get_include()])
     for name, source in COMPILED.items()],
    compiler_directives={"language_level": 3},
))
