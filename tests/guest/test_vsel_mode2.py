"""`vsel` mode 2 (SELMODE::VSEL_TENSOR_TENSOR_MODE) on both engines: the bit mask is at the UB
address CMPMASK's low word holds (asc-devkit SetCmpMask: "the LocalTensor holds selMask's address").
The kernel's result depends on every bit, so reading other bits than the ones `vcmpv_ge` wrote is a
wrong answer on level1/add's fp16 and fp32 cases (issue 52: the guest engine read other bits)."""

from __future__ import annotations

import pytest

from .test_raw_pointers import ADD, CCE_ADD, CCE_HEAD, KERNEL, SCRATCH

# The two ways a kernel puts the mask's address in the CMPMASK word: a scalar store of the pointer
# (the library's CPU-debug path) and a vector_dup of its low 32 bits over one block (the A2 path of
# asc-devkit's VselImpl), each made visible to the vector unit before set_cmpmask reads it.
STORE_WORD = """\
    *word = (uint64_t)(uintptr_t)bits;
    const event_t sv = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(sv);
    WaitFlag<HardEvent::S_V>(sv);
"""
DUP_WORD = """\
    set_vector_mask(0, 8);
    vector_dup((__ubuf__ uint32_t*)word, (uint32_t)(uintptr_t)bits, 1, 1, 1, 8, 8);
    PipeBarrier<PIPE_V>();
    set_vector_mask(0, n);
"""
# z = x + y + (vsel(x >= y bits, x, y) - vmax(x, y)): x + y only where each lane's bit is x >= y.
# vcmpv_ge compares every lane of the repeats it is given whatever the counter (the A2's, see
# docs/simulator.md), so it takes the tile's; vsel takes the counter's n lanes, 256 / sizeof(T) bits
# a repeat.
SELECT_BY_BITS = """\
    vcmpv_ge(bits, x, y, (n + 256 / sizeof(DTYPE_Z) - 1) / (256 / sizeof(DTYPE_Z)), 1, 1, 1, 8, 8, 8);
{word}    set_cmpmask(word);
    vsel(m, x, y, 1, 1, 1, 1, 8, 8, 8, 2);
    vmax(z, x, y, 1, 1, 1, 1, 8, 8, 8);
    vsub(m, m, z, 1, 1, 1, 1, 8, 8, 8);
    vadd(z, x, y, 1, 1, 1, 1, 8, 8, 8);
    vadd(z, z, m, 1, 1, 1, 1, 8, 8, 8);
    set_mask_norm();"""


@pytest.mark.parametrize("word", [STORE_WORD, DUP_WORD], ids=["scalar-store", "vector-dup"])
def test_vsel_mode2_selects_by_the_bits_cmpmask_names_on_both_engines(engines, word):
    kernel = KERNEL
    for api, intrinsics in [*SCRATCH, (CCE_ADD, CCE_HEAD + SELECT_BY_BITS.format(word=word))]:
        assert api in kernel
        kernel = kernel.replace(api, intrinsics, 1)
    guest = engines.same(ADD.with_sources(kernel=kernel), rel=0.04)
    # level1/add's cases hold both element types: the bits were read right for each.
    assert {c.name.rsplit("_", 1)[1] for c in guest.cases} >= {"fp16", "fp32"}
