from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .granite import GRANITE_SCALES

#: The tile marker the processor writes around each tile's image tokens.
FAKE_IMAGE_TOKEN = "<fake_token_around_image>"
#: The connector's pixel shuffle: each tile's 4x4 patches become 2x2 image tokens.
SCALE_FACTOR = 2


def with_fake_image_token(tokenizer):
    """The shared image tokens, then `<fake_token_around_image>`: the processor reads its id but adds no token."""
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens([FAKE_IMAGE_TOKEN], special_tokens=True)
    return tokenizer


def _processor(tokenizer, config):
    from transformers import GraniteDoclingProcessor
    from transformers.models.granite_docling.image_processing_pil_granite_docling import (
        GraniteDoclingImageProcessorPil,
    )

    side = config.vision_config.image_size
    # One tile per image: the page is resized to the tile's side and never split.
    images = GraniteDoclingImageProcessorPil(size={"height": side, "width": side}, crop_to_patches=False)
    patches = (side // config.vision_config.patch_size) ** 2
    return GraniteDoclingProcessor(
        image_processor=images,
        tokenizer=with_fake_image_token(tokenizer),
        image_seq_len=patches // SCALE_FACTOR**2,
        chat_template=chat_template(IMAGE_TOKEN),
    )


#: GraniteDocling: a SigLIP-built tower over 32-pixel tiles whose connector (coarse path only) pixel-shuffles and
#: projects the patches, tower block 0 re-added after text block 0 (deepstack), on Granite's block with its four
#: scales away from one (two text blocks, so the last re-adds nothing).
ENTRIES = (
    Entry(
        "granite_docling",
        "granite_docling",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                **GRANITE_SCALES,
                "num_hidden_layers": 2,
                # `<fake_token_around_image>` follows the shared ones (`with_fake_image_token`).
                "vocab_size": WRAPPED_VOCAB + 1,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {
                **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
                "out_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
                "scale_factor": SCALE_FACTOR,
                "deepstack_visual_indexes": [0],
                "use_fine_route": False,
            },
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
