from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .lfm3 import LFM3_SHAPE
from .qwen2_vl import qwen_processor

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32

#: LFM3-VL's hybrid tower shrunk: a gated-convolution block, then a grouped-query attention block, width 32,
#: over 8-pixel patches merged 2x2 by the projector.
LFM3_VL_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "layer_types": ["conv", "full_attention"],
    "patch_size": 8,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "conv_kernel_size": 3,
}

#: LFM3-VL: the hybrid tower, its projector merging 2x2 patch groups, on LFM3 with a convolution block and a full
#: attention block (a sliding window would not cover the image tokens).
ENTRIES = (
    Entry(
        "lfm3_vl",
        "lfm3_vl",
        {
            "text_config": {
                **LFM3_SHAPE,
                "num_hidden_layers": 2,
                "layer_types": ["conv", "full_attention"],
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": LFM3_VL_TOWER,
            "projector_hidden_size": 32,
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=qwen_processor(SIDE),
    ),
)
