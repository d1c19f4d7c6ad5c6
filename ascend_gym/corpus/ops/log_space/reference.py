"""numpy reference of the corpus operator log_space (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def log_space(start, end, steps, base):
    # The float32 sequence (torch.logspace's default dtype): its README defines an integer output as
    # that sequence truncated "as torch .to(int)", so 184206.997 (float32 184207.0) gives 184207.
    return np.power(base, np.linspace(start, end, steps)).astype(np.float32)
