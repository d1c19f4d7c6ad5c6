"""numpy reference of gemm_v2 (ours). GemmV2: alpha and beta are one-element tensors."""

import numpy as np


def gemm_v2(a, b, alpha, beta, c, transpose_a, transpose_b):
    af = np.asarray(a, np.float64)
    bf = np.asarray(b, np.float64)
    ab = (af.T if transpose_a else af) @ (bf.T if transpose_b else bf)
    return float(alpha.reshape(-1)[0]) * ab + float(beta.reshape(-1)[0]) * np.asarray(c, np.float64)
