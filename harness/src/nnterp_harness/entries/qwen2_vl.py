from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import QWEN_VIT, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32


def qwen_processor(side: int):
    """The builder of a Qwen-VL processor whose images are `side` pixels square."""

    def build(tokenizer, config):
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

        vision = config.vision_config
        images = Qwen2VLImageProcessorPil(
            min_pixels=side * side,
            max_pixels=side * side,
            patch_size=vision.patch_size,
            temporal_patch_size=vision.temporal_patch_size,
            merge_size=vision.spatial_merge_size,
        )
        return ProcessorParts(
            with_image_tokens(tokenizer, image_token="<|image_pad|>", video_token="<|video_pad|>"),
            images,
            chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
        )

    return build


#: Qwen2-VL: the packed Qwen ViT (per-image attention, a merger as projector) on a multimodal-rotary text model.
ENTRIES = (
    Entry(
        "qwen2_vl",
        "qwen2_vl",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            },
            "vision_config": {**QWEN_VIT, "hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"]},
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
