import numpy as np
import torch
from transformers import BatchFeature

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .inkling2 import NumpyImages, parts, wrapper_processor
from .inkling_text import INKLING_SHAPE, embedding_norm_elsewhere

#: Inkling's hierarchical patch MLP shrunk to four stages over 4-pixel grayscale patches of two frames each.
#: Its plan of stage widths rounds the last (temporal) stage to `64 * ceil(pixels)` channels, so an RGB patch
#: of any size would need thousands; one channel keeps it at 2048 and every stage small. Four stages are as
#: many as the plan has scales, which it fills without scipy.
#: `hidden_size` sizes nothing in this tower (its widths follow the patch plan); it is shrunk so the config reads tiny.
INKLING_TOWER = {
    "patch_size": 4,
    "temporal_patch_size": 2,
    "num_channels": 1,
    "num_hidden_layers": 4,
    "hidden_size": 64,
}
#: The audio embedding shrunk to two mel bins of four levels (no audio reaches the tests).
INKLING_AUDIO = {"n_mel_bins": 2, "mel_vocab_size": 4}
#: The processor's named tokens, from the added tokens.
INKLING_TOKENS = {
    "audio_token": "<|video_pad|>",
    "image_bos_token": "<|vision_start|>",
    "audio_bos_token": "<|vision_end|>",
}
#: The image processor's settings: 4-pixel tiles of the grayscale image, as it is, normalized.
INKLING_IMAGES = {
    "image_processor_type": "InklingImageProcessor",
    "size": {"height": INKLING_TOWER["patch_size"], "width": INKLING_TOWER["patch_size"]},
    "rescale_factor": 1 / 255,
    "image_mean": [0.5],
    "image_std": [0.5],
    "do_convert_rgb": False,
    "rescale_image_frac": None,
}


class InklingImages(NumpyImages):
    """`InklingImageProcessor` in NumPy, for images it does not resize (`rescale_image_frac` unset).

    The image is cut into `size` tiles in row-major order, `ceil(height / side)` rows of
    `width // side + 1` tiles (one column more than the image fills, as the torchvision
    class counts them), each padded at its bottom and right edges with -1 on the 0-255
    scale; the tiles are rescaled, normalized and repeated over two frames, giving
    `pixel_values` of `[tiles, 2, side, side, channels]` and `num_patches` per image.
    With `do_convert_rgb` unset a grayscale image keeps its one channel.
    """

    model_input_names = ["pixel_values"]

    def pixels(self, picture):
        if self.extra.get("do_convert_rgb", True):
            return super().pixels(picture)
        pixels = np.asarray(picture, dtype=np.float32)
        return pixels[..., None] if pixels.ndim == 2 else pixels

    def patches(self, pixels):
        side = self.size["height"]
        height, width, channels = pixels.shape
        rows, cols = -(-height // side), width // side + 1
        padded = np.full((rows * side, cols * side, channels), -1.0, np.float32)
        padded[:height, :width] = pixels
        tiles = self.normalize(padded).reshape(rows, side, cols, side, channels).transpose(0, 2, 1, 3, 4)
        tiles = tiles.reshape(rows * cols, 1, side, side, channels)
        return np.repeat(tiles, 2, axis=1)

    def batch(self, cut):
        pixels = torch.from_numpy(np.concatenate(cut))
        return BatchFeature({"pixel_values": pixels, "num_patches": torch.tensor([len(tiles) for tiles in cut])})


def inkling_processor():
    """The wrapper checkpoint's `InklingProcessor`, `InklingImages` as its image processor, no audio."""
    return wrapper_processor("inkling_mm_model", InklingImages)


def _parts(tokenizer, config):
    return parts(tokenizer, InklingImages(**INKLING_IMAGES), "InklingProcessor", **INKLING_TOKENS)


#: Inkling: a hierarchical MLP that folds each two-frame patch into one text-width image token, no attention, no
#: separate projector, on the Inkling text model; an audio embedding beside it.
ENTRIES = (
    Entry(
        "inkling_mm_model",
        "inkling_mm_model",
        {
            "text_config": {**INKLING_SHAPE, **special_token_ids(), "vocab_size": WRAPPED_VOCAB},
            "vision_config": INKLING_TOWER,
            "audio_config": INKLING_AUDIO,
            "image_token_id": image_token_id(),
            "audio_token_id": image_token_id(INKLING_TOKENS["audio_token"]),
            "image_bos_token_id": image_token_id(INKLING_TOKENS["image_bos_token"]),
            "audio_bos_token_id": image_token_id(INKLING_TOKENS["audio_bos_token"]),
        },
        auto_class="AutoModelForImageTextToText",
        processor=_parts,
        cannot_run=embedding_norm_elsewhere,
    ),
)
