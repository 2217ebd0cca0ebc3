from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .hy_v4 import ENTRIES as TEXT_ENTRIES

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32


def _processor(tokenizer, config):
    from transformers.models.hy_v4_vl.image_processing_pil_hy_v4_vl import HYV4VLImageProcessorPil

    vision = config.vision_config
    images = HYV4VLImageProcessorPil(
        size={"shortest_edge": SIDE * SIDE, "longest_edge": SIDE * SIDE},
        patch_size=vision.patch_size,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(
        with_image_tokens(tokenizer, image_token="<|image_pad|>", video_token="<|video_pad|>"),
        images,
        chat_template("<|vision_start|><|image_pad|><|vision_end|>"),
    )


#: HY-V4-VL: HunYuanVL's packed ViT with per-image attention, its patch merger (the projector) inside the tower,
#: on HY-V4's hyper-connection text model (a dense block, a mixture block, and one reusing the indexer's choice).
ENTRIES = (
    Entry(
        "hy_v4_vl",
        "hy_v4_vl",
        {
            "text_config": {
                **TEXT_ENTRIES[0].overrides,
                "model_type": "hy_v4_vl_text",
                # The indexer keeps every key of the suite's 5-token prompt: with 4 kept, this init drops key 0 for
                # the last query, and the suite's score edit on key 0 cannot land there.
                "index_topk": 8,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                # The 8 rotary channels of each head: 4 frequencies, split among the temporal, height and width rows.
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 1, 1]},
            },
            "vision_config": {
                "hidden_size": 32,
                "intermediate_size": 64,
                "num_hidden_layers": 2,
                "num_attention_heads": 2,
                "patch_size": 8,
                "spatial_merge_size": 2,
                "max_image_size": SIDE,
                "out_hidden_size": TEXT_ENTRIES[0].overrides["hidden_size"],
                "attention_dropout": 0.0,
            },
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
