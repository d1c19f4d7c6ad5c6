"""The count forms of the vector API and DataCopy on the guest engine: suite kernels built on them
get the native engine's verdict and simulated latency."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("uri", ["level1/add", "level1/exp", "level1/leaky_relu"])
def test_suite_kernels_match_the_native_engine(engines, uri):
    engines.same(uri)
