import numpy as np

from ascend_core.suite.cube_ref import mmad


def cce_conv(x, w, bias, e):
    # img2col: output position oh * 6 + ow reads tap (kh * 3 + kw) * 16 + c of the map padded by 1.
    xp = np.pad(x, ((1, 1), (1, 1), (0, 0)))
    cols = np.stack([xp[i : i + 3, j : j + 3, :].reshape(-1) for i in range(6) for j in range(6)])
    # PAD_MODE8 keeps the low 16 B (8 halves) of each 32 B block of the bias input.
    y = mmad(cols, w.T) + bias[:, :8].reshape(16).astype(np.float32)
    return y, mmad(y.astype(np.float16), e)
