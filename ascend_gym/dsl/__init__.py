"""A Python-embedded tile DSL for AscendC vector operators, and its lowering to packages.

See docs/generate.md for the language reference. `lang` is the front end (what programs call),
`lower` turns a checked kernel and its spec into a complete operator package.
"""

from ascend_gym.dsl.lang import (
    DslError,
    Kernel,
    Schedule,
    Value,
    exp,
    log,
    maximum,
    minimum,
    power,
    reciprocal,
    relu,
    rsqrt,
    sigmoid,
    sqrt,
    tanh,
    where,
)

__all__ = [
    "DslError",
    "Kernel",
    "Schedule",
    "Value",
    "exp",
    "log",
    "maximum",
    "minimum",
    "power",
    "reciprocal",
    "relu",
    "rsqrt",
    "sigmoid",
    "sqrt",
    "tanh",
    "where",
]
