"""What both backends stand on: the SoC presets, how a kernel sees its op, the host tiling build.

Nothing here imports a backend; the sim and cann backends import from here and never each other.
"""
