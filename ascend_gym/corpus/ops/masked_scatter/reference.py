"""numpy reference of the corpus operator masked_scatter (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def masked_scatter(x, mask, updates):
    y = x.copy().reshape(-1)
    m = mask.reshape(-1).astype(bool)
    y[m] = updates.reshape(-1)[: int(m.sum())]
    return y.reshape(x.shape)
