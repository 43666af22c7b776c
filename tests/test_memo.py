"""calculators/memo.py: a cache keyed by the identity of unhashable arguments."""

from __future__ import annotations

from calculators.memo import by_identity


def test_same_objects_hit_and_equal_but_other_objects_miss():
    calls = []

    @by_identity(maxsize=4)
    def total(values, scale=1):
        calls.append(1)
        return sum(values["xs"]) * scale

    a, b = {"xs": [1, 2]}, {"xs": [1, 2]}      # unhashable, equal, distinct
    assert total(a) == 3 and total(a) == 3 and len(calls) == 1
    assert total(b) == 3 and len(calls) == 2        # another object: computed for it
    assert total(a, scale=2) == 6 and len(calls) == 3


def test_the_cache_is_bounded():
    @by_identity(maxsize=2)
    def ident(x):
        return x
    keep = [[i] for i in range(5)]
    for x in keep:
        ident(x)
    assert len(ident.cache) <= 2
