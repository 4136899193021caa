"""Values and times as the gate reads them: numbers with units in base units (quantulum3, fenced here), and the value of a time expression."""
