"""numpy reference of the corpus operator bernoulli_mask (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def bernoulli_mask(mask, output_shape, mask_aliases_out):
    n = int(np.prod(output_shape))
    return np.unpackbits(mask.astype(np.uint8), bitorder="little")[:n].reshape(output_shape)
