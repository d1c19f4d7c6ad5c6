import torch


def dequant_optional_offset(x, scale, offset=None):
    y = x.to(torch.float32)
    if offset is not None:
        y = y + offset.to(torch.float32)
    return (y * scale.to(torch.float32)).to(torch.float16)
