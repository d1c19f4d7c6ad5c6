"""GM data a kernel declares itself (`__gm__` globals: ops-math diag_v2's constant tables), which
the device loads with the binary into GM: the guest engine lays them out in one image of the
module (guest_ir.gm_data), the host maps a copy of it as one more GM buffer of the launch, and every
access is a launch buffer's, checked and charged (docs/trust_boundary.md)."""

from __future__ import annotations

import re

import pytest

from ascend_core.protocol import Status
from npu_daemon.backends.sim import guest_ir

from .test_raw_pointers import ADD, KERNEL, emit_ir, linked_imports

# Distinct indices, so that a table read as zeros (or as anything but its initializer) gathers the
# wrong elements.
INDEX = "constexpr __gm__ uint32_t kIndex[64] = {" + ", ".join(map(str, range(64))) + "};\n"
LOOP = "    for (uint32_t done = 0; done < blockLength; done += tileLength) {"
# Block 0's first 64 elements gathered through the table, read both as a raw __gm__ pointer's
# elements and through a GlobalTensor over it (diag_v2's form), the bits moved as integers.
HEAD = """\
    using XBits = std::conditional_t<sizeof(DTYPE_X) == 2, uint16_t, uint32_t>;
    __gm__ XBits* xRaw = (__gm__ XBits*)xGm.GetPhyAddr();
    __gm__ XBits* yRaw = (__gm__ XBits*)yGm.GetPhyAddr();
    __gm__ XBits* zRaw = (__gm__ XBits*)zGm.GetPhyAddr();
    GlobalTensor<uint32_t> indexGm;
    indexGm.SetGlobalBuffer((__gm__ uint32_t*)kIndex, 64);
    const uint32_t raw = GetBlockIdx() == 0 && blockLength >= 64 ? 64 : 0;
    for (uint32_t i = 0; i < raw; ++i) {
      XBits a = xRaw[kIndex[i]], b = yRaw[indexGm.GetValue(i)], c;
      DTYPE_X x, y;
      std::memcpy(&x, &a, sizeof a);
      std::memcpy(&y, &b, sizeof b);
      const DTYPE_Z z = static_cast<DTYPE_Z>(static_cast<float>(x) + static_cast<float>(y));
      std::memcpy(&c, &z, sizeof c);
      zRaw[i] = c;
    }
    PipeBarrier<PIPE_ALL>();
    for (uint32_t done = raw; done < blockLength; done += tileLength) {"""


def test_gm_globals_become_one_image_at_constant_gm_addresses(clang, tmp_path):
    ir = emit_ir(
        '#include "kernel_operator.h"\n'
        "static const __gm__ int table[4] = {1, 2, 3, 4};\n"
        "constexpr __gm__ int16_t halves[3] = {7, 8, 9};\n"
        "__gm__ float written[3];\n"
        'extern "C" void kern(GM_ADDR y, int i) {\n'
        "  ((__gm__ int*)y)[0] = table[i & 3] + halves[i % 3];\n"
        "  written[i % 3] = 1.0f;\n"
        "}\n",
        tmp_path,
    )
    rewritten = guest_ir.rewrite(ir)
    image = next(
        line for line in rewritten.splitlines() if line.startswith(f"@{guest_ir.GM_DATA} ")
    )
    # Declaration order, each at a 32 B block (or its own alignment, if larger), after the header.
    assert (
        "[4 x i32] [i32 1, i32 2, i32 3, i32 4]" in image
        and "[3 x i16] [i16 7, i16 8, i16 9]" in image
    )
    addresses = sorted(
        (int(a) + (1 << 32))
        for a in re.findall(r"inttoptr \(i32 (-\d+) to \[\d+ x \w+\] addrspace\(7\)\*\)", rewritten)
    )
    assert addresses[0] == guest_ir.GM_DATA_BASE and all(a % 32 == 0 for a in addresses)
    assert re.search(r"^@(_ZL5table|_ZL6halves|written) =", rewritten, re.MULTILINE) is None
    assert {m for m, _ in linked_imports(rewritten, tmp_path)} == {"ascendc"}
    # The image's header, as the host reads it: the bytes of the data after it (its fields' sizes).
    fields = guest_ir.split_top(image[image.index("<{ ") + 3 : image.index(" }>")])
    assert fields[:2] == ["i32", f"[{guest_ir.GM_DATA_HEAD - 4} x i8]"]
    data = sum(guest_ir._size(f) for f in fields[2:])
    assert f"<{{ i32 {data}, [{guest_ir.GM_DATA_HEAD - 4} x i8] zeroinitializer," in image
    assert data - (max(addresses) - guest_ir.GM_DATA_BASE) in (12, 16, 6)  # the last global's bytes


def test_a_global_in_ub_is_refused_at_build(clang, tmp_path):
    # UB is the API's to allocate (TPipe): no binary loads data into it.
    ir = emit_ir(
        '#include "kernel_operator.h"\n'
        "__ubuf__ int scratch[4];\n"
        'extern "C" void kern(GM_ADDR y, int i) { ((__gm__ int*)y)[0] = scratch[i & 3]; }\n',
        tmp_path,
    )
    with pytest.raises(guest_ir.RawAccessError, match="a global in __ubuf__"):
        guest_ir.rewrite(ir)


def gathered(head: str) -> str:
    assert LOOP in KERNEL
    return "#include <cstring>\n#include <type_traits>\n" + INDEX + KERNEL.replace(LOOP, head, 1)


def test_a_kernel_reading_its_gm_table_passes_and_pays_for_the_reads(engines):
    # The guest engine alone: the native engine has the table as a plain global of kernel.so
    # (docs/simulator.md, GM a kernel declares itself).
    table = engines.guest_only(ADD.with_sources(kernel=gathered(HEAD)))
    assert table.status is Status.OK and all(c.passed for c in table.cases), table.message
    # The same head with the indices computed: the table's 128 GM reads are what it adds.
    direct = HEAD.replace("kIndex[i]", "i").replace("indexGm.GetValue(i)", "i")
    computed = engines.guest_only(ADD.with_sources(kernel=gathered(direct)))
    assert computed.status is Status.OK, computed.message
    assert table.profile.aiv_scalar_time_us > computed.profile.aiv_scalar_time_us


def test_a_read_past_the_gm_table_is_a_runtime_error(engines):
    # 64 words of table, one page of GM: index 4096 lies past the buffer's pages.
    past = HEAD.replace("indexGm.GetValue(i)", "indexGm.GetValue(i + 4096)")
    result = engines.guest_only(ADD.with_sources(kernel=gathered(past)))
    assert result.status is Status.RUNTIME_ERROR and "no GM buffer" in result.message, (
        result.message
    )
