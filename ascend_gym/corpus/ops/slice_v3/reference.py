"""numpy reference of the corpus operator slice_v3 (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def slice_(x, begin, size):
    return x[tuple(slice(int(b), int(b) + int(s)) for b, s in zip(begin, size))]
