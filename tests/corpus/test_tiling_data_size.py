"""A TilingData class's data size as CANN's TilingDef gives it: padded to a multiple of 8 bytes
when its constructor ends (metadef's CheckAlignAndGenPlaceHolder(name "PH", 8)), which real cube
tilings check before they save (`tiling data size[...] is not aligned to 8`), and a struct field at
a multiple of 8 bytes, as CANN's TilingDef places it, on the host and in the kernel's struct alike.
SaveToBuffer writes the padding as zeros and never past its capacity. The host header compiled
with the tiling's flags and run."""

from __future__ import annotations

import subprocess

PROGRAM = r"""
#include <cstdio>
#include <cstring>
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FiveWords)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
TILING_DATA_FIELD_DEF(uint32_t, c);
TILING_DATA_FIELD_DEF(uint32_t, d);
TILING_DATA_FIELD_DEF(uint32_t, e);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(TwoLongs)
TILING_DATA_FIELD_DEF(uint64_t, x);
TILING_DATA_FIELD_DEF(uint64_t, y);
END_TILING_DATA_DEF;
}  // namespace optiling

int main() {
  optiling::FiveWords t;
  t.a = 1, t.e = 5;
  unsigned char buf[32];
  std::memset(buf, 0xAB, sizeof buf);
  t.SaveToBuffer(buf, sizeof buf);
  unsigned e = 0;
  std::memcpy(&e, buf + 16, 4);
  unsigned char small[10];
  std::memset(small, 0xAB, sizeof small);
  t.SaveToBuffer(small, 8);  // a capacity short of the data: the first 8 bytes, no further
  std::printf("%zu %zu %u %d%d%d%d %d %d\n", t.GetDataSize(), optiling::TwoLongs().GetDataSize(), e,
              buf[20], buf[21], buf[22], buf[23], buf[24] == 0xAB, small[8] == 0xAB && small[0] == 1);
}
"""


def test_a_tiling_data_size_is_padded_to_8_bytes(tmp_path):
    from npu_daemon.backends.common import build

    (tmp_path / "t.cpp").write_text(PROGRAM)
    compile_ = ["g++", *build.CANDIDATE_CXXFLAGS, f"-I{build.HOST_INCLUDE_DIR}"]
    subprocess.run([*compile_, "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    # 20 bytes of fields: 24 saved, e at its offset 16, the padding zeros, nothing past 24.
    assert out.split() == ["24", "16", "5", "0000", "1", "1"], out


# A struct field after an odd number of 4-byte fields: CANN places it at the next multiple of 8
# (and the nested class's size is its padded one), where natural alignment would give 4 and 16.
NESTED = r"""
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint32_t, p);
TILING_DATA_FIELD_DEF(uint32_t, q);
TILING_DATA_FIELD_DEF(uint32_t, r);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Outer)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);
TILING_DATA_FIELD_DEF(uint32_t, b);
END_TILING_DATA_DEF;
}  // namespace optiling

int main() {
  std::printf("%zu %zu %zu %zu", offsetof(optiling::Outer, inner), offsetof(optiling::Outer, b),
              sizeof(optiling::Inner), sizeof(optiling::Outer));
#ifndef ASCENDC_SIM_KERNEL
  optiling::Outer o;
  o.a = 7, o.inner.r = 9, o.b = 5;
  unsigned char buf[40];
  std::memset(buf, 0xAB, sizeof buf);
  o.SaveToBuffer(buf, sizeof buf);
  int zeros = 0;
  for (int k : {4, 5, 6, 7, 20, 21, 22, 23, 28, 29, 30, 31}) zeros += buf[k] == 0;
  std::printf(" %d %d %d %zu", buf[0], buf[24], zeros, o.GetDataSize());
#endif
  std::printf("\n");
}
"""


def test_a_struct_field_sits_at_a_multiple_of_8_on_host_and_kernel(tmp_path):
    from npu_daemon.backends.common import build

    (tmp_path / "t.cpp").write_text(NESTED)
    compile_ = ["g++", *build.CANDIDATE_CXXFLAGS, f"-I{build.HOST_INCLUDE_DIR}"]
    outs = []
    for side, flags in (("host", []), ("kernel", ["-DASCENDC_SIM_KERNEL"])):
        subprocess.run([*compile_, *flags, "t.cpp", "-o", side], cwd=tmp_path, check=True)
        run = subprocess.run([str(tmp_path / side)], capture_output=True, text=True, check=True)
        outs.append(run.stdout.split())
    # inner at 8 (4 bytes of placeholder after a), b after inner's 16 padded bytes, 32 in all.
    assert outs[1] == ["8", "24", "16", "32"], outs
    # The host saves a and b at those offsets, every padding byte a zero, 32 bytes of data.
    assert outs[0] == ["8", "24", "16", "32", "7", "5", "12", "32"], outs
