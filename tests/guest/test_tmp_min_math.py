"""The element-wise math APIs round 19 left without a helper in the tree (Asin, Acos, Atan, Tan,
the hyperbolic functions and their inverses, Trunc, Frac) hold their sharedTmpBuffer to the
minimum of their helpers as asc-devkit's A2 tiling gives it (math_tmp_sizes.h kLiveNodes: one
256-byte repeat a live buffer) on both engines."""

from __future__ import annotations

import pytest

from .tmp_minimum import assert_passes_at, assert_refused_under

# (api, live float buffers): 8 floats of norm's ones, the buffer from byte 1,024.
APIS = [("Asin", 2), ("Tan", 4)]


def call(api: str) -> str:
    return f"{api}<float>(norm[0], norm[128], tmp, 8);"


@pytest.mark.parametrize(("api", "nodes"), APIS, ids=[a for a, _ in APIS])
def test_a_math_buffer_a_block_under_the_minimum_is_refused_on_both_engines(engines, api, nodes):
    assert_refused_under(
        engines, call(api), api, 256 * nodes, f"Get{api}MaxMinTmpSize", offset=1024
    )


def test_math_buffers_at_the_minimum_pass_on_both_engines(engines):
    assert_passes_at(engines, [(call(api), 256 * nodes, 1024) for api, nodes in APIS])
