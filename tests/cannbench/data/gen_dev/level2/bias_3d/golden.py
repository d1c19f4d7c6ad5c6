def bias_3d(x, b):
    return x + b
