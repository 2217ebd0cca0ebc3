from ..entry import Entry
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, chat_template, with_image_tokens
from .llava import QWEN2_TEXT, SIGLIP_VISION

#: The tokens Ovis2's processor writes for an image, added after the shared image tokens: the image token
#: `<IMG_ATOM>` (one per visual word), then the five visual indicators, in the order of their embeddings.
OVIS_TOKENS = ("<IMG_ATOM>", "<IMG_START>", "<IMG_GRID>", "<IMG_COL>", "<IMG_ROW>", "<IMG_END>")
#: The tower's patches are grouped 2x2 before the visual head, so a 4x4 grid is 4 visual words.
STRIDE = 2
#: The visual vocabulary: the head's words plus the five indicators.
VISUAL_VOCAB = 64
#: The image tokens of one 32-pixel image.
IMAGE_WORDS = (SIGLIP_VISION["image_size"] // SIGLIP_VISION["patch_size"] // STRIDE) ** 2


def _processor(tokenizer, config):
    from transformers import Ovis2Processor
    from transformers.models.ovis2.image_processing_pil_ovis2 import Ovis2ImageProcessorPil

    side = config.vision_config.image_size
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(OVIS_TOKENS), special_tokens=True)
    # One tile per image: no crops beside the whole.
    images = Ovis2ImageProcessorPil(size={"height": side, "width": side}, crop_to_patches=False)
    return Ovis2Processor(
        image_processor=images,
        tokenizer=tokenizer,
        chat_template=chat_template(IMAGE_TOKEN),
        image_token=IMAGE_TOKEN,
        image_seq_length=IMAGE_WORDS,
    )


def _token(name: str) -> int:
    return WRAPPED_VOCAB + OVIS_TOKENS.index(name)


#: Ovis2: an RMS-normed SigLIP-like tower whose patches a visual head turns into probabilities over a visual
#: vocabulary, embedded by a table, on a Qwen2 text model.
ENTRIES = (
    Entry(
        "ovis2",
        "ovis2",
        {
            "text_config": {**QWEN2_TEXT, "vocab_size": WRAPPED_VOCAB + len(OVIS_TOKENS)},
            "vision_config": {
                **{key: value for key, value in SIGLIP_VISION.items() if key not in ("model_type", "vision_use_head")},
                "hidden_stride": STRIDE,
                "vocab_size": VISUAL_VOCAB,
            },
            "vocab_size": WRAPPED_VOCAB + len(OVIS_TOKENS),
            "hidden_size": QWEN2_TEXT["hidden_size"],
            "image_token_id": _token("<IMG_ATOM>"),
            "visual_indicator_token_ids": [_token(name) for name in OVIS_TOKENS[1:]],
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
