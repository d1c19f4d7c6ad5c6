import torch.nn.functional as F


def one_hot(t, num_classes=10):
    return F.one_hot(t, num_classes)
