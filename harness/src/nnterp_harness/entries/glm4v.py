from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32

#: The GLM-4V ViT shrunk: two blocks of width 16 over 8-pixel patches merged 2x2 by the downsample convolution, a
#: 4x4 learned position grid, and a merger 48 wide.
GLM_VIT = {
    "depth": 2,
    "hidden_size": 16,
    "intermediate_size": 48,
    "num_heads": 2,
    "patch_size": 8,
    "image_size": 32,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "out_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
}

#: The token ids a GLM-4V-built wrapper's config names.
GLM_VISION_TOKENS = {
    "image_token_id": image_token_id("<|image_pad|>"),
    "video_token_id": image_token_id("<|video_pad|>"),
    "image_start_token_id": image_token_id("<|vision_start|>"),
    "image_end_token_id": image_token_id("<|vision_end|>"),
}

#: GLM-4V's text shape: GLM-4's, under a multimodal rotary turning half of each 16-wide head.
GLM4V_TEXT = {
    **GROUPED_LLAMA_SHAPE,
    "num_hidden_layers": 2,
    "vocab_size": WRAPPED_VOCAB,
    **special_token_ids(),
    "rope_parameters": {
        "rope_type": "default",
        "rope_theta": 10000.0,
        "partial_rotary_factor": 0.5,
        "mrope_section": [2, 1, 1],
    },
}


def glm_processor(side: int, image_class: str = "Glm4vImageProcessorPil", module: str = "glm4v"):
    """The builder of a GLM-4V processor whose images are `side` pixels square (`image_class` from `module`)."""

    def build(tokenizer, config):
        import importlib

        vision = config.vision_config
        owner = importlib.import_module(f"transformers.models.{module}.image_processing_pil_{module}")
        pixels = vision.temporal_patch_size * side * side
        images = getattr(owner, image_class)(
            size={"shortest_edge": pixels, "longest_edge": pixels},
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


#: GLM-4V: its ViT (a final norm, a 2x2 downsample convolution, a gated merger as projector) on GLM-4's block.
ENTRIES = (
    Entry(
        "glm4v",
        "glm4v",
        {"text_config": GLM4V_TEXT, "vision_config": GLM_VIT, **GLM_VISION_TOKENS, "tie_word_embeddings": True},
        auto_class="AutoModelForImageTextToText",
        processor=glm_processor(SIDE),
    ),
)
