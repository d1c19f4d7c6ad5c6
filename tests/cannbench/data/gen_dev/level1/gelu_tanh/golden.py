import torch.nn.functional as F


def gelu_tanh(x, approximate="tanh"):
    return F.gelu(x, approximate=approximate)
