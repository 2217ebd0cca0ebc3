"""Kosmos-2.5: a Pix2Struct-style tower over flattened patches, a latent-query resampler, its own text decoder.

The processor writes `<image>`, one placeholder per latent query and `</image>` after
the bos token, and marks the placeholders in `image_embeds_position_mask`; the text
model overwrites their embeddings with the resampled image. The three tokens are
added to the shared tokenizer under the names the processor reads off it
(`boi_token`, `eoi_token`, `image_token`), spelled as Kosmos-2.5's own tokenizer
spells them.
"""

from typing import Any

from ..entry import Entry
from ..tokenizer import VOCAB_SIZE, special_token_ids
from ..vision import chat_template

#: The side of one square patch, in pixels.
PATCH = 8
#: The patches the processor resizes each image to fill: a 32-pixel test image is a 4x4 grid, with no padding rows.
MAX_PATCHES = 16
#: The latent queries of the resampler: the image rows the text model receives, one placeholder each.
LATENT_QUERIES = 8
#: The processor's tokens, by the tokenizer attribute it reads each from.
IMAGE_TOKENS = {"boi_token": "<image>", "eoi_token": "</image>", "image_token": "<s>"}


def _processor(tokenizer: Any, config: Any) -> Any:
    from transformers import Kosmos2_5Processor
    from transformers.models.kosmos2_5.image_processing_pil_kosmos2_5 import Kosmos2_5ImageProcessorPil

    tokenizer.add_special_tokens({"additional_special_tokens": list(IMAGE_TOKENS.values())})
    # Saved into the tokenizer's config as named special tokens, so a reload has the attributes too.
    tokenizer._set_model_specific_special_tokens(special_tokens=IMAGE_TOKENS)
    # The processor hands the image processor its class default `max_patches=4096` over the image
    # processor's own setting; a tokenizer's init arguments outrank that default, so the tokenizer
    # carries the cap and the saved processor keeps it.
    tokenizer.init_kwargs["max_patches"] = MAX_PATCHES
    images = Kosmos2_5ImageProcessorPil(patch_size={"height": PATCH, "width": PATCH}, max_patches=MAX_PATCHES)
    # The processor places the image itself, so the chat template writes nothing for an image item.
    processor = Kosmos2_5Processor(images, tokenizer, num_image_tokens=LATENT_QUERIES)
    # The processor takes no chat template argument; the attribute is saved beside it all the same.
    processor.chat_template = chat_template("")
    return processor


ENTRIES = (
    Entry(
        "kosmos_2_5",
        "kosmos-2.5",
        {
            "text_config": {
                "embed_dim": 32,
                "layers": 2,
                "ffn_dim": 64,
                "attention_heads": 2,
                "vocab_size": VOCAB_SIZE + len(IMAGE_TOKENS),
                "max_position_embeddings": 512,
                "dropout": 0.0,
                "attention_dropout": 0.0,
                "activation_dropout": 0.0,
                **special_token_ids(),
            },
            "vision_config": {
                "hidden_size": 16,
                "patch_embed_hidden_size": 3 * PATCH * PATCH,
                "intermediate_size": 32,
                "head_dim": 8,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                # A patch's row and column ids run from 1 to the grid's side, max_patches on a one-row image.
                "max_num_patches": MAX_PATCHES + 1,
                "dropout_rate": 0.0,
                "attention_dropout": 0.0,
            },
            "latent_query_num": LATENT_QUERIES,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
