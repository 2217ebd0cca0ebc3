from ..entry import GROUPED_LLAMA_SHAPE, Entry, redraw_by_name
from ..tokenizer import special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32


def _processor(tokenizer, config):
    from transformers.models.cosmos3_edge.image_processing_pil_cosmos3_edge import Cosmos3EdgeImageProcessorPil

    vision = config.vision_config
    images = Cosmos3EdgeImageProcessorPil(
        size={"shortest_edge": SIDE * SIDE, "longest_edge": SIDE * SIDE},
        patch_size=vision.patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(
        with_image_tokens(tokenizer, image_token="<|image_pad|>", video_token="<|video_pad|>"),
        images,
        chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
        processor_class="Cosmos3EdgeProcessor",
    )


#: Cosmos3 Edge: a packed SigLIP2 NaViT with per-image attention, merged 2x2 by the projector, on a
#: Llama-order text model with a ReLU-squared MLP and multimodal rotary positions.
ENTRIES = (
    Entry(
        "cosmos3_edge",
        "cosmos3_edge",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "head_dim": GROUPED_LLAMA_SHAPE["hidden_size"] // GROUPED_LLAMA_SHAPE["num_attention_heads"],
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            },
            "vision_config": {
                **{key: value for key, value in SIGLIP_TOWER.items() if key not in ("vision_use_head", "image_size")},
                "num_patches": 16,
                "spatial_merge_size": 2,
            },
            "projector_hidden_size": 64,
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        # 5.17 initialises the projector and the text model in another order.
        prepare=redraw_by_name,
    ),
)
