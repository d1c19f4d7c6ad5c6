import torch


def cat_mid(x, y):
    return torch.cat((x, y), dim=1)
