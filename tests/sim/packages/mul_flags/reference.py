def mul_flags(x, y):
    return x * y
