"""numpy reference of the corpus operator scnrm2 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _strided(x, n, incx):
    return np.asarray(x)[: n * incx : incx]


def scnrm2(x, n, incx):
    z = _strided(x, n, incx).astype(np.complex128)
    return np.array([np.sqrt((z.real**2 + z.imag**2).sum())])
