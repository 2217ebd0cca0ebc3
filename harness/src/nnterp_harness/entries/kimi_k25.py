import json
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import LATENT_ATTENTION_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .deepseek_v3 import GROUPED_SIGMOID_MOE

#: The wrapper's marker tokens, named as the processor reads them off its tokenizer.
MARKERS = {
    "image_token": "<|image_pad|>",
    "video_token": "<|video_pad|>",
}

#: Kimi K2.5's MoonViT shrunk to two blocks of width 32 over 8-pixel patches, a 4x4 learned position grid resampled
#: to each image, each 2x2 group of patches merged into one image token.
KIMI_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": 8,
    "pos_emb_height": 4,
    "pos_emb_width": 4,
    "pos_emb_time": 2,
    "merge_kernel_size": [2, 2],
}
#: The image processor's settings: each image at its own size (padded to whole 2x2 groups), normalized, cut into
#: channel-first patches.
IMAGE_SETTINGS = {
    "image_processor_type": "Kimi_K25ImageProcessor",
    "patch_size": KIMI_TOWER["patch_size"],
    "merge_size": KIMI_TOWER["merge_kernel_size"][0],
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


class KimiImages:
    """The wrapper's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Each image at its own size, padded at the bottom and right with zeros to whole 2x2 groups
    of patches, rescaled to [0, 1], normalized, and cut into patches `(channels, patch, patch)`
    in row-major grid order, every image's patches concatenated; `image_grid_thw` holds each
    image's `(1, rows, columns)`. That is the layout `Kimi_K25ImageProcessor` gives an image
    under its size limit.
    """

    model_input_names = ["pixel_values", "image_grid_thw"]

    def __init__(self, patch_size, merge_size, image_mean, image_std, **_):
        self.patch_size = patch_size
        self.merge_size = merge_size
        self.image_mean = image_mean
        self.image_std = image_std

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as URLs or paths."""
        return images

    def __call__(self, images, **_):
        images = images if isinstance(images, list) else [images]
        side, factor = self.patch_size, self.patch_size * self.merge_size
        patches, grids = [], []
        for picture in images:
            pixels = np.asarray(picture.convert("RGB"), dtype=np.float32) / 255.0
            height, width = (-(-length // factor) * factor for length in pixels.shape[:2])
            padded = np.zeros((height, width, 3), np.float32)
            padded[: pixels.shape[0], : pixels.shape[1]] = pixels
            padded = (padded - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            rows, cols = height // side, width // side
            grid = torch.from_numpy(padded).permute(2, 0, 1).reshape(3, rows, side, cols, side)
            patches.append(grid.permute(1, 3, 0, 2, 4).reshape(rows * cols, 3, side, side))
            grids.append((1, rows, cols))
        return BatchFeature({"pixel_values": torch.cat(patches), "image_grid_thw": torch.tensor(grids)})

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    return ProcessorParts(
        with_image_tokens(tokenizer, **MARKERS),
        KimiImages(**IMAGE_SETTINGS),
        chat_template(MARKERS["image_token"]),
        processor_class="Kimi_K25Processor",
    )


#: Kimi K2.5: a packed MoonViT with a 2-D rotary and per-image attention, a 2x2 patch merge, a norm-and-MLP projector,
#: on the DeepSeek-V3 text model.
ENTRIES = (
    Entry(
        "kimi_k25",
        "kimi_k25",
        {
            "text_config": {
                **GROUPED_SIGMOID_MOE,
                **LATENT_ATTENTION_SHAPE,
                "head_dim": 8,
                **special_token_ids(),
                "vocab_size": WRAPPED_VOCAB,
            },
            "vision_config": KIMI_TOWER,
            "projection_hidden_size": KIMI_TOWER["hidden_size"],
            "image_token_id": image_token_id(MARKERS["image_token"]),
            "video_token_id": image_token_id(MARKERS["video_token"]),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def kimi_processor():
    """The wrapper's processor from the checkpoint's parts, `KimiImages` as its image processor, no video slot.

    The processor class checks its image and video processors' classes, which without
    torchvision cannot be imported; the check is lifted for those slots while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.kimi_k25.processing_kimi_k25 import Kimi_K25Processor

    from .. import locate

    path = locate.checkpoint_path("kimi_k25")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name in ("image_processor", "video_processor") else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Kimi_K25Processor(
            image_processor=KimiImages(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
