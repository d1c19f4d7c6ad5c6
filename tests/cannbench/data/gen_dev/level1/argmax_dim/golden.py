import torch


def argmax_dim(x, dim=-1, keepdim=False):
    return torch.argmax(x, dim=dim, keepdim=keepdim)
