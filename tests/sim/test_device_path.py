"""Kernels compile the device's path: `__CCE_KT_TEST__` (a kernel's CPU unit-test path) is not
defined, and the host launch wrappers kernel files carry (`op<<<blockDim, l2ctrl, stream>>>(...)`)
compile without being run."""

import numpy as np
from conftest import UB_HELPERS

from npu_daemon.backends.common.kernel_view import without_launches


def test_launch_chevrons_become_plain_calls():
    src = "void op_do(uint32_t n, void* s, GM_ADDR x) { op<half><<<n, nullptr, s>>>(x, y); }\n"
    assert (
        without_launches(src) == "void op_do(uint32_t n, void* s, GM_ADDR x) { op<half>(x, y); }\n"
    )
    assert without_launches("a = b << c; d = e >> f;") == "a = b << c; d = e >> f;"


def test_kernels_take_the_device_path_and_keep_their_launch_wrappers(kernel):
    prelude = (
        UB_HELPERS
        + """
#ifdef __CCE_KT_TEST__
constexpr float kPath = 1.0f;  // the CPU unit-test path
#else
constexpr float kPath = 2.0f;  // the device's
#endif
__aicore__ void unused_kernel(GM_ADDR z) { (void)z; }
void unused_kernel_do(uint32_t blockDim, void* l2ctrl, void* stream, GM_ADDR z) {
  unused_kernel<<<blockDim, l2ctrl, stream>>>(z);
}
"""
    )
    body = """Ub ub; LocalTensor<float> o = ub.Alloc<float>(8);
  Duplicate(o, kPath, 8);
  SYNC(); ub.Out(z, o, 8);"""
    z = kernel(body, {}, {"z": ("float32", (8,))}, prelude=prelude).ok().outputs["z"]
    np.testing.assert_array_equal(z, 2.0)
