import torch


def sum_keepdim(x, dim=-1, keepdim=True):
    return torch.sum(x, dim=dim, keepdim=keepdim)
