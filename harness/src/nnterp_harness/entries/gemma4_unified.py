import json
from pathlib import Path

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .gemma4 import AUDIO_TOKENS, MAX_SOFT_TOKENS, NAMED_TOKENS, VIDEO_TOKEN, VIDEO_TOKEN_ID, scale_text_blocks
from .gemma4_text import GEMMA4_SHAPE

#: Gemma 4 unified's embedder shrunk to width 32 over 4-pixel patches merged 2x2 into 8-pixel ones.
GEMMA4_UNIFIED_EMBEDDER = {
    "patch_size": 4,
    "pooling_kernel_size": 2,
    "mm_embed_dim": 32,
    "output_proj_dims": 32,
    "mm_posemb_size": 64,
}


class ImageProcessorSettings:
    """The settings of `Gemma4UnifiedImageProcessor`, saved as its config: the class itself needs torchvision."""

    def __init__(self, **settings):
        self.settings = {"image_processor_type": "Gemma4UnifiedImageProcessor", **settings}

    def save_pretrained(self, path) -> None:
        text = json.dumps(self.settings, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    vision = config.vision_config
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens([*AUDIO_TOKENS.values(), VIDEO_TOKEN], special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens={**NAMED_TOKENS, **AUDIO_TOKENS})
    images = ImageProcessorSettings(
        patch_size=vision.patch_size, pooling_kernel_size=vision.pooling_kernel_size, max_soft_tokens=MAX_SOFT_TOKENS
    )
    return ProcessorParts(
        tokenizer,
        images,
        chat_template(NAMED_TOKENS["image_token"]),
        processor_class="Gemma4UnifiedProcessor",
        image_seq_length=MAX_SOFT_TOKENS,
    )


#: Gemma 4 unified: no tower, raw patches embedded and projected straight into Gemma 4's text blocks; no audio.
ENTRIES = (
    Entry(
        "gemma4_unified",
        "gemma4_unified",
        {
            "text_config": {**GEMMA4_SHAPE, "vocab_size": VIDEO_TOKEN_ID + 1, **special_token_ids()},
            "vision_config": GEMMA4_UNIFIED_EMBEDDER,
            "audio_config": None,
            "image_token_id": image_token_id("<image_soft_token>"),
            "boi_token_id": image_token_id("<start_of_image>"),
            "eoi_token_id": image_token_id("<end_of_image>"),
            "audio_token_id": WRAPPED_VOCAB,
            "boa_token_id": WRAPPED_VOCAB + 1,
            "eoa_token_index": WRAPPED_VOCAB + 2,
            "video_token_id": VIDEO_TOKEN_ID,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        prepare=scale_text_blocks,
    ),
)
