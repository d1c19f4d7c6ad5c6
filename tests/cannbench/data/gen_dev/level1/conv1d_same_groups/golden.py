import torch


def conv1d_same_groups(x, weight):
    # two channel groups, taps 2 apart, the output as long as the input, no bias
    return torch.conv1d(x, weight, padding="same", dilation=2, groups=2)
