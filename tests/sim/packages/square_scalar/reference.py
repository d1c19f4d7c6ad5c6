def square_scalar(x):
    return x * x
