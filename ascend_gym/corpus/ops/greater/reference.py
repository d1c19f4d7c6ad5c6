"""numpy reference of the corpus operator greater (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def greater(x1, x2):
    return x1 > x2
