from __future__ import annotations

import random

import pytest

from ascend_core import tune

SOURCE = """constexpr uint32_t BLOCK_DIM = 40;      // @tune block_dim in [1, 48] step 1
constexpr uint32_t TILE_LENGTH = 4096u;  // @tune tile_length in [256, 16384] pow2
constexpr uint32_t OTHER = 7;
"""


def test_find_and_set_tunables():
    found = {t.name: t for t in tune.find_tunables(SOURCE)}
    assert set(found) == {"block_dim", "tile_length"}
    assert found["tile_length"].value == 4096 and found["tile_length"].mode == "pow2"
    assert found["block_dim"].neighbours() == {"x2": 48, "/2": 20, "+step": 41, "-step": 39}
    out = tune.set_value(SOURCE, "tile_length", 9000)  # clamped to a power of two
    assert "TILE_LENGTH = 8192u;" in out and "BLOCK_DIM = 40;" in out
    assert "BLOCK_DIM = 48;" in tune.set_value(SOURCE, "block_dim", 100)
    with pytest.raises(KeyError):
        tune.set_value(SOURCE, "missing", 1)


def test_the_markers_read_again_are_the_same_and_the_callers_own():
    first = tune.find_tunables(SOURCE)
    first.clear()  # a caller's list: the cached markers stay whole
    assert [t.name for t in tune.find_tunables(SOURCE)] == ["block_dim", "tile_length"]
    assert tune.find_tunables(SOURCE.replace("// @tune", "//")) == []
    empty = "constexpr int X = 4;  // @tune x in [8, 2] step 1\n"
    for _ in range(2):  # raised on every read, not cached away
        with pytest.raises(ValueError, match="empty range"):
            tune.find_tunables(empty)


def test_random_mutation_changes_exactly_one_number():
    new, note = tune.random_mutation(SOURCE, random.Random(3))
    diff = [(a, b) for a, b in zip(SOURCE.splitlines(), new.splitlines()) if a != b]
    assert len(diff) == 1 and "->" in note
