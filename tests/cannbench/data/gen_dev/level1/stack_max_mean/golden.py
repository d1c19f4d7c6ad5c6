import torch


def stack_max_mean(a, b, c):
    stacked = torch.stack([a, b, c], dim=0)
    return stacked.amax(dim=0) + stacked.mean(dim=0)
