def channel_affine(x, weight, bias):
    return (x.float() * weight.float().view(1, -1, 1, 1) + bias.float().view(1, -1, 1, 1)).to(
        x.dtype
    )
