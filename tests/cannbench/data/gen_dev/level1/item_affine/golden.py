def item_affine(x, scale, bias):
    return x * scale.item() + bias.item()
