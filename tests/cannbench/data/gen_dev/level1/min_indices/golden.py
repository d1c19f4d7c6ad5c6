import torch


def min_indices(x):
    values, indices = torch.min(x, dim=-1, keepdim=True)
    return values, indices
