"""CumSum holds its sharedTmpBuffer to GetCumSumMaxMinTmpSize's minimum on both engines: along the
last axis both transposes of 16 rows (asc-devkit's CumSum takes 16 rows for each whole minimum
the buffer holds, so under one it steps through none)."""

from __future__ import annotations

from .tmp_minimum import assert_passes_at, assert_refused_under

# [1, 8] floats along the last axis: 16 rows x 8 x 4 bytes, twice.
CALL = "CumSum<float>(norm[32], norm[64], norm[0], tmp, CumSumInfo{1, 8});"
MINIMUM = 1024


def test_a_cumsum_buffer_a_block_under_the_minimum_is_refused_on_both_engines(engines):
    assert_refused_under(engines, CALL, "CumSum", MINIMUM, "GetCumSumMaxMinTmpSize", offset=1024)


def test_a_cumsum_buffer_at_the_minimum_passes_on_both_engines(engines):
    assert_passes_at(engines, [(CALL, MINIMUM, 1024)])
