"""numpy reference of the corpus operator sign_bits_unpack (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def sign_bits_unpack(self):
    # its test's golden and kernel: 1.0 for a set bit, -1.0 for a clear one
    return np.unpackbits(self.astype(np.uint8), bitorder="little") * 2.0 - 1.0
