import numpy as np

from ascend_core.suite.cube_ref import mmad


def cube_from_gm(a, b):
    # a: fractal (i, k) of A at index 2 i + k (zZ); b: fractal (k, j) of B at index 2 j + k (nZ).
    full_a = np.block([[a[0], a[1]], [a[2], a[3]]])
    full_b = np.block([[b[0], b[2]], [b[1], b[3]]])
    return mmad(full_a, full_b)
