"""The model-backed proposer: each step of the method is a prompt (agents/prompts), a chat call
through the OpenAI-compatible client (with its record/replay cache) and the extraction of code
from the reply. A reply without usable code is a failed proposal, never an evaluation."""

from __future__ import annotations

import random
import re
from typing import Any

from agents import prompts
from agents.ascendoptimizer.bank import Experience
from agents.ascendoptimizer.diagnose import diagnose, profile_summary
from agents.ascendoptimizer.motifs import Origin
from agents.ascendoptimizer.proposer import Distilled, Individual, Proposal
from agents.llm import ChatClient, LLMError, extract_source
from agents.llm.sources import cases_text, other_sources
from ascend_core import tune
from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalResult

MAX_TEXT = 3000  # characters of a diff or log shown in a prompt


def _op_fields(package: OperatorPackage) -> dict[str, Any]:
    spec = package.spec
    case = spec.bench_case
    shapes = ", ".join(f"{k}={v}" for k, v in case.shapes.items())
    return {
        "name": spec.name,
        "category": spec.category or "operator",
        "level": spec.level,
        "description": spec.description or spec.name,
        "bench_case": f"{case.name}: {case.dtype}, {shapes}",
        "host_path": package.host_path,
        "kernel_path": package.kernel_path,
        "sources": other_sources(package),
        "cases": cases_text(spec),
    }


def _markers(tiling: str) -> str:
    return ", ".join(f"{t.name}={t.value}" for t in tune.find_tunables(tiling)) or "(no markers)"


class LLMProposer:
    def __init__(self, client: ChatClient):
        self.client = client
        self.name = f"llm:{client.config.model}"
        self.log: list[dict[str, Any]] = []
        # Motifs the inverse agent already removed or tried: it is told, so it picks another one.
        # The bank build gives every expert its own proposer, so the list is per rewind chain.
        self.tried_motifs: set[str] = set()

    def _ask(self, prompt_name: str, rng: random.Random | None, **values: Any) -> str | None:
        prompt = prompts.load(prompt_name)
        messages = prompt.render(**values)
        seed = rng.randrange(2**31) if rng is not None else None
        record: dict[str, Any] = {"prompt": prompt.id, "messages": messages, "seed": seed}
        try:
            reply = self.client.chat(messages, seed=seed)
        except LLMError as e:
            self.log.append({**record, "error": str(e)})
            return None
        self.log.append(
            {
                **record,
                "key": reply.key,
                "reply": reply.content,
                "cached": reply.cached,
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
            }
        )
        return reply.content

    def template(self, package: OperatorPackage) -> Proposal | None:
        reply = self._ask(
            "stage1_template", None, tiling=package.tiling_source, **_op_fields(package)
        )
        tiling = extract_source(reply or "", package.tiling_source, "tiling")
        if tiling is None or not _valid_markers(tiling):
            return None
        return Proposal(package.with_sources(tiling=tiling), f"template: {_markers(tiling)}")

    def mutate(
        self,
        package: OperatorPackage,
        parent: Individual,
        elites: list[Individual],
        rng: random.Random,
        seen: set[str],
        feedback: str = "",
    ) -> Proposal | None:
        elite_text = (
            "\n".join(f"- {e.latency_us:.2f} us: {_markers(e.tiling)}" for e in elites)
            or "- (none yet)"
        )
        reply = self._ask(
            "stage1_mutate",
            rng,
            tiling=parent.tiling,
            parent_us=f"{parent.latency_us:.2f}",
            parent_profile=parent.profile.get("summary", "n/a"),
            elites=elite_text,
            feedback=feedback or "- (none so far)",
            kernel=package.kernel_source,
            **_op_fields(package),
        )
        tiling = extract_source(reply or "", parent.tiling, "tiling")
        if tiling is None:
            return None
        candidate = package.with_sources(tiling=tiling)
        if candidate.content_hash() in seen:
            return None
        return Proposal(candidate, f"llm mutation: {_first_line(reply)}")

    def deoptimise(
        self,
        package: OperatorPackage,
        origin: Origin | None,
        tried: set[str],
        removed: set[str],
        rng: random.Random,
    ) -> Proposal | None:
        tried_names = sorted(self.tried_motifs | removed) or ["(none)"]
        reply = self._ask(
            "stage2_inverse",
            rng,
            kernel=package.kernel_source,
            tried=", ".join(tried_names),
            **_op_fields(package),
        )
        motif = re.search(r"^\s*Motif:\s*(.+)$", reply or "", re.MULTILINE)
        kernel = extract_source(reply or "", package.kernel_source, "kernel")
        if kernel is None or motif is None:
            return None
        name = re.sub(r"\W+", "_", motif.group(1).strip().lower()).strip("_")[:60]
        self.tried_motifs.add(name)
        candidate = package.with_sources(kernel=kernel)
        return (
            None
            if candidate.content_hash() in tried
            else Proposal(candidate, f"rewind: removed {name}", motif=name)
        )

    def distill(
        self,
        fast: OperatorPackage,
        slow: OperatorPackage,
        fast_result: EvalResult,
        slow_result: EvalResult,
        motif: str,
        diff: str,
    ) -> Distilled:
        reply = (
            self._ask(
                "stage2_distill",
                None,
                name=fast.spec.name,
                category=fast.spec.category or "operator",
                motif=motif,
                slowdown=f"{slow_result.latency_us / fast_result.latency_us:.2f}x",
                fast_us=f"{fast_result.latency_us:.2f}",
                slow_us=f"{slow_result.latency_us:.2f}",
                fast_profile=profile_summary(fast_result.profile),
                slow_profile=profile_summary(slow_result.profile),
                diff=diff[:MAX_TEXT],
            )
            or ""
        )
        fields = {
            k.lower(): v.strip()
            for k, v in re.findall(
                r"^\s*(Title|Description|Bottleneck):\s*(.+)$", reply, re.MULTILINE | re.IGNORECASE
            )
        }
        # A reply missing a field still yields a usable tuple: the profile speaks for the bottleneck.
        return Distilled(
            fields.get("title", motif),
            fields.get("description", f"restore {motif}"),
            fields.get("bottleneck", diagnose(slow_result.profile, slow.kernel_source)),
        )

    def refine(
        self,
        package: OperatorPackage,
        result: EvalResult,
        diagnosis: str,
        retrieved: list[tuple[Experience, float]],
        seen: set[str],
        rng: random.Random,
        feedback: str = "",
    ) -> Proposal | None:
        shown = (
            "\n\n".join(
                f"[{i + 1}] {e.title} (from {e.operator}, {e.slowdown:.2f}x)\n{e.description}\n"
                f"Bottleneck: {e.bottleneck}\n```diff\n{e.code_diff[:MAX_TEXT]}```"
                for i, (e, _) in enumerate(retrieved)
            )
            or "(the bank has nothing relevant)"
        )
        reply = self._ask(
            "stage2_refine",
            rng,
            kernel=package.kernel_source,
            tiling=package.tiling_source,
            latency_us=f"{result.latency_us:.2f}",
            profile=profile_summary(result.profile),
            diagnosis=diagnosis,
            feedback=feedback or "- (none so far)",
            experiences=shown,
            **_op_fields(package),
        )
        kernel = extract_source(reply or "", package.kernel_source, "kernel")
        if kernel is None:
            return None
        candidate = package.with_sources(kernel=kernel)
        if candidate.content_hash() in seen:
            return None
        return Proposal(
            candidate,
            f"llm refinement: {_first_line(reply)}",
            motif=retrieved[0][0].motif if retrieved else "",
        )


def _valid_markers(tiling: str) -> bool:
    try:
        return bool(tune.find_tunables(tiling))
    except ValueError:
        return False


def _first_line(reply: str | None) -> str:
    for line in (reply or "").splitlines():
        if line.strip() and not line.startswith("```"):
            return line.strip()[:160]
    return ""
