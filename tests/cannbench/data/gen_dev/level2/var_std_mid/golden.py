import torch


def var_std_mid(x):
    var = torch.var(x, dim=1, correction=0, keepdim=True)
    std = torch.std(x, dim=1)
    return var, std
