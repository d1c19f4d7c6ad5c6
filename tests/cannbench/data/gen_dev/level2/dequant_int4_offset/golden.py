import torch

SHIFTS = torch.arange(0, 32, 4, dtype=torch.int64)  # nibble k of a word in bits 4k..4k+3


def get_input(x, scale, offset=None, **attrs):
    """int32 x holds int4 values [-8, 7]: packed eight to a word along the last axis."""
    if x.dtype == torch.int32:
        nibbles = (x.to(torch.int64) & 0xF).reshape(*x.shape[:-1], x.shape[-1] // 8, 8)
        words = (nibbles << SHIFTS).sum(-1)
        x = torch.where(words >= 2**31, words - 2**32, words).to(torch.int32)
    return [x, scale, offset]


def dequant_int4_offset(x, scale, offset=None):
    if x.dtype == torch.int32:  # unpacked to int8 [.., 8n]
        nibbles = (x.to(torch.int64).unsqueeze(-1) >> SHIFTS) & 0xF
        nibbles = torch.where(nibbles > 7, nibbles - 16, nibbles)
        x = nibbles.reshape(*x.shape[:-1], x.shape[-1] * 8).to(torch.int8)
    y = x.to(torch.float32)
    if offset is not None:
        y = y + offset.to(torch.float32)
    return (y * scale.to(torch.float32)).to(torch.bfloat16)
