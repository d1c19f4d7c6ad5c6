import numpy as np


def matmul(a, b, cores, groups, base_m, base_n, base_k, step_k):
    """C = A x B (float64, rounded once), as c1_matmul's reference: the cases are checked to the suite
    tolerance; the bit-exact order is tested on small shapes (tests/sim/test_cube*.py)."""
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
