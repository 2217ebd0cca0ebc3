from ..entry import INIT_STD, MAX_POSITIONS, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side, four image tokens.
SIDE = 32

#: The tokens the tokenizer names for the processor. The video slot stays empty, so the video's
#: start and end only need ids of their own.
ERNIE_VISION_TOKENS = {
    "image_token": "<|image_pad|>",
    "image_start_token": "<|vision_start|>",
    "image_end_token": "<|vision_end|>",
    "video_token": "<|video_pad|>",
    "video_start_token": "<start_of_image>",
    "video_end_token": "<end_of_image>",
}


def _processor(tokenizer, config):
    from transformers.models.ernie4_5_vl_moe.image_processing_pil_ernie4_5_vl_moe import (
        Ernie4_5_VLMoeImageProcessorPil,
    )

    vision = config.vision_config
    images = Ernie4_5_VLMoeImageProcessorPil(
        size={"shortest_edge": SIDE * SIDE, "longest_edge": SIDE * SIDE},
        patch_size=vision.patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(
        with_image_tokens(tokenizer, **ERNIE_VISION_TOKENS),
        images,
        chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
    )


#: ERNIE 4.5 VL: a packed Qwen-like ViT whose final norm feeds a resampler (2x2 merge, temporal merge, MLP) as
#: projector, on a text model of a dense block then a mixture split by modality: text experts for text tokens,
#: vision experts (narrower) for image tokens and their start and end tokens, and a shared expert for all.
ENTRIES = (
    Entry(
        "ernie4_5_vl_moe",
        "ernie4_5_vl_moe",
        {
            "text_config": {
                "hidden_size": 64,
                "intermediate_size": 64,
                "moe_intermediate_size": [32, 16],
                "moe_num_experts": 4,
                "moe_k": 2,
                "moe_num_shared_experts": 1,
                "mlp_layer_types": ["dense", "sparse"],
                "num_hidden_layers": 2,
                "num_attention_heads": 4,
                "num_key_value_heads": 2,
                "head_dim": 16,
                "max_position_embeddings": MAX_POSITIONS,
                "initializer_range": INIT_STD,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [3, 3, 2]},
                "tie_word_embeddings": True,
            },
            "vision_config": {
                "depth": 2,
                "hidden_size": 32,
                "intermediate_size": 64,
                "num_heads": 2,
                "patch_size": 8,
                "spatial_merge_size": 2,
                "temporal_merge_size": 2,
                "in_channels": 3,
            },
            "image_token_id": image_token_id("<|image_pad|>"),
            "image_start_token_id": image_token_id("<|vision_start|>"),
            "image_end_token_id": image_token_id("<|vision_end|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "video_start_token_id": image_token_id("<start_of_image>"),
            "video_end_token_id": image_token_id("<end_of_image>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
