"""A few steps of TRL's GRPO trainer on CPU with the ascend_gym reward: nothing downloaded.

    python docs/examples/grpo_tiny.py                # a tiny random LM: its completions are noise
    python docs/examples/grpo_tiny.py --recorded     # the same LM, generating recorded kernels

The tokenizer (byte-level BPE) is trained here on the task prompts, and the causal LM is built
from a config, so the script runs from a fresh clone. A random model's completions are format
failures (reward 0, the completion's own outcome). With `--recorded` the model's `generate` returns
recorded completions for each prompt's operator (its expert kernel, its baseline kernel, a kernel
that does not compile, prose), so the rewards and every component are non-trivial; the
log-probabilities, the loss and the update are still the tiny model's own. The reward comes from a
local daemon (or `--daemons`), and is simulated.
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

from ascend_core import suite
from ascend_gym.rl import RewardService
from ascend_gym.rl.adapters.trl import TrlReward
from ascend_gym.rl.tasks import as_dataset, load_taskset

OPERATORS = ("level1/add", "level1/relu")  # operators with an expert version
GENERATIONS = 4


def build_tokenizer(texts: list[str], vocab_size: int = 2000) -> PreTrainedTokenizerFast:
    """Byte-level BPE trained on `texts`: any text round-trips exactly."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=["<pad>", "<eos>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", padding_side="left"
    )


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


def recorded_completions(operator: str) -> list[str]:
    """What a model might answer for the operator: the expert's kernel, the baseline's, a kernel
    that does not compile, and prose."""
    base, expert = suite.resolve(operator), suite.load_expert(operator)
    path = base.kernel_path
    changed = [p for p in sorted(base.files) if expert.files[p] != base.files[p]]
    return [
        "Vectorised, double-buffered:\n"
        + "\n".join(f"```cpp {p}\n{expert.files[p]}```" for p in changed),
        f"```cpp {path}\n{base.files[path]}```",
        f"```cpp {path}\n{base.files[path].replace(';', '', 1)}```",
        "I would tile the input and use the vector unit.",
    ]


class RecordedLM(LlamaForCausalLM):
    """The tiny LM whose generate() answers each prompt with recorded completions of its
    operator, one per generation of the group; forward (log-probabilities, loss) is its own."""

    def use_recordings(self, tokenizer: PreTrainedTokenizerFast, recordings: dict[str, list[str]]):
        self.tokenizer, self.recordings = tokenizer, recordings

    @torch.no_grad()
    def generate(self, input_ids: torch.Tensor, attention_mask=None, **_: object) -> torch.Tensor:
        rows = []
        for i, prompt in enumerate(
            self.tokenizer.batch_decode(input_ids, skip_special_tokens=True)
        ):
            name = re.search(r"operator `(\w+)`", prompt)[1]
            options = next(v for k, v in self.recordings.items() if k.endswith(f"/{name}"))
            text = options[i % len(options)]
            rows.append(self.tokenizer(text)["input_ids"] + [self.tokenizer.eos_token_id])
        width = max(map(len, rows))
        pad = self.tokenizer.pad_token_id
        completions = torch.tensor([r + [pad] * (width - len(r)) for r in rows])
        return torch.cat([input_ids, completions.to(input_ids.device)], dim=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", action="store_true", help="generate recorded kernels")
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--daemons", default="", help="comma list of daemon addresses (none: local)")
    ap.add_argument("--out", default="", help="where the trainer writes (default: a temp dir)")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    tasks = [t for t in load_taskset("ascend-ops-v1") if t.operator.endswith(OPERATORS)]
    recordings = {t.operator: recorded_completions(t.operator) for t in tasks}
    texts = [t.prompt for t in tasks] + [c for r in recordings.values() for c in r]
    tokenizer = build_tokenizer(texts)
    model = (RecordedLM if args.recorded else LlamaForCausalLM)(tiny_config(tokenizer))
    if args.recorded:
        model.use_recordings(tokenizer, recordings)
    daemons = [a for a in args.daemons.split(",") if a] or None
    with RewardService(daemons) as service, tempfile.TemporaryDirectory() as tmp:
        reward = TrlReward(service)
        config = GRPOConfig(
            output_dir=args.out or tmp,
            max_steps=args.steps,
            per_device_train_batch_size=GENERATIONS,
            num_generations=GENERATIONS,
            max_completion_length=2048 if args.recorded else 48,
            learning_rate=1e-3,
            logging_steps=1,
            save_strategy="no",
            report_to="none",
            use_cpu=True,
            seed=0,
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=[reward],
            args=config,
            train_dataset=as_dataset(tasks),
            processing_class=tokenizer,
        )
        trainer.train()
        for row in trainer.state.log_history:
            print(
                json.dumps(
                    {k: v for k, v in row.items() if "reward" in k or "ascend" in k or k == "step"}
                )
            )
        last = [
            s.reward.model_dump(include={"total", "status", "components", "simulated", "model"})
            for s in reward.last
        ]
        print(json.dumps({"last_batch": last}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
