import torch


def index_select_last(x, idx):
    return torch.index_select(x, -1, idx)
