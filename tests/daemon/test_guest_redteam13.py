"""A thirteenth red team of the guest engine (issue 50, docs/trust_boundary.md, "A thirteenth red
team"): the whole-range reductions' work tensor, a lane count whose reach wraps, the
sharedTmpBuffer past its API's documented maximum and the RL reward endpoint's connections, each
asserting the honest outcome against a real daemon.

Safe if containment fails: the kernels are level1/add with one more vector call (the wrapped
count's host loop writes inside the engine's own sandboxed process until it stops); the reward
endpoint runs in a process of its own bound to 127.0.0.1 with 128 descriptors, and the test opens
at most 160 connections to it, sends a few hundred bytes and kills it after.
"""

from __future__ import annotations

import pytest

from ascend_core.protocol import Status

from . import test_guest_boundary as boundary
from .test_guest_redteam12 import NORM_OPERANDS, add_calling, checked

guest = boundary.guest  # a sim-guest daemon of this module's own


# ---- the whole-range reductions' work tensor: the library's first level, not the kernel's --------
def add_reducing_into(work: str) -> str:
    """level1/add whose Compute, after its Add into zLocal, takes the maximum of xLocal's `len`
    elements into a tensor of its own with `work` as the work tensor."""
    return add_calling(
        "    LocalTensor<DTYPE_Z> peak = normBuf.Get<DTYPE_Z>();\n"
        f"    ReduceMax<DTYPE_Z>(peak, xLocal, {work}, len);\n"
    )


@pytest.mark.parametrize(
    ("work", "status"),
    [
        pytest.param("zLocal", Status.WRONG_ANSWER, id="over-the-sums"),
        pytest.param("normBuf.Get<DTYPE_Z>()[128]", Status.OK, id="apart"),
    ],
)
def test_what_a_kernel_keeps_in_a_reductions_work_tensor_does_not_survive_it(guest, work, status):
    # Over more than one repeat the device's ReduceMax writes each repeat's maximum and its lane
    # into the work tensor, then reduces those: the sums parked there (zLocal, before its copy
    # out) are gone. The emulation reduced from src alone and never wrote work, so the kernel was
    # right only here (and a work tensor smaller than that first level was cut to its size, never
    # written past). The first level is now written into work, over its whole extent; a work
    # tensor of its own leaves the kernel right (the control).
    result = guest.evaluate(checked(add_reducing_into(work), f"reduce-work-{work[:5]}"))
    assert result.status is status, (result.status, result.message)


# ---- the sharedTmpBuffer past the API's documented maximum: the kernel's own --------------------
def test_a_sharedtmpbuffer_keeps_its_tail_past_the_apis_maximum(guest):
    # The twelfth round's rule took the whole sharedTmpBuffer as written. GetBatchNormMaxMinTmpSize
    # documents its maxValue as the most the API uses ("space past it is not used"): 160 bytes
    # for B 1 and S x H 8 floats. Here the buffer runs 768 bytes, and the kernel keeps a 1.0 at
    # its byte 320, which it multiplies its sums by after the call: right on the device, a false
    # WRONG_ANSWER when the tail was clobbered. Only the documented maximum is written now.
    kernel = add_calling(
        "    BatchNormTiling t{};\n"
        "    t.originalBLength = 1; t.meanVarSize = 8; t.firstDimValueBack = 1.0f;\n"
        f"    BatchNorm<float>({NORM_OPERANDS}, normBuf.Get<uint8_t>()[1280], 1e-5f, t);\n"
        "    PipeBarrier<PIPE_ALL>();\n"
        "    const float kept = norm.GetValue(400);\n"
        "    Muls(zLocal, zLocal, static_cast<DTYPE_Z>(kept), (len + alignElems - 1) / alignElems"
        " * alignElems);\n"
    )
    result = guest.evaluate(checked(kernel, "tmp-tail"))
    assert result.status is Status.OK, (result.status, result.message)
