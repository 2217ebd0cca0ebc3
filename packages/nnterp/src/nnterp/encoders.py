"""What the root does differently on a bidirectional encoder (BERT, RoBERTa, ModernBERT, ...).

A family declares `ENCODER = True`. Its checkpoint loads under the masked-LM head
(`task="fill-mask"`, the default) or bare (`task="feature-extraction"`). An encoder
predicts the token at each masked position from both sides, so it has no next
token: `next_token_probs` is unavailable and `generate` is refused, and the masked
positions take their place (`mask_token_mask`, `mask_token_probs`). A bare encoder
has no head: the logits and every value over the vocabulary are unavailable.
"""

from __future__ import annotations

from typing import Any

import torch
from nnsight.intervention.interleaver import Mediator

#: The root values only an encoder has; `support()` lists them on an encoder alone (a decoder reading one gets
#: `Unavailable` with the reason).
ENCODER_VALUES = ("mask_token_mask", "mask_token_probs")

#: The attribute of the wrapped model where the last call's token ids are kept, as the embedding took them.
_CALL_IDS = "_nnterp_call_ids"

#: Why an encoder has no `next_token_probs`.
NO_NEXT_TOKEN = (
    "a bidirectional encoder predicts the tokens at masked positions, not a next token: read mask_token_probs "
    "(the distribution at each mask token) or logits"
)
#: Why a decoder has no mask values.
NOT_AN_ENCODER = "a causal LM predicts the next token, not masked positions: read next_token_probs"
#: Why a bare encoder has no value over the vocabulary.
NO_HEAD = (
    "loaded bare (task='feature-extraction'), with no masked-LM head: load with task='fill-mask' (the default) "
    "for the logits"
)


def is_encoder(family: Any) -> bool:
    """Whether the family declares itself a bidirectional encoder (`ENCODER = True`)."""
    return bool(getattr(family, "ENCODER", False))


def of_its_kind(model: Any, name: str) -> bool:
    """Whether root value `name` belongs to this model's kind: an encoder's own values are no decoder's."""
    return name not in ENCODER_VALUES or is_encoder(getattr(model, "family", None))


def no_next_token(model: Any) -> str | None:
    """The reason `next_token_probs` is missing: an encoder has none, a bare one has no logits either."""
    if not is_encoder(model.family):
        return None
    return NO_HEAD if model.task == "feature-extraction" else NO_NEXT_TOKEN


def no_head(model: Any) -> str | None:
    """The reason the logits are missing: the encoder was loaded bare."""
    return NO_HEAD if is_encoder(model.family) and model.task == "feature-extraction" else None


def not_an_encoder(model: Any) -> str | None:
    """The reason `mask_token_mask` is missing: the model is not an encoder."""
    return None if is_encoder(model.family) else NOT_AN_ENCODER


def no_mask_predictions(model: Any) -> str | None:
    """The reason `mask_token_probs` is missing: not an encoder, or one loaded bare."""
    return not_an_encoder(model) or no_head(model)


def mask_token_id(model: Any) -> int:
    """The tokenizer's mask token id; a tokenizer without one is refused with what to set."""
    tokenizer = getattr(model, "tokenizer", None)
    token = getattr(tokenizer, "mask_token_id", None)
    if token is None:
        raise ValueError(
            f"{type(tokenizer).__name__} has no mask token, so no position is a masked one; set one with "
            "tokenizer_kwargs={'mask_token': '[MASK]'} (the token the checkpoint was trained with)"
        )
    return token


def accept_prompts_without_mask(pipeline: Any) -> None:
    """Let the fill-mask pipeline's preprocessing take a prompt with no mask token.

    The pipeline refuses such a prompt because its own postprocessing ranks the fill
    of one mask; a trace reads the model's values on any sentence (probing a layer
    needs no mask), so the check is switched off on this pipeline instance only.
    """
    if getattr(pipeline, "task", None) == "fill-mask":
        pipeline.ensure_exactly_one_mask_token = _any_mask_count


def _any_mask_count(model_inputs: Any) -> None:
    """Accept any number of mask tokens, none included."""


def keep_call_ids(model: Any) -> None:
    """Keep each call's token ids on the wrapped model, as the embedding module takes them.

    `mask_token_probs` is read at the output, past the point where the model's input
    can be read, and an edit of any value in between must not be out of order; the
    ids the embedding took (after any assignment of `input_ids`) answer where the mask
    tokens are. Registered once per module, on every load and dispatch.
    """
    embed = getattr(model, "embed_tokens", None)
    module = getattr(embed, "_module", None)
    root = model._module
    if module is None or getattr(module, "_nnterp_keeps_ids", False):
        return

    def keep(_module: Any, args: tuple) -> None:
        if args and isinstance(args[0], torch.Tensor) and not args[0].is_floating_point():
            object.__setattr__(root, _CALL_IDS, args[0])

    module.register_forward_pre_hook(keep)
    module._nnterp_keeps_ids = True


def call_mask(model: Any, what: str) -> torch.Tensor:
    """This invoke's rows of the running call's mask-token positions, `[batch, seq]`, from the kept ids."""
    ids = getattr(model._module, _CALL_IDS, None)
    if ids is None:
        raise ValueError(
            f"{what}: this call passed no token ids (inputs_embeds?), so no position is a mask token; "
            "pass the prompt as text or input_ids"
        )
    mediator = Mediator.current(what)
    batcher = getattr(mediator.interleaver, "batcher", None)
    if batcher is not None:
        ids = batcher.narrow(ids, mediator.batch_group)
    return ids == mask_token_id(model)


def refuse_generate(model: Any) -> None:
    """Refuse `generate` on an encoder, before anything runs."""
    if is_encoder(model.family):
        raise TypeError(
            f"generate: {type(model._module).__name__} is a bidirectional encoder, which fills masked positions "
            "and has no next token to sample; trace a prompt holding the mask token and read "
            "model.mask_token_probs (or model.logits)"
        )
