def permute_heads(x):
    return x.permute(0, 2, 1, 3).contiguous()
