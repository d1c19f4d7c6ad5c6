def mean_mid(x, dim=1):
    return x.mean(dim=dim)
