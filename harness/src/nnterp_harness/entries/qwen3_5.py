from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .qwen2_vl import qwen_processor
from .qwen3_5_text import QWEN3_5_SHAPE

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32

#: Half of each head's channels rotate, interleaved over the temporal, height and width rows (one frequency each
#: for height and width), so an image token's place on its patch grid reaches the attention scores.
MROPE = {
    "rope_type": "default",
    "rope_theta": 10000.0,
    "partial_rotary_factor": 0.5,
    "mrope_section": [2, 1, 1],
    "mrope_interleaved": True,
}

#: The Qwen3 ViT shrunk: two blocks of width 16 over 8-pixel patches merged 2x2, a 4x4 learned position grid.
QWEN3_VIT = {
    "depth": 2,
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_heads": 2,
    "patch_size": 8,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "num_position_embeddings": 16,
    "out_hidden_size": QWEN3_5_SHAPE["hidden_size"],
}

#: The token ids a Qwen3-VL-built wrapper's config names.
QWEN_VISION_TOKENS = {
    "image_token_id": image_token_id("<|image_pad|>"),
    "video_token_id": image_token_id("<|video_pad|>"),
    "vision_start_token_id": image_token_id("<|vision_start|>"),
    "vision_end_token_id": image_token_id("<|vision_end|>"),
}

#: Qwen3.5: the Qwen3 ViT, its merger as projector, on the gated-DeltaNet hybrid text model.
ENTRIES = (
    Entry(
        "qwen3_5",
        "qwen3_5",
        {
            "text_config": {
                **QWEN3_5_SHAPE,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": MROPE,
            },
            "vision_config": QWEN3_VIT,
            **QWEN_VISION_TOKENS,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
    ),
)
