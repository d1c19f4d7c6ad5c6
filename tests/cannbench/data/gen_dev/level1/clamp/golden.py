import torch


def clamp(x, min_val=-1.0, max_val=1.0):
    return torch.clamp(x, min=min_val, max=max_val)
