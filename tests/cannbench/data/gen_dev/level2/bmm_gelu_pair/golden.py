import torch
import torch.nn.functional as F


def bmm_gelu_pair(a, b):
    h = torch.bmm(a, b)
    return h, F.gelu(h)
