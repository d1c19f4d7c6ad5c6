def scale_bias_view(x, scale, bias):
    return x * scale.view(1, -1) + bias.view(1, -1)
