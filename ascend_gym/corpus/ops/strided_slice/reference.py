"""numpy reference of the corpus operator strided_slice (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""


def strided_slice(x, start1, start2, end1, end2, stride1, stride2):
    return x[start1:end1:stride1, start2:end2:stride2]
