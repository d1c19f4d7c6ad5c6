"""numpy reference of the corpus operator sync_batch_norm_gather_stats (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _f(x):
    return np.asarray(x, np.float64)


def sync_batch_norm_gather_stats(
    total_sum, total_square_sum, sample_count, mean, variance, momentum, eps
):
    n = _f(sample_count).sum()
    batch_mean = _f(total_sum).sum(axis=0) / n
    batch_var = _f(total_square_sum).sum(axis=0) / n - batch_mean**2
    running_mean = _f(mean) * (1.0 - momentum) + momentum * batch_mean
    running_var = _f(variance) * (1.0 - momentum) + momentum * batch_var * n / (n - 1.0)
    return batch_mean, 1.0 / np.sqrt(batch_var + eps), running_mean, running_var
