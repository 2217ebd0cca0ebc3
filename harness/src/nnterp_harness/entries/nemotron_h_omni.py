import json
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .nemotron_h import NEMOTRON_H_SHAPE

#: RADIO shrunk to two blocks of width 32 over 8-pixel patches, one CLS token and one register.
RADIO_TOWER = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "mlp_ratio": 2.0,
    "patch_size": 8,
    "image_size": 32,
    "max_img_size": 64,
    "num_cls_tokens": 1,
    "num_registers": 1,
    "video_temporal_patch_size": 2,
    "layerscale_value": 0.5,
}
#: The image processor's settings: the whole image, normalized, cut into channel-major patches.
IMAGE_SETTINGS = {
    "image_processor_type": "NemotronH_Omni_Reasoning_V3ImageProcessor",
    "patch_size": RADIO_TOWER["patch_size"],
    "downsample_ratio": 0.5,
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}
#: The tokenizer's named image tokens the processor reads.
NAMED = {
    "image_token": IMAGE_TOKEN,
    "image_start_token": "<|vision_start|>",
    "image_end_token": "<|vision_end|>",
    "video_token": "<|video_pad|>",
}


class RadioImages:
    """The wrapper's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Each image at its own size (a multiple of twice the patch side), rescaled to [0, 1],
    normalized, and cut into patches laid out channel-major, `(channels, patch, patch)`,
    in row-major grid order, every image's patches concatenated; `image_grid_hw` holds each
    image's grid. That is the layout `NemotronH_Omni_Reasoning_V3ImageProcessor` gives.
    """

    model_input_names = ["pixel_values", "image_grid_hw"]

    def __init__(self, patch_size, downsample_ratio, image_mean, image_std, **_):
        self.patch_size = patch_size
        self.downsample_ratio = downsample_ratio
        self.image_mean = image_mean
        self.image_std = image_std

    def __call__(self, images, **_):
        images = images if isinstance(images, list) else [images]
        side = self.patch_size
        patches, grids = [], []
        for picture in images:
            pixels = np.asarray(picture.convert("RGB"), dtype=np.float32) / 255.0
            pixels = (pixels - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            rows, cols = pixels.shape[0] // side, pixels.shape[1] // side
            grid = torch.from_numpy(pixels).permute(2, 0, 1).reshape(3, rows, side, cols, side)
            patches.append(grid.permute(1, 3, 0, 2, 4).reshape(rows * cols, 3 * side * side))
            grids.append((rows, cols))
        return BatchFeature({"pixel_values": torch.cat(patches), "image_grid_hw": torch.tensor(grids)})

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    return ProcessorParts(
        with_image_tokens(tokenizer, **NAMED),
        RadioImages(**IMAGE_SETTINGS),
        chat_template(IMAGE_TOKEN),
        processor_class="NemotronH_Omni_Reasoning_V3Processor",
    )


#: Nemotron-H Omni: a RADIO tower, a pixel shuffle and an MLP projector on Nemotron-H, scattered in the root's forward.
ENTRIES = (
    Entry(
        "nemotron_h_omni",
        "nemotron_h_omni",
        {
            "text_config": {**NEMOTRON_H_SHAPE, **special_token_ids(), "vocab_size": WRAPPED_VOCAB},
            "vision_config": RADIO_TOWER,
            "vision_hidden_size": RADIO_TOWER["hidden_size"],
            "projector_hidden_size": 48,
            "downsample_ratio": IMAGE_SETTINGS["downsample_ratio"],
            "image_token_id": image_token_id(),
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def omni_processor():
    """The wrapper's processor from the checkpoint's parts, `RadioImages` as its image processor, no video or audio.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for the image, video and audio slots while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.nemotron_h_omni.processing_nemotron_h_omni import NemotronH_Omni_Reasoning_V3Processor

    from .. import locate

    path = locate.checkpoint_path("nemotron_h_omni")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return (
            None if name in ("image_processor", "video_processor", "feature_extractor") else check(self, name, argument)
        )

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return NemotronH_Omni_Reasoning_V3Processor(
            image_processor=RadioImages(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
