from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .qwen2_vl import qwen_processor

#: The image side, in pixels: four merged 2x2 groups of 8-pixel patches on each side, two windows.
SIDE = 64


#: The Qwen2.5 ViT shrunk: gated MLPs, window attention on block 0 over windows of 2x2 merged groups, full attention on block 1.
QWEN_2_5_VIT = {
    "depth": 2,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_heads": 2,
    "patch_size": 8,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "window_size": 32,
    "fullatt_block_indexes": [1],
    "out_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
}


#: Qwen2.5-VL: the packed Qwen ViT with window attention, its merger as projector, on a multimodal-rotary text model.
ENTRIES = (
    Entry(
        "qwen2_5_vl",
        "qwen2_5_vl",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            },
            "vision_config": QWEN_2_5_VIT,
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
