from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, with_image_tokens
from .cohere_compass_text import ENTRIES as TEXT_ENTRIES
from .qwen3_5 import QWEN3_VIT

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32
#: The markers Cohere Compass's processor writes, added after the shared image tokens, in this order.
COMPASS_TOKENS = ("<|IMAGE_PAD|>", "<|VIDEO_PAD|>", "<|VISION_START|>", "<|VISION_END|>")


def _processor(tokenizer, config):
    from transformers.models.cohere_compass.image_processing_pil_cohere_compass import CohereCompassImageProcessorPil

    vision = config.vision_config
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_special_tokens(
        {"additional_special_tokens": list(COMPASS_TOKENS)}, replace_extra_special_tokens=False
    )
    images = CohereCompassImageProcessorPil(
        min_pixels=SIDE * SIDE,
        max_pixels=SIDE * SIDE,
        patch_size=vision.patch_size,
        temporal_patch_size=vision.temporal_patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(
        tokenizer, images, chat_template(f"{COMPASS_TOKENS[2]}{COMPASS_TOKENS[0]}{COMPASS_TOKENS[3]}")
    )


#: Cohere Compass: the Qwen3 ViT with a 2-D axial rotary, whose blocks 0 and 1 feed deepstack mergers re-added after
#: text blocks 0 and 1, its merger as projector, on Cohere Compass's parallel text blocks (three, so the last
#: re-adds nothing).
ENTRIES = (
    Entry(
        "cohere_compass",
        "cohere_compass",
        {
            "text_config": {
                **TEXT_ENTRIES[0].overrides,
                "model_type": "cohere_compass_text",
                "vocab_size": WRAPPED_VOCAB + len(COMPASS_TOKENS),
                **special_token_ids(),
            },
            "vision_config": {
                **QWEN3_VIT,
                "out_hidden_size": TEXT_ENTRIES[0].overrides["hidden_size"],
                "deepstack_visual_indexes": [0, 1],
                "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0},
            },
            "image_token_id": WRAPPED_VOCAB,
            "video_token_id": WRAPPED_VOCAB + 1,
            "vision_start_token_id": WRAPPED_VOCAB + 2,
            "vision_end_token_id": WRAPPED_VOCAB + 3,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
