from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, with_image_tokens
from .minimax_m3_vl_text import ENTRIES as TEXT_ENTRIES

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32
#: The literal markers MiniMax-M3's processor writes, added after the shared image tokens, in this order.
MINIMAX_TOKENS = ("]<]image[>[", "]<]video[>[", "]<]start of image[>[", "]<]end of image[>[")


def _processor(tokenizer, config):
    # The wrapper's own image processor is torchvision-only; Qwen2-VL's PIL one resizes and patchifies alike
    # (merge groups of `merge_size**2` patches, each patch repeated over the temporal axis).
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    vision = config.vision_config
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_special_tokens(
        {"additional_special_tokens": list(MINIMAX_TOKENS)}, replace_extra_special_tokens=False
    )
    images = Qwen2VLImageProcessorPil(
        min_pixels=SIDE * SIDE,
        max_pixels=SIDE * SIDE,
        patch_size=vision.patch_size,
        temporal_patch_size=vision.temporal_patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(tokenizer, images, chat_template(MINIMAX_TOKENS[0]))


#: MiniMax-M3-VL: a packed ViT with a 3-D partial rotary and per-image attention, a two-stage projector that merges
#: 2x2 patch groups after projecting them, on MiniMax-M3's text model (one dense and one sparse mixture block).
ENTRIES = (
    Entry(
        "minimax_m3_vl",
        "minimax_m3_vl",
        {
            "text_config": {
                **TEXT_ENTRIES[0].overrides,
                "model_type": "minimax_m3_vl_text",
                "vocab_size": WRAPPED_VOCAB + len(MINIMAX_TOKENS),
                **special_token_ids(),
            },
            "vision_config": {
                "hidden_size": 32,
                "intermediate_size": 64,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                "patch_size": 8,
                "image_size": SIDE,
                "temporal_patch_size": 2,
                "spatial_merge_size": 2,
                "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0},
            },
            "projector_hidden_size": 64,
            "image_token_index": WRAPPED_VOCAB,
            "video_token_index": WRAPPED_VOCAB + 1,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
