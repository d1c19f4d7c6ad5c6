import torch


def addmm_tanh_scale(bias, mat1, mat2, scale):
    h = torch.addmm(bias, mat1.float(), mat2.float())
    return torch.tanh(h) * scale
