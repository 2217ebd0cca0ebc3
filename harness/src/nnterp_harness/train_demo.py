"""Train the ``demo`` checkpoint: a small Llama that knows where landmarks are.

The model learns the synthetic facts of :mod:`nnterp_harness.facts` on CPU in
a few minutes, so that ``"The Eiffel Tower is in the city of"`` continues with
``" Paris"`` and a logit lens shows the answer forming over the blocks.

Command line::

    python -m nnterp_harness.train_demo [--out DIR] [--steps N]

``DIR`` defaults to ``tiny_checkpoints/demo`` in the repository. Seeds, data
order and thread count are fixed, so a rerun on the same machine reproduces
the same weights.
"""

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import nnsight  # noqa: F401  (nnsight must be imported before transformers.models.*)
import torch
import torch.nn.functional as F
from transformers import AutoConfig, AutoModelForCausalLM, PreTrainedModel, PreTrainedTokenizerBase

from . import facts, locate
from .checkpoints import DEMO_NAME, save_checkpoint, tokenizer_for
from .tokenizer import SPECIAL_ID, VOCAB_SIZE, special_token_ids

SEED = 1234
THREADS = 2
PROBE = "The Eiffel Tower is in the city of"
PROBE_ANSWER = " Paris"

CONFIG_OVERRIDES = {
    "vocab_size": VOCAB_SIZE,
    "hidden_size": 128,
    "intermediate_size": 448,
    "num_hidden_layers": 4,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 256,
    "attention_dropout": 0.0,
    "tie_word_embeddings": False,
    **special_token_ids(),
}


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 900
    batch_size: int = 64
    lr: float = 3e-3
    min_lr_ratio: float = 0.05
    warmup: int = 100
    weight_decay: float = 0.01
    # Share of examples that start with <|endoftext|>, so prompts work with or without a BOS.
    bos_share: float = 0.25
    # Learning-rate multiplier between consecutive blocks, counted down from the
    # last block, which gets the full rate. Slower early blocks leave the fact
    # lookup to the later ones, so a logit lens sees the answer form with depth
    # instead of being settled by block 0.
    depth_lr_ratio: float = 0.5
    log_every: int = 100


def make_model() -> PreTrainedModel:
    config = AutoConfig.for_model("llama", **CONFIG_OVERRIDES)
    torch.manual_seed(SEED)
    return AutoModelForCausalLM.from_config(config, dtype=torch.float32)


def encode_corpus(tokenizer: PreTrainedTokenizerBase) -> list[list[int]]:
    """Each fact sentence as token ids followed by <|endoftext|>."""
    encoded = tokenizer(facts.fact_sentences(), add_special_tokens=False)["input_ids"]
    return [ids + [SPECIAL_ID] for ids in encoded]


def _batches(examples: list[list[int]], settings: TrainSettings):
    """An endless, seeded stream of padded (input_ids, labels) batches."""
    rng = random.Random(SEED)
    order: list[int] = []
    while True:
        if len(order) < settings.batch_size:
            fresh = list(range(len(examples)))
            rng.shuffle(fresh)
            order.extend(fresh)
        picked = [examples[i] for i in order[: settings.batch_size]]
        del order[: settings.batch_size]
        rows = [([SPECIAL_ID] + ids) if rng.random() < settings.bos_share else ids for ids in picked]
        width = max(len(r) for r in rows)
        input_ids = torch.full((len(rows), width), SPECIAL_ID, dtype=torch.long)
        labels = torch.full((len(rows), width), -100, dtype=torch.long)
        for i, row in enumerate(rows):
            input_ids[i, : len(row)] = torch.tensor(row)
            labels[i, : len(row)] = torch.tensor(row)
        yield input_ids, labels


def _lr_factor(step: int, settings: TrainSettings) -> float:
    if step < settings.warmup:
        return (step + 1) / settings.warmup
    progress = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
    cosine = 0.5 * (1 + math.cos(math.pi * progress))
    return settings.min_lr_ratio + (1 - settings.min_lr_ratio) * cosine


def _param_groups(model: PreTrainedModel, settings: TrainSettings) -> list[dict]:
    """AdamW groups: no decay on vectors, and a learning rate that grows with depth."""
    n_blocks = len(model.model.layers)
    groups: dict[tuple[float, float], list[torch.nn.Parameter]] = {}
    for name, param in model.named_parameters():
        scale = 1.0
        if name.startswith("model.layers."):
            block = int(name.split(".")[2])
            scale = settings.depth_lr_ratio ** (n_blocks - 1 - block)
        decay = settings.weight_decay if param.ndim >= 2 else 0.0
        groups.setdefault((scale, decay), []).append(param)
    return [
        {"params": params, "lr": settings.lr * scale, "weight_decay": decay}
        for (scale, decay), params in groups.items()
    ]


def train(model: PreTrainedModel, examples: list[list[int]], settings: TrainSettings) -> float:
    """Train in place; return the mean loss over the last logging window."""
    optimizer = torch.optim.AdamW(_param_groups(model, settings), lr=settings.lr, betas=(0.9, 0.98))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: _lr_factor(s, settings))
    model.train()
    window: list[float] = []
    last = float("nan")
    start = time.perf_counter()
    batches = _batches(examples, settings)
    for step in range(settings.steps):
        input_ids, labels = next(batches)
        logits = model(input_ids=input_ids).logits
        loss = F.cross_entropy(
            logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1), ignore_index=-100
        )
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        window.append(loss.item())
        if (step + 1) % settings.log_every == 0 or step + 1 == settings.steps:
            mean = sum(window) / len(window)
            print(f"step {step + 1:5d}  loss {mean:.4f}  {time.perf_counter() - start:6.1f}s", flush=True)
            last = mean
            window = []
    model.eval()
    return last


@torch.no_grad()
def next_token_probs(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, prompt: str) -> torch.Tensor:
    ids = tokenizer(prompt, return_tensors="pt")["input_ids"]
    return model(input_ids=ids).logits[0, -1].softmax(-1)


@torch.no_grad()
def logit_lens(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, prompt: str, target: str) -> list[float]:
    """P(target) at the last position after each block, read through the final norm and lm_head."""
    ids = tokenizer(prompt, return_tensors="pt")["input_ids"]
    (target_id,) = tokenizer(target, add_special_tokens=False)["input_ids"]
    outputs: list[torch.Tensor] = []

    def keep(_module, _inputs, output):
        outputs.append((output[0] if isinstance(output, tuple) else output)[0, -1])

    handles = [layer.register_forward_hook(keep) for layer in model.model.layers]
    try:
        model(input_ids=ids)
    finally:
        for handle in handles:
            handle.remove()
    return [model.lm_head(model.model.norm(state)).softmax(-1)[target_id].item() for state in outputs]


@torch.no_grad()
def accuracy(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, pairs: list[tuple[str, str]]) -> float:
    hits = 0
    for prompt, answer in pairs:
        top = int(next_token_probs(model, tokenizer, prompt).argmax())
        hits += tokenizer.decode([top]) == " " + answer
    return hits / len(pairs)


def evaluate(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> dict[str, object]:
    """The probe's answer probability and logit lens, and top-1 accuracy per relation."""
    city = [(facts.city_prompt(lm), lm.city) for lm in facts.LANDMARKS]
    country = [(facts.COUNTRY_PROMPT.format(subject=lm.subject), lm.country) for lm in facts.LANDMARKS]
    capital = [(facts.CAPITAL_PROMPT.format(country=k), c) for k, c in facts.CAPITALS]
    probs = next_token_probs(model, tokenizer, PROBE)
    (answer,) = tokenizer(PROBE_ANSWER, add_special_tokens=False)["input_ids"]
    return {
        "p_paris": probs[answer].item(),
        "top": tokenizer.decode([int(probs.argmax())]),
        "lens_p_paris": logit_lens(model, tokenizer, PROBE, PROBE_ANSWER),
        "city_accuracy": accuracy(model, tokenizer, city),
        "country_accuracy": accuracy(model, tokenizer, country),
        "capital_accuracy": accuracy(model, tokenizer, capital),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.train_demo", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="checkpoint directory (default: tiny_checkpoints/demo)")
    parser.add_argument("--steps", type=int, default=TrainSettings.steps)
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else locate.output_root() / DEMO_NAME

    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    settings = TrainSettings(steps=args.steps)
    model = make_model()
    tokenizer = tokenizer_for("bpe", model.config)
    examples = encode_corpus(tokenizer)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{len(examples)} sentences, {n_params} parameters, {settings.steps} steps", flush=True)

    start = time.perf_counter()
    final_loss = train(model, examples, settings)
    elapsed = time.perf_counter() - start

    report = evaluate(model, tokenizer)
    print(f"trained in {elapsed:.0f}s, final loss {final_loss:.4f}")
    for key, value in report.items():
        if isinstance(value, list):
            value = "[" + ", ".join(f"{v:.4f}" for v in value) + "]"
        elif isinstance(value, float):
            value = f"{value:.4f}"
        print(f"{key}: {value}")
    path = save_checkpoint(model, tokenizer, out, DEMO_NAME, compact_vocab=False)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
