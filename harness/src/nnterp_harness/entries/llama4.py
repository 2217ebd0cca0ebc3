import json
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, with_image_tokens
from .llama4_text import ENTRIES as TEXT_ENTRIES

#: The tokens Llama 4's processor writes around and for each image, literally: it spells them in its code.
LLAMA4_TOKENS = ("<|image_start|>", "<|image|>", "<|patch|>", "<|image_end|>")
#: The text vocabulary: the wrapped vocabulary, then `LLAMA4_TOKENS` in order.
LLAMA4_VOCAB = WRAPPED_VOCAB + len(LLAMA4_TOKENS)

#: Llama 4's ViT shrunk to two blocks of width 32 over a 32-pixel image of 8-pixel patches (16 patches and a CLS
#: token); the pixel-shuffle adapter takes each 2x2 group of patches (four times the width, as the MLP's
#: `intermediate_size` must be) to one row of width 48.
LLAMA4_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": 32,
    "patch_size": 8,
    "pixel_shuffle_ratio": 0.5,
    "projector_input_dim": 48,
    "projector_output_dim": 48,
    "vision_output_dim": 48,
    "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
    "attention_dropout": 0.0,
}
#: The image processor's settings: one tile the tower's size per image, normalized.
IMAGE_SETTINGS = {
    "image_processor_type": "Llama4ImageProcessor",
    "size": {"height": LLAMA4_TOWER["image_size"], "width": LLAMA4_TOWER["image_size"]},
    "max_patches": 1,
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


def wrapper_forward_fails() -> str | None:
    """Why this release cannot run the wrapper's forward, or `None`.

    Where the wrapper's forward builds its output from `outputs.image_outputs` of its
    text model, whose output (`MoeCausalLMOutputWithPast`) has no such field, every call
    of the forward raises as it returns, with an image or without.
    """
    import inspect

    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers.modeling_outputs import MoeCausalLMOutputWithPast
    from transformers.models.llama4.modeling_llama4 import Llama4ForConditionalGeneration

    reads = "outputs.image_outputs" in inspect.getsource(Llama4ForConditionalGeneration.forward)
    if not reads or "image_outputs" in MoeCausalLMOutputWithPast.__dataclass_fields__:
        return None
    return (
        "this transformers release cannot run Llama4ForConditionalGeneration's forward: it reads image_outputs off "
        "its text model's output, which has none (AttributeError: 'MoeCausalLMOutputWithPast' object has no "
        "attribute 'image_outputs')"
    )


def llama4_token_id(token: str) -> int:
    """The id `_processor` gives one of `LLAMA4_TOKENS`."""
    return WRAPPED_VOCAB + LLAMA4_TOKENS.index(token)


class Llama4Images:
    """The wrapper's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Each image is resized to one tile of the tower's size (bilinear), rescaled to [0, 1] and
    normalized, channels first; `aspect_ratios` is one tile by one for every image, so the
    processor writes no tile separators and no global tile. That is what
    `Llama4ImageProcessor` gives with `max_patches=1`.
    """

    model_input_names = ["pixel_values"]

    def __init__(self, size, image_mean, image_std, max_patches=1, **_):
        self.size = size
        self.max_patches = max_patches
        self.image_mean = image_mean
        self.image_std = image_std

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as URLs or paths."""
        return images

    def __call__(self, images, **_):
        from PIL import Image

        images = images if isinstance(images, list) else [images]
        tiles = []
        for picture in images:
            picture = picture.convert("RGB")
            side = (self.size["width"], self.size["height"])
            if picture.size != side:
                picture = picture.resize(side, Image.BILINEAR)
            pixels = np.asarray(picture, dtype=np.float32) / 255.0
            pixels = (pixels - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            tiles.append(torch.from_numpy(pixels).permute(2, 0, 1))
        ratios = torch.ones(len(tiles), 2, dtype=torch.long)
        return BatchFeature({"pixel_values": torch.stack(tiles), "aspect_ratios": ratios})

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_special_tokens({"additional_special_tokens": list(LLAMA4_TOKENS)})
    assert tokenizer.convert_tokens_to_ids(LLAMA4_TOKENS[-1]) == LLAMA4_VOCAB - 1
    return ProcessorParts(
        tokenizer,
        Llama4Images(**IMAGE_SETTINGS),
        chat_template("<|image|>"),
        processor_class="Llama4Processor",
        patch_size=LLAMA4_TOWER["patch_size"],
        pixel_shuffle_ratio=LLAMA4_TOWER["pixel_shuffle_ratio"],
    )


#: Llama 4: its ViT with a pixel-shuffle MLP adapter inside the tower, a linear projector, on the Llama 4 text
#: model, scattered in the wrapper's own forward.
ENTRIES = (
    Entry(
        "llama4",
        "llama4",
        {
            "text_config": {**TEXT_ENTRIES[0].overrides, **special_token_ids(), "vocab_size": LLAMA4_VOCAB},
            "vision_config": LLAMA4_TOWER,
            "vocab_size": LLAMA4_VOCAB,
            "image_token_index": llama4_token_id("<|patch|>"),
            "boi_token_index": llama4_token_id("<|image_start|>"),
            "eoi_token_index": llama4_token_id("<|image_end|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        cannot_run=wrapper_forward_fails,
    ),
)


def llama4_processor():
    """The wrapper's processor from the checkpoint's parts, `Llama4Images` as its image processor.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for the image slot while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.llama4.processing_llama4 import Llama4Processor

    from .. import locate

    path = locate.checkpoint_path("llama4")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    own = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))
    own.pop("processor_class", None)
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name == "image_processor" else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Llama4Processor(
            image_processor=Llama4Images(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
            **own,
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
