"""numpy reference of the corpus operator scatter_sub (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def _scatter_rows(var, indices, updates, combine):
    out = var.copy()
    for i, row in enumerate(indices):
        out[row] = combine(out[row], updates[i])
    return out


def scatter_sub(var, indices, updates, use_locking):
    return _scatter_rows(var, indices, updates, lambda a, b: (a - b).astype(var.dtype))
