from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id, processor_of
from .minicpmv4_7 import MARKERS, MINICPM_TOWER, SIDE, NoVideos, minicpm_processor
from .qwen3_5_text import QWEN3_5_SHAPE

__all__ = ["ENTRIES", "SIDE", "images_only_processor", "lenient_video_slot"]


def lenient_video_slot(check):
    """`ProcessorMixin.check_argument_for_proper_class` letting a `NoVideos` stand in the video slot."""

    def lenient(self, name, argument):
        return None if isinstance(argument, NoVideos) else check(self, name, argument)

    return lenient


def images_only_processor():
    """The checkpoint's processor, built from its parts with `NoVideos` in the video slot.

    transformers has MiniCPM-V 4.6's video processor only as a torchvision class, so
    the saved processor cannot load whole here.
    """
    from transformers import ProcessorMixin

    check = ProcessorMixin.check_argument_for_proper_class
    ProcessorMixin.check_argument_for_proper_class = lenient_video_slot(check)
    try:
        return processor_of("minicpmv4_6", "MiniCPMV4_6Processor", video_slot=False, video_processor=NoVideos())
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


#: MiniCPM-V 4.6: MiniCPM-V 4.7's tower and processor shape (an 8x8 patch grid per `SIDE`-pixel image, the window
#: merger after block 0 taking it to 4x4, the projector to 2x2, four image tokens), on the Qwen3.5 hybrid text model.
#: The wrapper computes no multimodal positions, so the text model keeps the text family's one-dimensional rotary
#: settings.
ENTRIES = (
    Entry(
        "minicpmv4_6",
        "minicpmv4_6",
        {
            # 5.17's config class builds the text config from the dict's own `model_type` and has no default.
            "text_config": {
                "model_type": "qwen3_5_text",
                **QWEN3_5_SHAPE,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": MINICPM_TOWER,
            "insert_layer_id": 0,
            "image_size": SIDE,
            "image_token_id": image_token_id(MARKERS["image_token"]),
            "video_token_id": image_token_id(MARKERS["video_token"]),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=minicpm_processor,
    ),
)
