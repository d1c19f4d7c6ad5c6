def row_scale_unsqueeze(x, s):
    return x * s.unsqueeze(-1)
