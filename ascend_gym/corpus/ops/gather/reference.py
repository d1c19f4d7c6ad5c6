"""numpy reference of the corpus operator gather (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def gather(x1, indices, validate_indices, batch_dims, is_preprocessed, negative_index_support):
    return x1[indices]
