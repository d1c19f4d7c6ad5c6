import torch.nn.functional as F


def gelu_erf(x):
    return F.gelu(x)
