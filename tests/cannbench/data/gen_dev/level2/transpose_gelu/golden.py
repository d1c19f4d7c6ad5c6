import torch.nn.functional as F


def transpose_gelu(x, scale=1.0):
    return F.gelu(x.float().transpose(-1, -2) * scale).to(x.dtype)
