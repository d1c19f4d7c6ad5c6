def muls_int_attr(x, factor=2, offset=0):
    return x * factor + offset
