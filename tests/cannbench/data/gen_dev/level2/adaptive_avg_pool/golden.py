import torch.nn.functional as F


def adaptive_avg_pool(x):
    return F.adaptive_avg_pool2d(x, 1)
