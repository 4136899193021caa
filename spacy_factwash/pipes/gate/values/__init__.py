"""Values and times as the gate reads them: numbers with units in base units (``quantities.py``, which reads them
through quantulum3's fence, ``quantulum.py``), and the value of a time expression (``timex.py``)."""
