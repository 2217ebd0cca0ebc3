from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, chat_template, with_image_tokens
from .cohere2 import ENTRIES as COHERE2
from .llava import SIGLIP_VISION

#: The tokens Aya Vision's processor writes around and into an image, added after the shared image tokens.
AYA_TOKENS = ("<|START_OF_IMG|>", "<|END_OF_IMG|>", "<|IMG_PATCH|>", "<|IMG_LINE_BREAK|>", "TILE", "TILE_GLOBAL")
#: The projector's pixel shuffle: each image's 4x4 patches become 2x2 image tokens.
DOWNSAMPLE = 2


def _processor(tokenizer, config):
    from transformers import AyaVisionProcessor
    from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

    side = config.vision_config.image_size
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(AYA_TOKENS), special_tokens=True)
    # One tile per image: no crops beside the global view.
    images = GotOcr2ImageProcessorPil(size={"height": side, "width": side}, min_patches=1, max_patches=1)
    return AyaVisionProcessor(
        image_processor=images,
        tokenizer=tokenizer,
        patch_size=config.vision_config.patch_size,
        img_size=side,
        downsample_factor=config.downsample_factor,
        chat_template=chat_template("<image>"),
    )


#: Aya Vision: a SigLIP tower, a pixel-shuffle SwiGLU projector, on a Cohere 2 text model.
ENTRIES = (
    Entry(
        "aya_vision",
        "aya_vision",
        {
            "text_config": {
                "model_type": "cohere2",
                **COHERE2[0].overrides,
                "num_hidden_layers": 2,
                "layer_types": ["sliding_attention", "full_attention"],
                "vocab_size": WRAPPED_VOCAB + len(AYA_TOKENS),
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": SIGLIP_VISION,
            "downsample_factor": DOWNSAMPLE,
            "alignment_intermediate_size": 64,
            "image_token_id": WRAPPED_VOCAB + AYA_TOKENS.index("<|IMG_PATCH|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
