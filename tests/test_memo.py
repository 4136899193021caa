"""``memo.cached``: a property worked out at its first read of each instance, kept in the instance, read again
only after it is deleted there."""

from spacy_factwash.memo import cached


class Counted:
    """An instance that counts how often its property is worked out."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.reads = 0

    @cached
    def doubled(self) -> int:
        """Twice the base."""
        self.reads += 1
        return 2 * self.base


def test_a_cached_value_is_worked_out_once_per_instance_and_kept_in_it():
    first, second = Counted(2), Counted(5)
    assert (first.doubled, first.doubled, second.doubled) == (4, 4, 10)
    assert (first.reads, second.reads) == (1, 1)
    assert first.__dict__["doubled"] == 4  # later reads find it there, without the descriptor


def test_deleting_the_kept_value_makes_the_next_read_work_it_out_again():
    counted = Counted(3)
    assert counted.doubled == 6
    del counted.doubled
    counted.base = 4
    assert (counted.doubled, counted.reads) == (8, 2)


def test_the_class_attribute_is_the_descriptor_with_the_function_s_name_and_doc():
    assert isinstance(Counted.doubled, cached)
    assert (Counted.doubled.name, Counted.doubled.__doc__) == ("doubled", "Twice the base.")
