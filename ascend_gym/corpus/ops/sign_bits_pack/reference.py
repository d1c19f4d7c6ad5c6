"""numpy reference of the corpus operator sign_bits_pack (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def sign_bits_pack(x, size):
    # README / its test's golden: bit j of byte i is x[8 i + j] >= 0
    return np.packbits(x >= 0, bitorder="little").reshape(size, -1)
