"""Kernel APIs the hicann/ops-math experimental operators (a to l) use: Acos, and the library
headers they include by path (adv_api/math/*.h, adv_api/pad/broadcast.h)."""

import numpy as np
from conftest import UB_HELPERS

N = 256


def test_acos_with_and_without_a_shared_buffer(kernel):
    s = np.random.default_rng(3).uniform(-1, 1, N).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> b = ub.In<float>(x, {N}), o = ub.Alloc<float>(2 * {N});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  Acos(o, b, {N}); Acos(o[{N}], b, tmp, {N});
  SYNC(); ub.Out(z, o, 2 * {N});"""
    prelude = '#include "adv_api/math/acos.h"\n#include "adv_api/pad/broadcast.h"\n' + UB_HELPERS
    z = kernel(body, {"x": s}, {"z": ("float32", (2, N))}, prelude=prelude).ok().outputs["z"]
    np.testing.assert_allclose(z, np.broadcast_to(np.arccos(s), (2, N)), rtol=1e-6, atol=1e-6)
