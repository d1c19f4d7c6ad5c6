"""The sum intrinsic `vcadd` and the toolkit's kernel log header on the guest engine, each in
level1/add's kernel: the native engine's verdict and simulated latency on both."""

from __future__ import annotations

from ascend_core.suite import resolve

from .test_raw_pointers import CCE_ADD, CCE_HEAD, KERNEL, SCRATCH

ADD = resolve("level1/add")

# z = x + y by vadd, then vcadd over the first two lanes of each repeat into the scratch: the scalar
# unit checks each repeat's sum against its own of the same two lanes (one rounding either way)
# and keeps z only if every one matches.
CCE_VCADD = (
    CCE_ADD,
    CCE_HEAD
    + """\
    vadd(z, x, y, 1, 1, 1, 1, 8, 8, 8);
    const uint32_t lanes = 256 / sizeof(DTYPE_Z), repeats = (n + lanes - 1) / lanes;
    set_mask_norm();
    set_vector_mask(0, 3);
    pipe_barrier(PIPE_V);
    vcadd(m, z, repeats, 1, 1, 8);
    const event_t vs = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    bool ok = true;
    for (uint32_t r = 0; r < repeats; ++r)
      ok = ok && m[r] == DTYPE_Z(static_cast<float>(z[r * lanes]) + static_cast<float>(z[r * lanes + 1]));
    set_mask_count();
    set_vector_mask(0, n);
    vmuls(z, z, DTYPE_Z(ok ? 1.0f : 0.0f), 1, 1, 1, 8, 8);
    set_mask_norm();""",
)


def test_vcadd_matches_the_native_engine(engines):
    kernel = KERNEL
    for api, intrinsics in [*SCRATCH, CCE_VCADD]:
        assert api in kernel
        kernel = kernel.replace(api, intrinsics, 1)
    # Its per-row check is a scalar loop through raw UB pointers, counted in each engine's own
    # unit (x86 instructions, fuel; docs/trust_boundary.md, Scalar cost per engine): 5 % apart.
    engines.same(ADD.with_sources(kernel=kernel), rel=0.08)


def test_kernel_log_and_utils_headers_and_assert_msg(engines):
    # The toolkit's internal headers by name, and a message assert that holds.
    entry = "  GET_TILING_DATA(tilingData, tiling);\n"
    assert entry in KERNEL
    kernel = '#include "kernel_log.h"\n#include "kernel_utils.h"\n' + KERNEL.replace(
        entry,
        entry
        + '  ASSERT_MSG(tilingData.tileLength > 0, "tile length %u", tilingData.tileLength);\n',
        1,
    )
    engines.same(ADD.with_sources(kernel=kernel))
