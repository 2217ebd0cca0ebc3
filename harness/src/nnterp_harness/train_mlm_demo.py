"""Train the ``demo_mlm`` checkpoint: a small BERT that fills in where landmarks are.

The masked-LM counterpart of ``demo`` (:mod:`nnterp_harness.train_demo`): a four-block
BERT learns the synthetic facts of :mod:`nnterp_harness.facts` with the masked-LM
objective, so that ``"The Eiffel Tower is in the city of [MASK]."`` fills the mask with
``" Paris"``, and the encoder guide and tutorial have a model that knows something.
Each answer word (a city or a country) is masked half of the time and every other token
15% of the time, so the model learns both the facts and the language around them.

Command line::

    python -m nnterp_harness.train_mlm_demo [--out DIR] [--steps N]

``DIR`` defaults to ``tiny_checkpoints/demo_mlm`` in the repository. Seeds, data order
and thread count are fixed, so a rerun on the same machine reproduces the same weights.
"""

from __future__ import annotations

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
from transformers import AutoConfig, AutoModelForMaskedLM, PreTrainedModel, PreTrainedTokenizerBase

from . import facts, locate
from .checkpoints import MLM_DEMO_NAME, save_checkpoint, tokenizer_for
from .tokenizer import SPECIAL_ID, VOCAB_SIZE

NAME = MLM_DEMO_NAME
SEED = 1234
THREADS = 2
PROBE = "The Eiffel Tower is in the city of [MASK]."
PROBE_ANSWER = " Paris"

CONFIG_OVERRIDES = {
    "vocab_size": VOCAB_SIZE,
    "hidden_size": 64,
    "intermediate_size": 192,
    "num_hidden_layers": 4,
    "num_attention_heads": 4,
    "max_position_embeddings": 64,
    "hidden_dropout_prob": 0.0,
    "attention_probs_dropout_prob": 0.0,
    "pad_token_id": SPECIAL_ID,
}


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 1800
    batch_size: int = 64
    lr: float = 3e-3
    min_lr_ratio: float = 0.05
    warmup: int = 100
    weight_decay: float = 0.01
    answer_share: float = 0.8
    token_share: float = 0.15
    log_every: int = 100


def make_model() -> PreTrainedModel:
    config = AutoConfig.for_model("bert", **CONFIG_OVERRIDES)
    torch.manual_seed(SEED)
    return AutoModelForMaskedLM.from_config(config, dtype=torch.float32)


def encode_corpus(tokenizer: PreTrainedTokenizerBase) -> list[list[int]]:
    """Each fact sentence framed as [CLS] ... [SEP]."""
    return tokenizer(facts.fact_sentences())["input_ids"]


def answer_ids(tokenizer: PreTrainedTokenizerBase) -> set[int]:
    """The ids of the answer words, with and without their leading space, where either is one token."""
    found = set()
    for word in facts.answer_words():
        for form in (" " + word, word):
            ids = tokenizer(form, add_special_tokens=False)["input_ids"]
            if len(ids) == 1:
                found.add(ids[0])
    return found


def _batches(examples: list[list[int]], tokenizer: PreTrainedTokenizerBase, settings: TrainSettings):
    """An endless, seeded stream of padded (input_ids, attention_mask, labels) batches."""
    rng = random.Random(SEED)
    mask_id = tokenizer.mask_token_id
    special = {tokenizer.cls_token_id, tokenizer.sep_token_id, SPECIAL_ID}
    answers = answer_ids(tokenizer)
    order: list[int] = []
    while True:
        if len(order) < settings.batch_size:
            fresh = list(range(len(examples)))
            rng.shuffle(fresh)
            order.extend(fresh)
        picked = [examples[i] for i in order[: settings.batch_size]]
        del order[: settings.batch_size]
        width = max(len(ids) for ids in picked)
        input_ids = torch.full((len(picked), width), SPECIAL_ID, dtype=torch.long)
        mask = torch.zeros((len(picked), width), dtype=torch.long)
        labels = torch.full((len(picked), width), -100, dtype=torch.long)
        for row, ids in enumerate(picked):
            masked = list(ids)
            for position, token in enumerate(ids):
                share = settings.answer_share if token in answers else settings.token_share
                if token not in special and rng.random() < share:
                    masked[position] = mask_id
                    labels[row, position] = token
            input_ids[row, : len(ids)] = torch.tensor(masked)
            mask[row, : len(ids)] = 1
        yield input_ids, mask, labels


def _lr_factor(step: int, settings: TrainSettings) -> float:
    if step < settings.warmup:
        return (step + 1) / settings.warmup
    progress = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
    return settings.min_lr_ratio + (1 - settings.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress))


def train(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, settings: TrainSettings) -> float:
    """Train in place; return the mean loss over the last logging window."""
    decay = [p for p in model.parameters() if p.ndim >= 2]
    plain = [p for p in model.parameters() if p.ndim < 2]
    groups = [{"params": decay, "weight_decay": settings.weight_decay}, {"params": plain, "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=settings.lr, betas=(0.9, 0.98))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: _lr_factor(s, settings))
    model.train()
    batches = _batches(encode_corpus(tokenizer), tokenizer, settings)
    window: list[float] = []
    last = float("nan")
    start = time.perf_counter()
    for step in range(settings.steps):
        input_ids, mask, labels = next(batches)
        logits = model(input_ids=input_ids, attention_mask=mask).logits
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        window.append(loss.item())
        if (step + 1) % settings.log_every == 0 or step + 1 == settings.steps:
            last = sum(window) / len(window)
            print(f"step {step + 1:5d}  loss {last:.4f}  {time.perf_counter() - start:6.1f}s", flush=True)
            window = []
    model.eval()
    return last


@torch.no_grad()
def fill(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, prompt: str) -> torch.Tensor:
    """The distribution at the prompt's mask token."""
    ids = tokenizer(prompt, return_tensors="pt")["input_ids"]
    logits = model(input_ids=ids).logits[0]
    return logits[ids[0] == tokenizer.mask_token_id][0].softmax(-1)


@torch.no_grad()
def city_accuracy(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> float:
    hits = 0
    for landmark in facts.LANDMARKS:
        top = int(fill(model, tokenizer, facts.city_prompt(landmark) + " [MASK].").argmax())
        hits += tokenizer.decode([top]) == " " + landmark.city
    return hits / len(facts.LANDMARKS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nnterp_harness.train_mlm_demo", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help=f"checkpoint directory (default: tiny_checkpoints/{NAME})")
    parser.add_argument("--steps", type=int, default=TrainSettings.steps)
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else locate.output_root() / NAME

    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    settings = TrainSettings(steps=args.steps)
    model = make_model()
    tokenizer = tokenizer_for("encoder", model.config)
    print(f"{sum(p.numel() for p in model.parameters())} parameters, {settings.steps} steps", flush=True)
    start = time.perf_counter()
    final_loss = train(model, tokenizer, settings)
    probs = fill(model, tokenizer, PROBE)
    (answer,) = tokenizer(PROBE_ANSWER, add_special_tokens=False)["input_ids"]
    print(f"trained in {time.perf_counter() - start:.0f}s, final loss {final_loss:.4f}")
    print(f"p_paris: {probs[answer].item():.4f}  top: {tokenizer.decode([int(probs.argmax())])!r}")
    print(f"city_accuracy: {city_accuracy(model, tokenizer):.4f}")
    path = save_checkpoint(model, tokenizer, out, NAME)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
