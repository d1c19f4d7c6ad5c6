import copy

import torch


def copy_empty_like(x):
    y = torch.empty_like(x)
    y.copy_(x * 2 + 1)
    z = copy.deepcopy(x)
    z.mul_(3)
    return y, z
