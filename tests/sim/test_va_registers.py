"""The VA registers of the scatter transpose (asc-devkit asc_set_va_reg / asc_transto5hd, the A2
library's TransDataTo5HDImpl): set_va_reg_sb loads eight UB addresses into a register, and
scatter_vnchwconv_b16 / _b32 take 16 destinations from a register and the next, 16 sources the
same way, against numpy and the list form; registers it cannot read stop the kernel."""

import numpy as np
import pytest
from conftest import UB_HELPERS

# VA4/VA5 the destinations (blocks of o), VA6/VA7 the sources (blocks of a), as add_layer_norm sets
# them; the list form writes the same transpose a second time into o[256:].
B16 = """Ub ub; LocalTensor<half> a = ub.In<half>(x, 256), o = ub.Alloc<half>(512);
  SYNC();
  uint64_t d[16], s[16], dl[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = (uint64_t)o[16 * i].GetPhyAddr(); s[i] = (uint64_t)a[16 * i].GetPhyAddr();
    dl[i] = (uint64_t)o[256 + 16 * i].GetPhyAddr();
  }
  set_va_reg_sb(VA4, d); set_va_reg_sb(VA5, d + 8); set_va_reg_sb(VA6, s); set_va_reg_sb(VA7, s + 8);
  scatter_vnchwconv_b16(VA4, VA6, 1, 0, 0);
  TransDataTo5HD<half>(dl, s, TransDataTo5HDParams(false, false, 1, 0, 0));
  SYNC(); ub.Out(z, o, 512);"""


def test_b16_transposes_the_blocks_its_registers_name(kernel):
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    run = kernel(B16, {"x": x}, {"z": ("float16", (2, 16, 16))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(run.outputs["z"][0], x.T)
    np.testing.assert_array_equal(run.outputs["z"][1], x.T)


def test_b32_repeats_make_nc1hwc0(kernel):
    # test_transdata's NCHW -> NC1HWC0 recipe (4 repeats, dst stride 16, src stride 1) from VA0-VA3.
    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 512), o = ub.Alloc<float>(512);
  SYNC();
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) { d[i] = (uint64_t)o[8 * i].GetPhyAddr(); s[i] = (uint64_t)a[32 * i].GetPhyAddr(); }
  set_va_reg_sb(VA0, d); set_va_reg_sb(VA1, d + 8); set_va_reg_sb(VA2, s); set_va_reg_sb(VA3, s + 8);
  scatter_vnchwconv_b32(VA0, VA2, 4, 16, 1);
  SYNC(); ub.Out(z, o, 512);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (32, 16))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z, x.T)


@pytest.mark.parametrize(
    "old,new,words",
    [
        ("scatter_vnchwconv_b16(VA4, VA6", "scatter_vnchwconv_b16(VA7, VA6", "no VA8 after it"),
        (
            "s[i] = (uint64_t)a[16 * i].GetPhyAddr();",
            "s[i] = (uint64_t)a[16 * i + 1].GetPhyAddr();",
            "32 B",
        ),
        ("s[i] = (uint64_t)a[16 * i].GetPhyAddr();", "s[i] = (uint64_t)1 << 40;", "not in the UB"),
    ],
)
def test_a_register_it_cannot_read_stops_the_kernel(kernel, old, new, words):
    assert old in B16
    x = np.zeros((16, 16), np.float16)
    run = kernel(
        B16.replace(old, new), {"x": x}, {"z": ("float16", (2, 16, 16))}, prelude=UB_HELPERS
    )
    assert run.status == "RUNTIME_ERROR" and words in run.message, run.message
