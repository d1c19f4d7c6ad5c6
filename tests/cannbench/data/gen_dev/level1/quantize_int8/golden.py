import torch


def quantize_int8(x, scale=16.0):
    return torch.clamp(torch.round(x * scale), -128, 127).to(torch.int8)
