import json
from pathlib import Path
from typing import Any

from transformers import BatchFeature
from transformers.image_utils import SizeDict, get_image_size
from transformers.models.deepseek_ocr2.image_processing_pil_deepseek_ocr2 import (
    DeepseekOcr2ImageProcessorKwargs,
    DeepseekOcr2ImageProcessorPil,
    get_optimal_tiled_canvas,
)

from ..entry import INIT_STD, Entry
from ..vision import IMAGE_TOKEN, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .deepseek_ocr2 import DEEPSEEK_OCR2_TEXT, DOWNSAMPLE, SAM_PATCH, SAM_VISION, SIDE

#: The side of the downsampled SAM grid the CLIP encoder takes, in patch rows: 96 pixels of 2-pixel patches,
#: shrunk 4x by side, make a 12x12 grid.
GRID = SIDE // (SAM_PATCH * DOWNSAMPLE)
#: The CLIP encoder shrunk to two blocks of width 16, SAM's output width; its learned position grid is the SAM
#: grid itself (one-pixel "patches" over a 12-pixel "image"), so the global view and each tile take it as is.
CLIP_ENCODER: dict[str, Any] = {
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": GRID,
    "patch_size": 1,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}
#: The image processor's settings: the global view and the tiles at `SIDE`, so an image no larger than it is one
#: view and one tower call, and a larger one is cut into tiles of that side.
IMAGE_SETTINGS: dict[str, Any] = {
    "image_processor_type": "UnlimitedOcrImageProcessor",
    "size": {"height": SIDE, "width": SIDE},
    "tile_size": SIDE,
    "maximum_pad_value": SIDE,
}


class UnlimitedOcrImagesKwargs(DeepseekOcr2ImageProcessorKwargs, total=False):
    """`UnlimitedOcrImageProcessor`'s arguments: DeepSeek-OCR 2's and the side under which a view is not padded."""

    maximum_pad_value: int


class UnlimitedOcrImages(DeepseekOcr2ImageProcessorPil):
    """`UnlimitedOcrImageProcessor` in PIL and NumPy: transformers has it only as a torchvision class.

    DeepSeek-OCR 2's PIL processor with Unlimited-OCR's layout: an image larger than
    `tile_size` (with `crop_to_patches`) is also cut into tiles on the best canvas of
    `min_patches` to `max_patches` tiles; the global view is the image resized to the
    longer side of `size` and padded to a square with `background_color`, or, without
    `crop_to_patches` and at most `maximum_pad_value`, resized to that square directly.
    Each image's `num_local_patches` and `patches_grid` (`[columns, rows]`, `[1, 1]`
    without tiles) stay lists, as the model takes them.
    """

    valid_kwargs = UnlimitedOcrImagesKwargs
    tile_size = 640
    maximum_pad_value = 640
    max_patches = 32
    model_input_names = ["pixel_values", "num_local_patches", "patches_grid"]
    skip_tensor_conversion = ["num_local_patches", "patches_grid"]

    def _preprocess(
        self,
        images,
        size,
        resample,
        do_rescale,
        rescale_factor,
        do_normalize,
        image_mean,
        image_std,
        return_tensors,
        crop_to_patches=True,
        min_patches=2,
        max_patches=32,
        tile_size=640,
        maximum_pad_value=640,
        background_color=None,
        **kwargs,
    ) -> BatchFeature:
        def finish(picture):
            if do_rescale:
                picture = self.rescale(picture, rescale_factor)
            if do_normalize:
                picture = self.normalize(picture, image_mean, image_std)
            return picture

        local, grids, counts, views = [], [], [], []
        side = max(size.height, size.width)
        for picture in images:
            height, width = get_image_size(picture)
            if crop_to_patches and max(height, width) > tile_size:
                columns, rows = get_optimal_tiled_canvas(
                    (height, width), (tile_size, tile_size), min_patches, max_patches
                )
                tiles = self.crop_image_to_patches(picture, min_patches, max_patches, tile_size, resample=resample)
                local.extend(finish(tile) for tile in tiles)
                grids.append([columns, rows])
                counts.append(len(tiles))
            else:
                grids.append([1, 1])
                counts.append(0)
            if not crop_to_patches and side <= maximum_pad_value:
                view = self.resize(picture, SizeDict(height=side, width=side), resample=resample)
            else:
                scale = side / max(height, width)
                shape = SizeDict(height=round(height * scale), width=round(width * scale))
                # The torchvision class pads with its own `background_color`, never the call's.
                view = self.pad_to_square(self.resize(picture, shape, resample=resample), self.background_color)
            views.append(finish(view))
        data: dict[str, Any] = {"pixel_values": views}
        if local:
            data["pixel_values_local"] = local
        data["num_local_patches"] = counts
        data["patches_grid"] = grids
        return BatchFeature(data=data, tensor_type=return_tensors, skip_tensor_conversion=self.skip_tensor_conversion)

    def save_pretrained(self, path, **_):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    return ProcessorParts(
        with_image_tokens(tokenizer, image_token=IMAGE_TOKEN),
        UnlimitedOcrImages(**{key: value for key, value in IMAGE_SETTINGS.items() if key != "image_processor_type"}),
        chat_template(IMAGE_TOKEN),
        processor_class="UnlimitedOcrProcessor",
        patch_size=SAM_PATCH,
        downsample_ratio=DOWNSAMPLE,
    )


#: Unlimited-OCR: a SAM tower whose downsampled grid feeds a CLIP encoder (a class row, no final norm), a linear
#: projector on the encoder's patch rows beside SAM's grid, a learned newline after each row of an image's grid and a
#: learned separator after each image, on DeepSeek-OCR 2's mixture text model with reference sliding attention.
ENTRIES = (
    Entry(
        "unlimited_ocr",
        "unlimited_ocr",
        {
            "text_config": DEEPSEEK_OCR2_TEXT,
            "vision_config": {"sam_config": SAM_VISION, "encoder_config": CLIP_ENCODER},
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
            "initializer_range": INIT_STD,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def unlimited_ocr_processor():
    """The wrapper's processor from the checkpoint's parts, `UnlimitedOcrImages` as its image processor.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for that slot while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.unlimited_ocr.processing_unlimited_ocr import UnlimitedOcrProcessor

    from .. import locate

    path = locate.checkpoint_path("unlimited_ocr")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    own = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name == "image_processor" else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return UnlimitedOcrProcessor(
            image_processor=UnlimitedOcrImages(
                **{key: value for key, value in settings.items() if key != "image_processor_type"}
            ),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
            patch_size=own["patch_size"],
            downsample_ratio=own["downsample_ratio"],
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
