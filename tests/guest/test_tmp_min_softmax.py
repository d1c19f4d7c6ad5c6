"""The SoftMax family's sharedTmpBuffer minima and isReuseSource on both engines: SoftmaxGrad,
SoftmaxFlash and SoftmaxFlashV2 hold their buffer to one row of their helpers' words
(GetSoftMaxGradMinTmpSize, GetSoftMaxFlashMinTmpSize, GetSoftMaxFlashV2MinTmpSize); SoftMax's isReuseSource crosses to the emulation, sizing its
minimum by the flag, and a lent float source is left as asc-devkit's A2 SingleSoftMaxImpl leaves
it: exp(x - the row's max)."""

from __future__ import annotations

import pytest

from ascend_core.protocol import Status

from .tmp_minimum import add_package, assert_passes_at, assert_refused_under, with_tmp

ROW = "SoftMaxTiling st{}; const SoftMaxShapeInfo shape{1, 16, 1, 16}; "
# (api, call, minimum, helper): one row of 16 floats, the buffer from byte 1,536.
CALLS = [
    # Two blocks of statistics, the row and 64 words: 96 floats.
    (
        "SoftmaxGrad",
        ROW + "SoftmaxGrad<float>(norm[128], norm[0], norm[64], tmp, st, false, shape);",
        384,
        "GetSoftMaxGradMinTmpSize",
    ),
    # SoftmaxFlash without update: a block, the row and 64 words, 88 floats.
    (
        "SoftmaxFlash",
        ROW
        + "SoftmaxFlash<float>(norm[256], norm[320], norm[328], norm[0], norm[336], norm[344], norm[352],"
        " tmp, st, false, shape);",
        352,
        "GetSoftMaxFlashMinTmpSize",
    ),
    # Float statistics of a float source: a block and 64 words, 72 floats.
    (
        "SoftmaxFlashV2",
        ROW
        + "SoftmaxFlashV2<float, true>(norm[256], norm[320], norm[328], norm[0], norm[336], norm[344],"
        " norm[352], tmp, st, shape);",
        288,
        "GetSoftMaxFlashV2MinTmpSize",
    ),
]


@pytest.mark.parametrize(("api", "call", "minimum", "helper"), CALLS, ids=[c[0] for c in CALLS])
def test_a_softmax_buffer_a_block_under_the_minimum_is_refused_on_both_engines(
    engines, api, call, minimum, helper
):
    assert_refused_under(engines, call, api, minimum, helper, offset=1536)


def test_softmax_buffers_at_the_minimum_pass_on_both_engines(engines):
    assert_passes_at(engines, [(call, minimum, 1536) for _, call, minimum, _ in CALLS])


# SoftMax of one row of 64 floats (set again each tile: a lent one is the library's after the call),
# 2 first and 1 after. Its least buffer: without isReuseSource the A2's helper's (a block, the row and
# 64 floats: 544 bytes; ours gives 576), with it ours (one float copy of the row and 64 bytes: 320).
# After the call the kernel multiplies its sums by src[0] x src[1] x e: 2 when the source is its own,
# 1 (exp(0) x exp(-1) x e) when the library took its exponentials there.
# The row at norm[0], its softmax at norm[128], sum and max at norm[192] and norm[200], the buffer
# from byte 1,024.
SOFTMAX = (
    "Duplicate(norm[0], 1.0f, 64); PipeBarrier<PIPE_ALL>(); norm.SetValue(0, 2.0f); PipeBarrier<PIPE_ALL>(); "
    "SoftMaxTiling st{{}}; "
    "SoftMax<float, {reuse}>(norm[128], norm[192], norm[200], norm[0], tmp, st, SoftMaxShapeInfo{{1, 64, 1, 64}});"
)
KEEP_SOURCE = (
    "    PipeBarrier<PIPE_ALL>();\n"
    "    const float kept = norm.GetValue(0) * norm.GetValue(1) * 2.7182818f;\n"
    "    Muls(zLocal, zLocal, kept, (len + alignElems - 1) / alignElems * alignElems);\n"
)


def test_softmax_sizes_its_minimum_by_is_reuse_source(engines):
    plain = SOFTMAX.format(reuse="false")
    assert_refused_under(
        engines, plain, "SoftMax", 544, "the A2's GetSoftMaxMinTmpSize", offset=1024
    )
    assert_passes_at(engines, [(SOFTMAX.format(reuse="true"), 320, 1024)])


@pytest.mark.parametrize(("reuse", "status"), [("true", Status.OK), ("false", Status.WRONG_ANSWER)])
def test_a_lent_softmax_source_holds_the_exponentials(engines, reuse, status):
    kernel = add_package(with_tmp(SOFTMAX.format(reuse=reuse), 1024, 576) + KEEP_SOURCE)
    for result in engines.both(kernel):
        assert result.status is status, (result.status, result.message)
