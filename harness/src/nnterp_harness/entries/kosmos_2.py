"""Kosmos-2: a CLIP tower, a latent-query resampler, and its own sinusoidal-position text decoder.

The processor writes `<image>`, one placeholder per latent query and `</image>` after
the bos token, and marks the placeholders in `image_embeds_position_mask`; the text
model overwrites their embeddings with the resampled image. The tags and the patch
index tokens the processor adds to the tokenizer extend the text vocabulary.
"""

from typing import Any

from ..entry import Entry, redraw_by_name
from ..tokenizer import VOCAB_SIZE, special_token_ids
from ..vision import chat_template

#: The side of the image the tower takes, in pixels.
SIDE = 32
#: The latent queries of the resampler: the image rows the text model receives, one placeholder each.
LATENT_QUERIES = 64
#: The processor's grounding tags (`<image>`, `</image>`, `<phrase>`, ...), which it adds to the tokenizer.
TAG_TOKENS = 11
#: The patch index tokens the processor adds: a 2x2 grid of grounding locations.
PATCH_INDEX_TOKENS = 4


def _processor(tokenizer: Any, config: Any) -> Any:
    from transformers import Kosmos2Processor
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    images = CLIPImageProcessorPil(size={"shortest_edge": SIDE}, crop_size={"height": SIDE, "width": SIDE})
    # The processor places the image itself, so the chat template writes nothing for an image item.
    processor = Kosmos2Processor(images, tokenizer, num_patch_index_tokens=PATCH_INDEX_TOKENS)
    # The processor takes no chat template argument; the attribute is saved beside it all the same.
    processor.chat_template = chat_template("")
    return processor


def _redraw(model: Any) -> None:
    """The same weights on every release (5.20 initialises the modules in another order), the norms near one.

    `redraw_by_name` draws a norm near one by its `norm.weight` ending; the attention's
    `inner_attn_ln` is a norm by another name, drawn near one here.
    """
    import torch

    redraw_by_name(model)
    generator = torch.Generator().manual_seed(1)
    for name, param in sorted(model.named_parameters()):
        if name.endswith("inner_attn_ln.weight"):
            param.copy_(1 + 0.1 * torch.randn(param.shape, generator=generator, dtype=param.dtype))


def _probe_inputs(path: Any, prompt: str) -> dict[str, Any]:
    """The prompt with a grey image: the wrapper's forward refuses a call without one."""
    from PIL import Image
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(path)
    encoded = processor(images=Image.new("RGB", (SIDE, SIDE), (128, 128, 128)), text=prompt, return_tensors="pt")
    return dict(encoded)


ENTRIES = (
    Entry(
        "kosmos_2",
        "kosmos-2",
        {
            "text_config": {
                "embed_dim": 32,
                "layers": 2,
                "ffn_dim": 64,
                "attention_heads": 2,
                "vocab_size": VOCAB_SIZE + TAG_TOKENS + PATCH_INDEX_TOKENS,
                "max_position_embeddings": 512,
                "dropout": 0.0,
                "attention_dropout": 0.0,
                "activation_dropout": 0.0,
                **special_token_ids(),
            },
            "vision_config": {
                "hidden_size": 16,
                "intermediate_size": 32,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                "image_size": SIDE,
                "patch_size": 8,
            },
            "latent_query_num": LATENT_QUERIES,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        probe_inputs=_probe_inputs,
        prepare=_redraw,
    ),
)
