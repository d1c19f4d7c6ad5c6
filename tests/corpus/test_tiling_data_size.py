"""A TilingData class's data size as CANN's TilingDef gives it: padded to a multiple of 8 bytes
when its constructor ends (metadef's CheckAlignAndGenPlaceHolder(name "PH", 8)), which real cube
tilings check before they save (`tiling data size[...] is not aligned to 8`). The fields keep
their offsets; SaveToBuffer writes the padding as zeros and never past its capacity. The host
header compiled with the tiling's flags and run."""

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
