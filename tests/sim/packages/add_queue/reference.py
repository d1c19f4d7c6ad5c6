def add_queue(x, y):
    return x + y
