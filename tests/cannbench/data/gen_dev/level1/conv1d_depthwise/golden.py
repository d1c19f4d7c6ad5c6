import torch.nn.functional as F


def conv1d_depthwise(x, weight, bias):
    # one filter per channel (groups = channels), zeros on both sides: a short causal-style filter
    return F.conv1d(x, weight, bias, padding=3, groups=x.shape[1])
