"""The checks, each a small function from an aligned claim pair to the changes it finds.

A pair is a memory claim and the source claim it aligned to (``align.py``),
with both Docs' claims beside them for the checks that look further (a
condition that became a stated fact elsewhere in the memory). Each module
holds one concern:

- ``qualifiers``: a hedge, attribution or time bound to the source claim and
  to no part of the memory claim;
- ``polarity``: negation cues, negative words and antonyms, counted per claim;
- ``values``: numbers with their units, nouns, bounds, approximators and
  directions;
- ``times``: the value of a time, its relation (until, since) and era
  (former, current);
- ``conditions``: a condition dropped, changed, or stated as a fact;
- ``sources``: the speaker or stance of an attribution changed;
- ``strength``: a correlation or possible cause stated as a cause;
- the claim record's parts (``records.py``): ``certainty`` (a hedge's
  rank), ``mood``, ``quantity`` (quantifiers, frequency, partiality),
  ``restriction``, ``comparison``, ``roles`` and ``tense``.
"""

from .base import Pair
from .certainty import check_certainty
from .comparison import check_comparison
from .conditions import check_conditions
from .mood import check_mood
from .quantity import check_quantity
from .restriction import check_restriction
from .roles import check_roles
from .tense import check_tense
from .polarity import check_polarity
from .qualifiers import check_attribution, check_temporal_scope
from .sources import check_sources
from .strength import check_strength
from .times import check_times
from .values import check_values

CHECKS = (check_attribution, check_certainty, check_temporal_scope, check_polarity, check_values, check_times, check_conditions,
          check_sources, check_strength, check_mood, check_quantity, check_restriction, check_comparison, check_roles,
          check_tense)

__all__ = ["CHECKS", "Pair"]
