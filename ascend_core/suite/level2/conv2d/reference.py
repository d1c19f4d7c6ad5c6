import numpy as np

from ascend_core.suite.cube_ref import matmul_f16


def conv2d(x, w, stride, pad):
    # img2col with k = (kh * KW + kw) * C + c, the order of LoadData 3D v2 (docs/simulator.md).
    n, h, wd, c = x.shape
    cout, kh, kw, _ = w.shape
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    taps = [
        xp[:, i : i + stride * (oh - 1) + 1 : stride, j : j + stride * (ow - 1) + 1 : stride, :]
        for i in range(kh)
        for j in range(kw)
    ]
    cols = np.stack(taps, axis=3).reshape(n * oh * ow, kh * kw * c)
    return matmul_f16(cols, w.reshape(cout, -1).T).reshape(n, oh, ow, cout)
