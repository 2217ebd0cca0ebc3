from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32


def _processor(tokenizer, config):
    from transformers import PaddleOCRVLProcessor
    from transformers.models.paddleocr_vl.image_processing_pil_paddleocr_vl import PaddleOCRVLImageProcessorPil

    vision = config.vision_config
    images = PaddleOCRVLImageProcessorPil(
        min_pixels=SIDE * SIDE,
        max_pixels=SIDE * SIDE,
        patch_size=vision.patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return PaddleOCRVLProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, image_token="<|image_pad|>"),
        chat_template=chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
    )


#: PaddleOCR-VL: a packed SigLIP-like tower with per-image attention, merged 2x2 by the projector,
#: on an Ernie-like text model with multimodal rotary positions.
ENTRIES = (
    Entry(
        "paddleocr_vl",
        "paddleocr_vl",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "head_dim": GROUPED_LLAMA_SHAPE["hidden_size"] // GROUPED_LLAMA_SHAPE["num_attention_heads"],
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            },
            "vision_config": {
                **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
                "spatial_merge_size": 2,
            },
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
