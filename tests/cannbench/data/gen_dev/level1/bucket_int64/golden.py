import torch


def bucket_int64(x, offset, width=0.25):
    return torch.floor(x / width).long() + offset
