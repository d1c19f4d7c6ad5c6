def dequant_scale(x, scale, offset):
    return ((x.float() + offset) * scale).half()
