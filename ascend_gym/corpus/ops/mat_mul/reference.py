"""numpy reference of the corpus operator mat_mul (ours): the inputs positionally (complex64 as
numpy complex64, an absent optional input as None); computed in complex128, rounded to complex64
by the checker."""

import numpy as np


def mat_mul(x, y, bias):
    z = np.asarray(x, np.complex128) @ np.asarray(y, np.complex128)
    return z if bias is None else z + np.asarray(bias, np.complex128)
