import torch.nn.functional as F


def smooth_l1_loss(a, b, reduction="mean", beta=1.0):
    return F.smooth_l1_loss(a, b, reduction=reduction, beta=beta)
