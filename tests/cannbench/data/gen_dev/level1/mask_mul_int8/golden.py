def mask_mul_int8(x, mask):
    return x * mask.to(x.dtype)
