import json
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import INIT_STD, MAX_POSITIONS, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template

#: The marker tokens `MuseGlimmerProcessor` reads off its tokenizer by these fixed spellings; they follow the shared
#: added tokens, in this order.
MARKERS = ("<|patch|>", "<|image_start|>", "<|image_end|>", "<|video|>")
#: The wrapper's text vocabulary: the shared wrapped one plus `MARKERS`.
MUSE_VOCAB = WRAPPED_VOCAB + len(MARKERS)
#: The id of the image token, `<|patch|>`.
IMAGE_TOKEN_ID = WRAPPED_VOCAB
#: The id of the video token, `<|video|>`.
VIDEO_TOKEN_ID = WRAPPED_VOCAB + 3

#: The Muse Glimmer ViT shrunk to two blocks of width 32 over 8-pixel patches (each repeated over a temporal pair),
#: a 2x2 learned position grid (resampled to each image's grid) that also sets the window to 2x2 patches, so a 32-pixel
#: image is four windows; each 2x2 group of patches is folded into one row of `out_hidden_size` by the tower's pixel
#: shuffle. Block 0 attends within windows, block 1 over the whole image.
MUSE_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": 8,
    "patch_temporal": 2,
    "merge_size": 2,
    "pos_emb_height": 2,
    "pos_emb_width": 2,
    "max_position_embeddings": 4,
    "initializer_range": INIT_STD,
}
#: The Muse Glimmer text model shrunk: four sandwich blocks, grouped gated heads, the last block full attention
#: without rotary (NoPE), the others sliding-window; the head's output scaled and softcapped.
MUSE_TEXT = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 4,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "max_position_embeddings": MAX_POSITIONS,
    "sliding_window": 128,
    "final_logit_softcapping": 20.0,
    "output_multiplier": 0.5,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "vocab_size": MUSE_VOCAB,
    "tie_word_embeddings": True,
    **special_token_ids(),
}
#: The image processor's settings: each image resized to whole 2x2 groups of patches under the token cap, rescaled,
#: normalized, cut into patches repeated over the temporal pair.
IMAGE_SETTINGS = {
    "image_processor_type": "MuseGlimmerImageProcessor",
    "patch_size": MUSE_TOWER["patch_size"],
    "temporal_patch_size": MUSE_TOWER["patch_temporal"],
    "merge_size": MUSE_TOWER["merge_size"],
    "max_image_tokens": 16,
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


def smart_resize(height, width, patch_size, max_tokens):
    """(height, width) of the resized image, as `muse_glimmer`'s `smart_resize` computes them."""
    import itertools
    import math

    ideal_h, ideal_w = height / patch_size, width / patch_size
    ratio = ideal_w / ideal_h if ideal_h > 0 else 1.0
    if ideal_h * ideal_w > max_tokens:
        ideal_h = (max_tokens / ratio) ** 0.5
        ideal_w = ideal_h * ratio
    candidates = set(
        itertools.product([math.floor(ideal_h), math.ceil(ideal_h)], [math.floor(ideal_w), math.ceil(ideal_w)])
    )
    candidates = [(h, w) for h, w in candidates if h >= 1 and w >= 1 and h * w <= max_tokens]
    if not candidates:
        candidates = [(max(1, round(ideal_h)), max(1, round(ideal_w)))]
    rows, cols = min(candidates, key=lambda grid: abs(grid[0] / grid[1] - height / width))
    return rows * patch_size, cols * patch_size


class MuseImages:
    """The wrapper's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Each image is resized (Lanczos) to the grid of whole 2x2 patch groups `smart_resize`
    picks under `max_image_tokens` (an image already on such a grid keeps its pixels),
    rescaled to [0, 1], normalized, and cut into patches in row-major grid order, each
    patch laid out `(temporal, channels, patch, patch)` with the image repeated over the
    temporal pair; every image's patches are concatenated, and `image_grid_thw` holds each
    image's `(1, rows, columns)`. That is `MuseGlimmerImageProcessor`'s output.
    """

    model_input_names = ["pixel_values", "image_grid_thw"]

    def __init__(self, patch_size, temporal_patch_size, merge_size, max_image_tokens, image_mean, image_std, **_):
        self.patch_size = patch_size
        self.temporal_patch_size = temporal_patch_size
        self.merge_size = merge_size
        self.max_image_tokens = max_image_tokens
        self.image_mean = image_mean
        self.image_std = image_std

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as URLs or paths."""
        return images

    def __call__(self, images, **_):
        from PIL import Image

        flat = []
        for item in images if isinstance(images, list) else [images]:
            flat.extend(item if isinstance(item, list) else [item])
        side = self.patch_size
        patches, grids = [], []
        for picture in flat:
            picture = picture.convert("RGB")
            height, width = smart_resize(picture.height, picture.width, side * self.merge_size, self.max_image_tokens)
            if (picture.height, picture.width) != (height, width):
                picture = picture.resize((width, height), Image.LANCZOS)
            pixels = np.asarray(picture, dtype=np.float32) / 255.0
            pixels = (pixels - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            rows, cols = height // side, width // side
            grid = torch.from_numpy(pixels).permute(2, 0, 1).reshape(3, rows, side, cols, side)
            grid = grid.permute(1, 3, 0, 2, 4).reshape(rows * cols, 1, 3 * side * side)
            patches.append(grid.expand(-1, self.temporal_patch_size, -1).reshape(rows * cols, -1))
            grids.append((1, rows, cols))
        return BatchFeature({"pixel_values": torch.cat(patches), "image_grid_thw": torch.tensor(grids)})

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def with_markers(tokenizer):
    """The shared wrapped tokenizer with `MARKERS` added as special tokens, ids from `WRAPPED_VOCAB` on."""
    from ..vision import with_image_tokens

    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(MARKERS), special_tokens=True)
    return tokenizer


def _processor(tokenizer, config):
    return ProcessorParts(
        with_markers(tokenizer),
        MuseImages(**IMAGE_SETTINGS),
        chat_template(MARKERS[0]),
        processor_class="MuseGlimmerProcessor",
    )


#: Muse Glimmer: a packed, windowed ViT with a 2-D rotary and a pixel-shuffle 2x2 merge, a two-layer adapter, a
#: projection and a weightless norm, on a Gemma-2-style sandwich text model with gated, QK-normed attention.
ENTRIES = (
    Entry(
        "muse_glimmer",
        "muse_glimmer",
        {
            "text_config": MUSE_TEXT,
            "vision_config": MUSE_TOWER,
            "out_hidden_size": MUSE_TOWER["hidden_size"] * MUSE_TOWER["merge_size"] ** 2,
            "projector_hidden_size": 48,
            "image_token_id": IMAGE_TOKEN_ID,
            "video_token_id": VIDEO_TOKEN_ID,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def muse_processor(checkpoint="muse_glimmer", processor_class="MuseGlimmerProcessor", **extra):
    """The wrapper's processor from the checkpoint's parts, `MuseImages` as its image processor, no video slot.

    The processor class checks its image and video processors' classes, which without
    torchvision cannot be imported; the check is lifted for those slots while it is built.
    `extra` gives parts the checkpoint does not save (an audio `feature_extractor`).
    """
    import transformers
    from transformers import AutoTokenizer, ProcessorMixin

    from .. import locate

    path = locate.checkpoint_path(checkpoint)
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name in ("image_processor", "video_processor") else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return getattr(transformers, processor_class)(
            image_processor=MuseImages(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
            **extra,
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
