"""The lowering a DSL kernel takes: its whole-output form (a matmul, with or without an
epilogue, a transpose, a gather, a pool, a conv, an attention, a group_norm, a concat or
slices: copies) or, otherwise, the element-wise and reduction lowering of lower.py."""

from __future__ import annotations

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.dsl import int4
from ascend_gym.dsl.attention import AttentionLowering
from ascend_gym.dsl.concat import CopyLowering, PermuteLowering, PlaceLowering, RepeatLowering
from ascend_gym.dsl.conv import ConvLowering
from ascend_gym.dsl.cube import MatmulLowering
from ascend_gym.dsl.epilogue import EpilogueLowering
from ascend_gym.dsl.gather import GatherLowering
from ascend_gym.dsl.groupnorm import GroupNormLowering
from ascend_gym.dsl.lang import DslError, Kernel
from ascend_gym.dsl.lower import Lowering
from ascend_gym.dsl.pool import PoolLowering
from ascend_gym.dsl.transpose import TransposeLowering


def lower(
    kernel: Kernel,
    spec: OperatorSpec,
    dsl_source: str = "",
    reference: dict[str, str] | None = None,
) -> OperatorPackage:
    """Check a DSL kernel against its spec and lower it to an operator package."""
    if kernel.mm is not None and kernel.loops:
        lowering: Lowering = EpilogueLowering(kernel, spec)
    elif kernel.mm is not None:
        lowering = MatmulLowering(kernel, spec)
    elif kernel.swap is not None and _moves_rows(kernel, spec):
        lowering = PermuteLowering(kernel, spec)
    elif kernel.swap is not None:
        lowering = TransposeLowering(kernel, spec)
    elif kernel.places:
        lowering = PlaceLowering(kernel, spec)
    elif kernel.rep is not None:
        lowering = RepeatLowering(kernel, spec)
    elif kernel.take is not None:
        lowering = GatherLowering(kernel, spec)
    elif kernel.pooling is not None:
        lowering = PoolLowering(kernel, spec)
    elif kernel.convolution is not None:
        lowering = ConvLowering(kernel, spec)
    elif kernel.attn is not None:
        lowering = AttentionLowering(kernel, spec)
    elif kernel.gnorm is not None:
        lowering = GroupNormLowering(kernel, spec)
    elif kernel.cat is not None or kernel.slices:
        lowering = CopyLowering(kernel, spec)
    else:
        lowering = Lowering(kernel, spec)
    if type(lowering) is not Lowering and (packed := int4.words(spec)):
        raise DslError(kernel.where, f"int4 inputs ({', '.join(sorted(packed))}) in a whole kernel")
    return lowering.package(dsl_source, reference)


def _moves_rows(kernel: Kernel, spec: OperatorSpec) -> bool:
    """A transpose of axis groups that leaves axes after them in some case: rows moved whole."""
    job = kernel.swap
    if job is None or job.groups is None:
        return False
    return any(len(spec.arg_shape(c, job.x.name)) > job.groups[2] for c in spec.cases)
