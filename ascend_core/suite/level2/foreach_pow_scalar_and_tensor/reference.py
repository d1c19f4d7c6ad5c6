import numpy as np


def foreach_pow_scalar_and_tensor(x0, x1, x2, scalar: float = 2.0):
    return tuple(np.power(float(scalar), x.astype(np.float64)) for x in (x0, x1, x2))
