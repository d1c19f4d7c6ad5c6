import torch


def any_dim(x, dim=-1, keepdim=False):
    return torch.any(x > 1.5, dim=dim, keepdim=keepdim)
