from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32
#: The tokens HunYuanVL's processor writes around and into an image.
IMAGE_TOKENS = {"image_token": "<image>", "image_start_token": "<|vision_start|>", "image_end_token": "<|vision_end|>"}


def _processor(tokenizer, config):
    from transformers import HunYuanVLProcessor
    from transformers.models.hunyuan_vl.image_processing_pil_hunyuan_vl import HunYuanVLImageProcessorPil

    vision = config.vision_config
    images = HunYuanVLImageProcessorPil(
        size={"shortest_edge": SIDE * SIDE, "longest_edge": SIDE * SIDE},
        patch_size=vision.patch_size,
        merge_size=vision.spatial_merge_size,
    )
    placeholder = "".join(IMAGE_TOKENS[key] for key in ("image_start_token", "image_token", "image_end_token"))
    return HunYuanVLProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer, **IMAGE_TOKENS),
        chat_template=chat_template(placeholder),
    )


#: HunYuanVL: a packed ViT with per-image attention whose patch merger (the projector) runs inside the tower,
#: on Hunyuan's dense text block under a multimodal rotary embedding.
ENTRIES = (
    Entry(
        "hunyuan_vl",
        "hunyuan_vl",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "head_dim": 16,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 2, 2, 2]},
            },
            "vision_config": {
                "hidden_size": 32,
                "intermediate_size": 64,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                "patch_size": 8,
                "spatial_merge_size": 2,
                "max_image_size": SIDE,
                "min_image_size": SIDE,
                "out_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
                "attention_dropout": 0.0,
            },
            "image_token_id": image_token_id("<image>"),
            "im_start_id": image_token_id("<|vision_start|>"),
            "im_end_id": image_token_id("<|vision_end|>"),
            "im_newline_id": image_token_id("<|image_pad|>"),
            # Transformers 5.17 builds the text model's embedding at the top-level vocabulary size.
            "vocab_size": WRAPPED_VOCAB,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
