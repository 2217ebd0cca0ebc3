import importlib
import importlib.util
import sys

from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .lighton_ocr import PIXTRAL_TOKENS
from .llava import PIXTRAL_VISION

#: The projector's patch merger: each 2x2 group of an image's patches becomes one image token.
MERGE = 2
#: The processor's keyword names for the tokens it writes: one image token per merged group,
#: a break after each row of groups, an end token in place of the last break.
PIXTRAL_PROCESSOR_TOKENS = {
    "image_token": PIXTRAL_TOKENS["image_token"],
    "image_break_token": PIXTRAL_TOKENS["image_break_token"],
    "image_end_token": PIXTRAL_TOKENS["image_end_token"],
}
#: The module that holds `PixtralProcessor`, and the torchvision-only one it imports a helper from.
_PROCESSING = "transformers.models.pixtral.processing_pixtral"
_TORCHVISION_IMAGES = "transformers.models.pixtral.image_processing_pixtral"


def pixtral_processor_class():
    """transformers' own `PixtralProcessor`, imported where torchvision is not installed.

    Its module imports `get_resize_output_image_size` from the torchvision image
    processor's module, only to count image tokens ahead of a call; the PIL module
    defines the same function, so where torchvision is missing it answers that one
    import. The stand-in is in `sys.modules` for the import alone; the class itself
    runs as transformers wrote it.
    """
    if _PROCESSING in sys.modules or importlib.util.find_spec("torchvision") is not None:
        return importlib.import_module(_PROCESSING).PixtralProcessor
    from transformers.models.pixtral import image_processing_pil_pixtral

    sys.modules[_TORCHVISION_IMAGES] = image_processing_pil_pixtral
    try:
        return importlib.import_module(_PROCESSING).PixtralProcessor
    finally:
        del sys.modules[_TORCHVISION_IMAGES]


def _processor(tokenizer, config):
    from transformers.models.pixtral.image_processing_pil_pixtral import PixtralImageProcessorPil

    vision = config.vision_config
    images = PixtralImageProcessorPil(
        size={"longest_edge": vision.image_size}, patch_size={"height": vision.patch_size, "width": vision.patch_size}
    )
    return pixtral_processor_class()(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer),
        patch_size=vision.patch_size,
        spatial_merge_size=config.spatial_merge_size,
        chat_template=chat_template(PIXTRAL_TOKENS["image_token"]),
        **PIXTRAL_PROCESSOR_TOKENS,
    )


def mistral3_processor():
    """The pinned checkpoint's `PixtralProcessor`, loaded from its saved files.

    `AutoProcessor` cannot load it without torchvision (the top-level name is a
    placeholder there); its image processor loads as the PIL class.
    """
    from .. import locate

    return pixtral_processor_class().from_pretrained(locate.checkpoint_path("mistral3"))


#: Mistral 3: a Pixtral tower (every image's patches packed in one row), an RMS norm, a learned 2x2 patch merger
#: and a two-layer projector, on a Mistral text model.
ENTRIES = (
    Entry(
        "mistral3",
        "mistral3",
        {
            "text_config": {
                "model_type": "mistral",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "head_dim": 16,
                "sliding_window": 8,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": PIXTRAL_VISION,
            "spatial_merge_size": MERGE,
            "vision_feature_layer": -1,
            "image_token_index": image_token_id(PIXTRAL_TOKENS["image_token"]),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
