import itertools
import json
from pathlib import Path

import nnsight  # noqa: F401  - before any transformers modeling module
import numpy as np
import torch
from torch.nn import functional as F
from transformers import BatchFeature

from ..entry import GROUPED_LLAMA_SHAPE, INIT_STD, Entry
from ..tokenizer import VOCAB_SIZE, special_token_ids
from ..vision import ProcessorParts, chat_template

#: The marker tokens Molmo2's processor reads off its tokenizer, added after the shared vocabulary in id order (the
#: shared image tokens are left out: the vocabulary may grow by at most 8 past them, and Molmo2 needs none of them).
MOLMO_TOKENS = (
    "<|image|>",
    "<|video|>",
    "<im_patch>",
    "<im_col>",
    "<im_start>",
    "<low_res_im_start>",
    "<frame_start>",
    "<im_end>",
    "<frame_end>",
    "<im_low>",
)
#: The tokenizer's named marker tokens the processor reads.
NAMED = {"image_token": "<|image|>", "video_token": "<|video|>"}

#: The crop side, in pixels: a 4x4 grid of 8-pixel patches, pooled 2x2 into four image tokens per crop.
SIDE = 32
#: The side of one patch, in pixels.
PATCH = 8

#: Molmo2's ViT shrunk to two blocks of width 32 over a 32-pixel crop of 8-pixel patches.
MOLMO_VIT = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "image_size": [SIDE, SIDE],
    "patch_size": PATCH,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}
#: The adapter: the last block's stream and block 0's joined, pooled by a two-head cross-attention, a gated MLP.
MOLMO_ADAPTER = {
    "vision_feature_layer": [-1, 0],
    "hidden_size": 32,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "intermediate_size": 64,
    "text_hidden_size": GROUPED_LLAMA_SHAPE["hidden_size"],
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}
#: The image processor's settings: 32-pixel crops, at most four high-resolution crops overlapping by one patch on
#: each side, 2x2 pooling windows, SigLIP's normalization.
IMAGE_SETTINGS = {
    "image_processor_type": "Molmo2ImageProcessor",
    "size": {"height": SIDE, "width": SIDE},
    "max_crops": 4,
    "overlap_margins": [1, 1],
    "patch_size": PATCH,
    "pooling_size": [2, 2],
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


def _token_id(token: str) -> int:
    return VOCAB_SIZE + MOLMO_TOKENS.index(token)


def _select_tiling(height: int, width: int, window: int, max_crops: int) -> tuple[int, int]:
    """`select_tiling` of `image_processing_molmo2`: the (rows, columns) of windows that upscales the least, or, where
    every tiling must shrink the image, shrinks it least; ties go to fewer crops, then fewer rows."""
    tilings = [
        (rows, cols) for rows, cols in itertools.product(range(1, max_crops + 1), repeat=2) if rows * cols <= max_crops
    ]
    tilings.sort(key=lambda tiling: (tiling[0] * tiling[1], tiling[0]))
    scales = (np.array(tilings, np.float32) * window / np.array([height, width], np.float32)).min(-1)
    if np.all(scales < 1):
        return tilings[int(scales.argmax())]
    return tilings[int(np.where(scales < 1.0, 10e9, scales).argmin())]


def _pooling_windows(grid: torch.Tensor, pool_h: int, pool_w: int) -> tuple[torch.Tensor, int, int]:
    """`arange_for_pooling`: the patch-index grid cut into pooling windows, padded centrally with -1."""
    pad_h = pool_h * -(-grid.shape[0] // pool_h) - grid.shape[0]
    pad_w = pool_w * -(-grid.shape[1] // pool_w) - grid.shape[1]
    grid = F.pad(grid, (pad_w // 2, (pad_w + 1) // 2, pad_h // 2, (pad_h + 1) // 2), mode="constant", value=-1)
    rows, cols = grid.shape[0] // pool_h, grid.shape[1] // pool_w
    windows = grid.reshape(rows, pool_h, cols, pool_w).permute(0, 2, 1, 3).reshape(rows * cols, pool_h * pool_w)
    return windows, rows, cols


class Molmo2Images:
    """Molmo2's image processor in PIL, NumPy and torch: transformers has it only as a torchvision class.

    Each image is resized (bilinear, no antialias, as torchvision resizes a tensor;
    rounded back to bytes) to a canvas of overlapping square crops, the tiling
    `Molmo2ImageProcessor` picks for its size, and again to one crop, the low-resolution
    whole; both are rescaled to [0, 1] and normalized. The whole comes first, then the
    crops in row-major order, each cut into patches laid out `(patch, patch, channels)`;
    `pixel_values` holds every image's crops, `[crops, patches, pixels]`.
    `image_token_pooling` holds each image token's 2x2 window of patch indices into the
    flattened crops (the whole's windows, then those of the canvas with each crop's
    overlap margins dropped), -1 where a window pads; `image_grids` holds each image's
    `(whole rows, whole columns, canvas rows, canvas columns)` of tokens, and
    `image_num_crops` its crop count. That is `Molmo2ImageProcessor`'s output, tensor for
    tensor.
    """

    model_input_names = ["pixel_values", "image_token_pooling", "image_grids", "image_num_crops"]

    def __init__(self, size, max_crops, overlap_margins, patch_size, pooling_size, image_mean, image_std, **_):
        self.size = size
        self.max_crops = max_crops
        self.overlap_margins = overlap_margins
        self.patch_size = patch_size
        self.pooling_size = pooling_size
        self.image_mean = image_mean
        self.image_std = image_std

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as URLs or paths."""
        return images

    def _resized(self, pixels: torch.Tensor, height: int, width: int) -> torch.Tensor:
        """`pixels` (`[3, H, W]` bytes) resized to `height` x `width`, rescaled, normalized, channels last."""
        resized = F.interpolate(pixels[None].float(), size=(height, width), mode="bilinear", antialias=False)
        resized = resized.round().clamp(0, 255)[0] / 255.0
        mean = torch.tensor(self.image_mean, dtype=torch.float32)[:, None, None]
        std = torch.tensor(self.image_std, dtype=torch.float32)[:, None, None]
        return ((resized - mean) / std).permute(1, 2, 0)

    def _patches(self, crops: torch.Tensor) -> torch.Tensor:
        """`[crops, S, S, C]` cut into `[crops, patches, patch * patch * C]`, row-major."""
        count, height, width, channels = crops.shape
        side = self.patch_size
        crops = crops.reshape(count, height // side, side, width // side, side, channels).transpose(2, 3)
        return crops.reshape(count, (height // side) * (width // side), side * side * channels)

    def _one(self, picture):
        crop = self.size["height"]
        side = self.patch_size
        left, right = self.overlap_margins
        crop_patches = crop // side
        window = (crop_patches - left - right) * side
        margin = (left + right) * side
        pixels = torch.from_numpy(np.array(picture.convert("RGB"), dtype=np.uint8)).permute(2, 0, 1)
        tiling_h, tiling_w = _select_tiling(pixels.shape[1] - margin, pixels.shape[2] - margin, window, self.max_crops)
        canvas_h, canvas_w = tiling_h * window + margin, tiling_w * window + margin

        canvas = self._resized(pixels, canvas_h, canvas_w)
        crops = torch.stack(
            [
                canvas[row * window : row * window + crop, col * window : col * window + crop]
                for row in range(tiling_h)
                for col in range(tiling_w)
            ]
        )
        # Each crop's patch indices, its overlap margins dropped where a neighbour covers them.
        index = torch.arange(tiling_h * tiling_w * crop_patches**2, dtype=torch.int32)
        index = index.reshape(tiling_h, tiling_w, crop_patches, crop_patches)
        if left:
            index[1:, :, :left, :] = -1
            index[:, 1:, :, :left] = -1
        if right:
            index[:-1, :, -right:, :] = -1
            index[:, :-1, :, -right:] = -1
        index = index.permute(0, 2, 1, 3).reshape(-1)
        index = index[index >= 0].reshape(canvas_h // side, canvas_w // side)
        pool_h, pool_w = self.pooling_size
        windows, rows, cols = _pooling_windows(index, pool_h, pool_w)

        whole = self._resized(pixels, crop, crop)[None]
        whole_index = torch.arange(crop_patches**2, dtype=torch.int32).reshape(crop_patches, crop_patches)
        whole_windows, whole_rows, whole_cols = _pooling_windows(whole_index, pool_h, pool_w)
        windows = torch.where(windows >= 0, windows + crop_patches**2, -1)
        pooling = torch.cat([whole_windows, windows])
        grid = torch.tensor([whole_rows, whole_cols, rows, cols], dtype=torch.int64)
        return self._patches(torch.cat([whole, crops])), pooling, grid

    def __call__(self, images, **_):
        images = images if isinstance(images, list) else [images]
        patches, pooling, grids = [], [], []
        offset = 0
        for picture in images:
            crops, windows, grid = self._one(picture)
            pooling.append(torch.where(windows >= 0, windows + offset, windows))
            patches.append(crops)
            grids.append(grid)
            offset += crops.shape[0] * crops.shape[1]
        return BatchFeature(
            {
                "pixel_values": torch.cat(patches),
                "image_token_pooling": torch.cat(pooling),
                "image_grids": torch.stack(grids),
                "image_num_crops": torch.tensor([crops.shape[0] for crops in patches], dtype=torch.int64),
            }
        )

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    tokenizer.add_tokens(list(MOLMO_TOKENS), special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens=NAMED)
    assert tokenizer.convert_tokens_to_ids(list(MOLMO_TOKENS)) == [_token_id(token) for token in MOLMO_TOKENS]
    return ProcessorParts(
        tokenizer,
        Molmo2Images(**IMAGE_SETTINGS),
        chat_template(NAMED["image_token"]),
        processor_class="Molmo2Processor",
    )


def molmo2_processor():
    """The pinned checkpoint's `Molmo2Processor`, `Molmo2Images` as its image processor, its video slot empty.

    The processor class checks its image and video processors' classes, which without
    torchvision cannot be imported; the check is lifted for those slots while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.molmo2.processing_molmo2 import Molmo2Processor

    from .. import locate

    path = locate.checkpoint_path("molmo2")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name in ("image_processor", "video_processor") else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Molmo2Processor(
            image_processor=Molmo2Images(**settings),
            video_processor=None,
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


#: Molmo2: a ViT run per crop (a low-resolution whole and overlapping high-resolution crops), an attention-pooling
#: adapter over 2x2 windows, on a Llama block with OLMo 2's query/key norms.
ENTRIES = (
    Entry(
        "molmo2",
        "molmo2",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "head_dim": 16,
                # The head covers the whole tokenizer, marker tokens included, so the embedding needs no extra rows
                # (the released checkpoints keep the markers in 128 extra rows past the head's vocabulary).
                "vocab_size": VOCAB_SIZE + len(MOLMO_TOKENS),
                "additional_vocab_size": 0,
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
                **special_token_ids(),
            },
            "vision_config": MOLMO_VIT,
            "adapter_config": MOLMO_ADAPTER,
            "image_patch_id": _token_id("<im_patch>"),
            "image_start_token_id": _token_id("<im_start>"),
            "low_res_image_start_token_id": _token_id("<low_res_im_start>"),
            "image_end_token_id": _token_id("<im_end>"),
            "frame_start_token_id": _token_id("<frame_start>"),
            "frame_end_token_id": _token_id("<frame_end>"),
            # The wrapper's init reads the root's scale; the default leaves the tower and adapter near zero.
            "initializer_range": INIT_STD,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
