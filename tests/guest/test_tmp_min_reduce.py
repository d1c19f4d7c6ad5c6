"""The pattern reductions hold their sharedTmpBuffer to their helpers' size for the call's
isReuseSource (asc-devkit's A2 reduce_tiling.cpp: the maximum and the minimum one number,
reduce_tmp_sizes.h) on both engines; with the flag the library works in the source, which the call
leaves undefined (0xFF bytes: a NaN), and the buffer may be as small as the flag's size."""

from __future__ import annotations

from ascend_core.protocol import Status

from .tmp_minimum import add_package, assert_passes_at, assert_refused_under, with_tmp

# ReduceSum over [2, 128] of norm's ones (AR): a float binary split of the rows, 2 x 64 x 4 bytes;
# with isReuseSource none. The buffer from byte 1,536.
SHAPE = "const uint32_t shape[2] = {2, 128}; "
PLAIN = SHAPE + "ReduceSum<float, Pattern::Reduce::AR>(norm[256], norm[0], tmp, shape, true);"
REUSED = (
    SHAPE + "ReduceSum<float, Pattern::Reduce::AR, true>(norm[256], norm[0], tmp, shape, true);"
)
MINIMUM = 512
# The kernel's sums multiplied by the source's first value after the call.
KEEP_SOURCE = (
    "    PipeBarrier<PIPE_ALL>();\n"
    "    Muls(zLocal, zLocal, norm.GetValue(0), (len + alignElems - 1) / alignElems * alignElems);\n"
)


def test_a_reduction_buffer_a_block_under_the_minimum_is_refused_on_both_engines(engines):
    assert_refused_under(
        engines, PLAIN, "ReduceSum", MINIMUM, "GetReduceSumMaxMinTmpSize", offset=1536
    )


def test_a_reduction_buffer_at_the_minimum_passes_on_both_engines(engines):
    assert_passes_at(engines, [(PLAIN, MINIMUM, 1536)])


def test_a_lent_source_needs_no_buffer_and_is_left_undefined(engines):
    # With isReuseSource the helper gives 0 bytes: a 32-byte buffer is not refused, and a kernel
    # that goes on using the source gets a result the device does not give (its partial sums are
    # there); without the flag the source is its own.
    lent = add_package(with_tmp(REUSED, 1536, 32) + KEEP_SOURCE)
    for result in engines.both(lent):
        assert result.status is Status.WRONG_ANSWER, (result.status, result.message)
    kept = add_package(with_tmp(PLAIN, 1536, MINIMUM) + KEEP_SOURCE)
    for result in engines.both(kept):
        assert result.status is Status.OK, (result.status, result.message)
