def sub_quesync(x, y):
    return x - y
