from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, with_image_tokens
from .persimmon import ENTRIES as PERSIMMON

#: The tokens Fuyu's processor reads off its tokenizer: the image placeholder, the end of a patch row, the answer's start.
FUYU_TOKENS = ("|SPEAKER|", "|NEWLINE|", "<0x04>")
#: The image side, in pixels, and its patches' side.
SIDE = 32
PATCH = 8


def _processor(tokenizer, config):
    from transformers import FuyuProcessor
    from transformers.models.fuyu.image_processing_pil_fuyu import FuyuImageProcessorPil

    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(FUYU_TOKENS), special_tokens=True)
    images = FuyuImageProcessorPil(size={"height": SIDE, "width": SIDE}, patch_size={"height": PATCH, "width": PATCH})
    return FuyuProcessor(image_processor=images, tokenizer=tokenizer)


#: Fuyu: no tower, each image patch linearly projected straight into Persimmon's text blocks.
ENTRIES = (
    Entry(
        "fuyu",
        "fuyu",
        {
            "text_config": {
                **PERSIMMON[0].overrides,
                "model_type": "persimmon",
                "vocab_size": WRAPPED_VOCAB + len(FUYU_TOKENS),
                **special_token_ids(),
            },
            # An older release sizes the patch projection off the wrapper's own `hidden_size`.
            "hidden_size": PERSIMMON[0].overrides["hidden_size"],
            "image_size": SIDE,
            "patch_size": PATCH,
            "image_token_id": WRAPPED_VOCAB,
            "tie_word_embeddings": True,
        },
        processor=_processor,
    ),
)
