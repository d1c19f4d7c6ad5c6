def repeat_tile(x):
    return x.repeat(1, 4)
