import torch.nn.functional as F


def adaptive_avg_pool1d(x):
    return F.adaptive_avg_pool1d(x, 8)
