import torch.nn.functional as F


def hardswish(x):
    return F.hardswish(x)
