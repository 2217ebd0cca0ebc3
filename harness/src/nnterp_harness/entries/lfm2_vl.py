import json
import math
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .lfm2 import LFM2_SHAPE

#: The image side, in pixels: a 4x4 grid of 8-pixel patches, unshuffled 2x2 into four image tokens.
SIDE = 32
#: The side of one patch, in pixels.
PATCH = 8
#: The projector's pixel unshuffle: each 2x2 group of patches becomes one image token.
DOWNSAMPLE = 2
#: The image tokens one image becomes, at least and at most: a `SIDE`-pixel image keeps its size.
IMAGE_TOKENS = (SIDE // PATCH // DOWNSAMPLE) ** 2

#: LFM2-VL's SigLIP2 NaFlex tower shrunk to two blocks of width 32 over 8-pixel patches, its position table a
#: 4x4 grid (resampled to each image's grid), with no pooling head.
SIGLIP2_TOWER = {
    "model_type": "siglip2_vision_model",
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": PATCH,
    "num_patches": (SIDE // PATCH) ** 2,
    "vision_use_head": False,
    "attention_dropout": 0.0,
}
#: The image processor's settings: one tile per image (no splitting, no thumbnail), resized so that its patch grid
#: splits into 2x2 groups and gives `IMAGE_TOKENS` tokens, normalized, cut into patches.
IMAGE_SETTINGS = {
    "image_processor_type": "Lfm2VlImageProcessor",
    "downsample_factor": DOWNSAMPLE,
    "encoder_patch_size": PATCH,
    "min_image_tokens": IMAGE_TOKENS,
    "max_image_tokens": IMAGE_TOKENS,
    "do_image_splitting": False,
    "use_thumbnail": False,
    "tile_size": SIDE,
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}
#: The tokenizer's named image tokens the processor reads.
NAMED = {
    "image_token": IMAGE_TOKEN,
    "image_start_token": "<|vision_start|>",
    "image_end_token": "<|vision_end|>",
}


class NaFlexImages:
    """LFM2-VL's image processor in PIL and NumPy, one tile per image: transformers has it only as a torchvision class.

    Each image is resized (bilinear) as `Lfm2VlImageProcessor.smart_resize` sizes it, to
    sides that are multiples of the patch side times the downsample factor and an area
    between `min_image_tokens` and `max_image_tokens` tokens, rescaled to [0, 1],
    normalized, and cut into patches laid out `(patch, patch, channels)` in row-major grid
    order, padded to the most patches an image can have. `pixel_attention_mask` marks the
    real patches, `spatial_shapes` holds each image's grid, and with `return_row_col_info`
    the one-tile layout and resized size the processor counts the image tokens from.
    """

    model_input_names = ["pixel_values", "pixel_attention_mask", "spatial_shapes"]

    def __init__(
        self,
        downsample_factor,
        encoder_patch_size,
        min_image_tokens,
        max_image_tokens,
        tile_size,
        image_mean,
        image_std,
        do_image_splitting=False,
        use_thumbnail=False,
        **_,
    ):
        self.downsample_factor = downsample_factor
        self.encoder_patch_size = encoder_patch_size
        self.min_image_tokens = min_image_tokens
        self.max_image_tokens = max_image_tokens
        self.tile_size = tile_size
        self.image_mean = image_mean
        self.image_std = image_std
        self.do_image_splitting = do_image_splitting
        self.use_thumbnail = use_thumbnail
        self.max_num_patches = max_image_tokens * downsample_factor**2

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as addresses."""
        return images

    def smart_resize(self, height, width):
        """(height, width) of the resized image, as `Lfm2VlImageProcessor.smart_resize` computes them."""
        factor = self.encoder_patch_size * self.downsample_factor
        unit = self.encoder_patch_size**2 * self.downsample_factor**2
        least, most = self.min_image_tokens * unit, self.max_image_tokens * unit
        rows = max(factor, round(height / factor) * factor)
        cols = max(factor, round(width / factor) * factor)
        if rows * cols > most:
            beta = math.sqrt(height * width / most)
            rows = max(factor, math.floor(height / beta / factor) * factor)
            cols = max(factor, math.floor(width / beta / factor) * factor)
        elif rows * cols < least:
            beta = math.sqrt(least / (height * width))
            rows = math.ceil(height * beta / factor) * factor
            cols = math.ceil(width * beta / factor) * factor
        return rows, cols

    def __call__(self, images, return_row_col_info=False, **_):
        from PIL import Image

        flat = []
        for item in images if isinstance(images, list) else [images]:
            flat.extend(item if isinstance(item, list) else [item])
        side = self.encoder_patch_size
        pixels_out, masks, shapes, sizes = [], [], [], []
        for picture in flat:
            picture = picture.convert("RGB")
            rows, cols = self.smart_resize(picture.height, picture.width)
            if (picture.height, picture.width) != (rows, cols):
                picture = picture.resize((cols, rows), Image.BILINEAR)
            pixels = np.asarray(picture, dtype=np.float32) / 255.0
            pixels = (pixels - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            grid_rows, grid_cols = rows // side, cols // side
            patches = torch.from_numpy(pixels).reshape(grid_rows, side, grid_cols, side, 3)
            patches = patches.permute(0, 2, 1, 3, 4).reshape(grid_rows * grid_cols, side * side * 3)
            padded = torch.zeros(self.max_num_patches, side * side * 3)
            padded[: len(patches)] = patches
            mask = torch.zeros(self.max_num_patches, dtype=torch.int32)
            mask[: len(patches)] = 1
            pixels_out.append(padded)
            masks.append(mask)
            shapes.append((grid_rows, grid_cols))
            sizes.append([rows, cols])
        data = {
            "pixel_values": torch.stack(pixels_out),
            "pixel_attention_mask": torch.stack(masks),
            "spatial_shapes": torch.tensor(shapes),
        }
        if return_row_col_info:
            data.update({"image_rows": [1] * len(flat), "image_cols": [1] * len(flat), "image_sizes": sizes})
        return BatchFeature(data)

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    return ProcessorParts(
        with_image_tokens(tokenizer, **NAMED),
        NaFlexImages(**IMAGE_SETTINGS),
        chat_template(IMAGE_TOKEN),
        processor_class="Lfm2VlProcessor",
    )


#: LFM2-VL: a SigLIP2 NaFlex tower, a pixel-unshuffle MLP projector, on LFM2 with a convolution block and an
#: attention block.
ENTRIES = (
    Entry(
        "lfm2_vl",
        "lfm2_vl",
        {
            "text_config": {**LFM2_SHAPE, "model_type": "lfm2", "vocab_size": WRAPPED_VOCAB, **special_token_ids()},
            "vision_config": SIGLIP2_TOWER,
            "projector_hidden_size": 48,
            "downsample_factor": DOWNSAMPLE,
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def lfm2_vl_processor():
    """The wrapper's processor from the checkpoint's parts, `NaFlexImages` as its image processor.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for the image slot while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.lfm2_vl.processing_lfm2_vl import Lfm2VlProcessor

    from .. import locate

    path = locate.checkpoint_path("lfm2_vl")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name == "image_processor" else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Lfm2VlProcessor(
            image_processor=NaFlexImages(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
