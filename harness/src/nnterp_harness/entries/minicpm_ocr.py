import json

import nnsight  # noqa: F401 - before any transformers modeling module
from transformers.models.minicpmv4_6.image_processing_pil_minicpmv4_6 import (
    MiniCPMV4_6ImageProcessorPil,
    MiniCPMV4_6ImageProcessorPilKwargs,
)

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .minicpmv4_6 import lenient_video_slot
from .minicpmv4_7 import MARKERS, MINICPM_TOWER, NoVideos
from .qwen3_5_text import QWEN3_5_SHAPE

__all__ = ["ENTRIES", "SIDE", "MiniCPMOcrImageProcessorPil", "ocr_processor"]

#: The image side, in pixels: a 4x4 grid of 8-pixel patches, which the projector merges 2x2 into four image tokens
#: (the wrapper's "4x" mode runs no window merger in the tower).
SIDE = 32

#: The wrapper's own downsampling mode, its config's default: the tower's window merger is skipped.
DOWNSAMPLE_MODE = "4x"


class MiniCPMOcrImageProcessorKwargsPil(MiniCPMV4_6ImageProcessorPilKwargs, total=False):
    r"""
    small_image_upsize (`str`, *optional*, defaults to `"always"`):
        How an image no larger than `scale_resolution` squared is resized; only `"always"`, an upscale to
        `scale_resolution`, is ported.
    """

    small_image_upsize: str


class MiniCPMOcrImageProcessorPil(MiniCPMV4_6ImageProcessorPil):
    """MiniCPM-OCR's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    With `small_image_upsize="always"`, the OCR processor's default, its resize, slicing,
    rescale, normalization and NaViT patch packing are MiniCPM-V 4.6's, which this class
    runs with the OCR's `"4x"` default. The other settings (`"never"`, and `"adaptive"`,
    which needs OpenCV) raise `NotImplementedError`. It saves as
    `MiniCPMOcrImageProcessor`, so a release with torchvision loads the torchvision class.
    """

    downsample_mode = DOWNSAMPLE_MODE
    small_image_upsize = "always"
    valid_kwargs = MiniCPMOcrImageProcessorKwargsPil

    def _preprocess(self, images, small_image_upsize="always", **kwargs):
        if small_image_upsize != "always":
            raise NotImplementedError(
                f"small_image_upsize={small_image_upsize!r}: only 'always' is ported from the torchvision class"
            )
        return super()._preprocess(images, **kwargs)


class NoOcrVideos(NoVideos):
    """`NoVideos` with the OCR's `"4x"` downsampling: read when the processor is built, never called for images."""

    downsample_mode = DOWNSAMPLE_MODE


def _processor(tokenizer, config):
    images = MiniCPMOcrImageProcessorPil(
        patch_size=config.vision_config.patch_size,
        scale_resolution=SIDE,
        downsample_mode=config.downsample_mode,
    )
    return ProcessorParts(with_image_tokens(tokenizer, **MARKERS), images, chat_template(MARKERS["image_token"]))


def ocr_processor():
    """The checkpoint's processor from its parts: `MiniCPMOcrImageProcessorPil` for images, `NoOcrVideos` for videos.

    The processor class checks its image and video processors' classes, which without
    torchvision cannot be imported; the check is lifted for those two slots while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.minicpm_ocr.processing_minicpm_ocr import MiniCPMOcrProcessor

    from .. import locate

    path = locate.checkpoint_path("minicpm_ocr")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    settings.pop("image_processor_type")
    check = ProcessorMixin.check_argument_for_proper_class
    videos_lifted = lenient_video_slot(check)

    def lenient(self, name, argument):
        return None if name == "image_processor" else videos_lifted(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return MiniCPMOcrProcessor(
            image_processor=MiniCPMOcrImageProcessorPil(**settings),
            video_processor=NoOcrVideos(),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


#: MiniCPM-OCR: MiniCPM-V 4.6's NaViT tower (its window merger after block 0, which the default "4x" mode skips) and
#: 2x2 merging projector, on the Qwen3.5 hybrid text model with one-dimensional rotary positions.
ENTRIES = (
    Entry(
        "minicpm_ocr",
        "minicpm_ocr",
        {
            "text_config": {**QWEN3_5_SHAPE, "vocab_size": WRAPPED_VOCAB, **special_token_ids()},
            "vision_config": MINICPM_TOWER,
            "insert_layer_id": 0,
            "downsample_mode": DOWNSAMPLE_MODE,
            "image_token_id": image_token_id(MARKERS["image_token"]),
            "video_token_id": image_token_id(MARKERS["video_token"]),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
