"""A few steps of TRL's GRPO trainer on CPU with the ascend_gym reward: nothing downloaded.

    python docs/examples/grpo_tiny.py                # a tiny random LM: its completions are noise
    python docs/examples/grpo_tiny.py --recorded     # the same LM, generating recorded kernels
    python docs/examples/grpo_tiny.py --tools        # recorded kernels through the submit tool

The tokenizer (byte-level BPE) is trained here on the task prompts, and the causal LM is built
from a config, so the script runs from a fresh clone. A random model's completions are format
failures (reward 0, the completion's own outcome). With `--recorded` the model's `generate` returns
recorded completions for each prompt's operator (its expert kernel, its baseline kernel, a kernel
that does not compile, prose), so the rewards and every component are non-trivial; the
log-probabilities, the loss and the update are still the tiny model's own. With `--tools` the
rollouts are multi-turn through TRL's `environment_factory`: the model calls the `submit` tool of
`AscendToolEnv` with a recorded kernel (Qwen3's chat template and tool-call format, which TRL
parses), reads the feedback, and ends; the environment's `get_reward` is the reward. The reward
comes from a local daemon (or `--daemons`), and is simulated.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from trl import GRPOConfig, GRPOTrainer
from trl.chat_template_utils import qwen3_chat_template

from ascend_core import suite
from ascend_gym.rl import RewardService
from ascend_gym.rl.adapters.trl import AscendToolEnv, TrlReward
from ascend_gym.rl.tasks import as_dataset, load_taskset

OPERATORS = ("level1/add", "level1/relu")  # operators with an expert version
GENERATIONS = 4
CHAT_TOKENS = ["<|im_start|>", "<|im_end|>"]  # Qwen3's, for the tool-calling chat template


def build_tokenizer(texts: list[str], vocab_size: int = 2000) -> PreTrainedTokenizerFast:
    """Byte-level BPE trained on `texts`: any text round-trips exactly."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=["<pad>", "<eos>", *CHAT_TOKENS],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", padding_side="left"
    )
    tokenizer.chat_template = qwen3_chat_template
    return tokenizer


def tiny_config(tokenizer: PreTrainedTokenizerFast) -> LlamaConfig:
    return LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=16384,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )


def recorded_submissions(operator: str) -> list[dict[str, str]]:
    """What a model might submit for the operator: the expert's sources, the baseline's kernel,
    a kernel that does not compile, and nothing (an empty dict: prose)."""
    base, expert = suite.resolve(operator), suite.load_expert(operator)
    kernel, tiling = base.kernel_path, base.host_path
    broken = base.files[kernel].replace(";", "", 1)
    return [
        {"kernel": expert.files[kernel], "tiling": expert.files[tiling]},
        {"kernel": base.files[kernel]},
        {"kernel": broken},
        {},
    ]


def as_text(operator: str, submission: dict[str, str]) -> str:
    """A submission as fenced blocks, or prose when it is empty."""
    if not submission:
        return "I would tile the input and use the vector unit."
    base = suite.resolve(operator)
    paths = {"kernel": base.kernel_path, "tiling": base.host_path}
    return "\n".join(f"```cpp {paths[k]}\n{v}```" for k, v in submission.items())


def as_tool_call(submission: dict[str, str]) -> str:
    """A submission as a Qwen3 tool call of `submit` (or prose, which ends the rollout)."""
    if not submission:
        return "I would tile the input and use the vector unit.<|im_end|>"
    call = json.dumps({"name": "submit", "arguments": submission})
    return f"<tool_call>\n{call}\n</tool_call><|im_end|>"


class RecordedLM(LlamaForCausalLM):
    """The tiny LM whose generate() answers each prompt with recorded submissions of its
    operator, one per generation of the group (as text, or as tool calls, after which it ends the
    conversation); forward (log-probabilities, loss) is its own."""

    def use_recordings(self, tokenizer: PreTrainedTokenizerFast, tools: bool) -> None:
        self.tokenizer, self.tools = tokenizer, tools

    @torch.no_grad()
    def generate(self, input_ids: torch.Tensor, attention_mask=None, **_: object) -> torch.Tensor:
        rows = []
        for i, prompt in enumerate(self.tokenizer.batch_decode(input_ids)):
            operator = "op://ascend-ops-v1/level1/" + re.search(r"operator `(\w+)`", prompt)[1]
            submission = recorded_submissions(operator)[i % GENERATIONS]
            if not self.tools:
                text = as_text(operator, submission) + self.tokenizer.eos_token
            elif "<tool_response>" in prompt:
                text = "Submitted.<|im_end|>"  # the tool's answer read: the rollout ends
            else:
                text = as_tool_call(submission)
            rows.append(self.tokenizer(text)["input_ids"])
        width = max(map(len, rows))
        pad = self.tokenizer.pad_token_id
        completions = torch.tensor([r + [pad] * (width - len(r)) for r in rows])
        return torch.cat([input_ids, completions.to(input_ids.device)], dim=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", action="store_true", help="generate recorded kernels")
    ap.add_argument("--tools", action="store_true", help="recorded kernels through the tool")
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--daemons", default="", help="comma list of daemon addresses (none: local)")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    tasks = [t for t in load_taskset("ascend-ops-v1") if t.operator.endswith(OPERATORS)]
    recorded = [
        f(t.operator, s) if f is as_text else f(s)
        for t in tasks
        for s in recorded_submissions(t.operator)
        for f in (as_text, as_tool_call)
    ]
    tokenizer = build_tokenizer([t.prompt for t in tasks] + recorded)
    scripted = args.recorded or args.tools
    model = (RecordedLM if scripted else LlamaForCausalLM)(tiny_config(tokenizer))
    if scripted:
        model.use_recordings(tokenizer, args.tools)
    dataset = as_dataset(tasks)
    if args.tools:  # conversational prompts: the chat template lists the tool
        dataset = dataset.map(lambda row: {"prompt": [{"role": "user", "content": row["prompt"]}]})
    daemons = [a for a in args.daemons.split(",") if a] or None
    with RewardService(daemons) as service, tempfile.TemporaryDirectory() as tmp:
        reward = TrlReward(service)
        config = GRPOConfig(
            output_dir=tmp,
            max_steps=args.steps,
            per_device_train_batch_size=GENERATIONS,
            num_generations=GENERATIONS,
            max_completion_length=4096 if scripted else 48,
            learning_rate=1e-3,
            logging_steps=1,
            save_strategy="no",
            report_to="none",
            use_cpu=True,
            seed=0,
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=None if args.tools else [reward],
            args=config,
            train_dataset=dataset,
            processing_class=tokenizer,
            environment_factory=(lambda: AscendToolEnv(service)) if args.tools else None,
        )
        trainer.train()
        for row in trainer.state.log_history:
            shown = {k: v for k, v in row.items() if "reward" in k or "ascend" in k or "tool" in k}
            print(json.dumps({**shown, "step": row.get("step")}))
        if args.tools:
            last = [[s.reward.status for s in env.scores] for env in trainer.environments]
        else:
            last = [
                s.reward.model_dump(include={"total", "status", "components", "simulated", "model"})
                for s in reward.last
            ]
        print(json.dumps({"last_batch": last}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
