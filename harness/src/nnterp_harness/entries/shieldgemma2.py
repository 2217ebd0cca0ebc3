import functools

from ..entry import Entry
from ..vision import chat_template, with_image_tokens
from .gemma3 import ENTRIES as GEMMA3_ENTRIES
from .gemma3 import TOKENS_PER_IMAGE

#: The one policy the tiny processor asks about: every image becomes one prompt per policy.
POLICIES = {"place": "The image shows a place"}


def _processor(tokenizer, config):
    from transformers import ShieldGemma2Processor
    from transformers.models.gemma3.image_processing_pil_gemma3 import Gemma3ImageProcessorPil

    side = config.vision_config.image_size
    named = {"boi_token": "<start_of_image>", "image_token": "<image_soft_token>", "eoi_token": "<end_of_image>"}
    return ShieldGemma2Processor(
        image_processor=Gemma3ImageProcessorPil(size={"height": side, "width": side}),
        tokenizer=with_image_tokens(tokenizer, **named),
        chat_template=chat_template(named["boi_token"]),
        image_seq_length=TOKENS_PER_IMAGE,
        policy_definitions=POLICIES,
    )


def _save_as_loaded(model):
    # Saving in the original format reverses transformers' ShieldGemma 2 conversion, which
    # writes the text weights under keys its own load does not read back (they load
    # missing); the model's own names load on every release.
    model.save_pretrained = functools.partial(model.save_pretrained, save_original_format=False)


_GEMMA3 = GEMMA3_ENTRIES[0].overrides

#: ShieldGemma 2: Gemma 3's wrapper under a policy classifier; the image-text-to-text task builds Gemma 3's.
ENTRIES = (
    Entry(
        "shieldgemma2",
        "shieldgemma2",
        {
            "text_config": _GEMMA3["text_config"],
            "vision_config": _GEMMA3["vision_config"],
            "mm_tokens_per_image": TOKENS_PER_IMAGE,
            "image_token_index": _GEMMA3["image_token_id"],
            "boi_token_index": _GEMMA3["boi_token_id"],
            "eoi_token_index": _GEMMA3["eoi_token_id"],
        },
        auto_class="AutoModelForImageTextToText",
        prepare=_save_as_loaded,
        processor=_processor,
    ),
)
