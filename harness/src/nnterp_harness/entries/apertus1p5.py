import json
import math
from pathlib import Path

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import VOCAB_SIZE, special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens

#: The image side, in pixels: the VQ encoder downsamples by 8, a 4x4 grid of codes.
SIDE = 32
#: The VQ encoder's downsampling: three stride-2 stages.
DOWNSAMPLE = 8
#: The image codebook and the audio codebook: each code maps to one token of the shared vocabulary.
IMAGE_CODES = 16
AUDIO_CODES = 16
#: Where the codes land in the vocabulary: the image codes, then the audio codes, on the last shared tokens.
IMAGE_TOKEN_OFFSET = VOCAB_SIZE - IMAGE_CODES - AUDIO_CODES
AUDIO_TOKEN_OFFSET = IMAGE_TOKEN_OFFSET + IMAGE_CODES
#: Apertus 1.5's audio tokens, after the shared image tokens: the placeholder and the clip's start and end.
AUDIO_TOKENS = ("<|audio|>", "<|audio_start|>", "<|audio_end|>")
#: The tokens the processor reads off its tokenizer by name: the image's placeholder, start and end, the token
#: before its code rows and the one after each row, and the audio's.
NAMED = {
    "image_token": IMAGE_TOKEN,
    "boi_token": "<start_of_image>",
    "eoi_token": "<end_of_image>",
    "image_wrapper_token": "<|vision_start|>",
    "eol_token": "<|vision_end|>",
    "audio_token": AUDIO_TOKENS[0],
    "boa_token": AUDIO_TOKENS[1],
    "eoa_token": AUDIO_TOKENS[2],
}

#: The text model: Apertus's block (xIELU MLP, per-head query/key norms), two layers.
TEXT = {
    **GROUPED_LLAMA_SHAPE,
    "num_hidden_layers": 2,
    "head_dim": 16,
    "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
    "vocab_size": WRAPPED_VOCAB + len(AUDIO_TOKENS),
    "tie_word_embeddings": True,
    **special_token_ids(),
}
#: The VQ image tokenizer shrunk: four stages at 32 channels (its group norms' least), three of them downsampling,
#: no residual blocks or attention outside the middle block, a 16-code codebook of width 4.
VQ_TOKENIZER = {
    "codebook_size": IMAGE_CODES,
    "embed_dim": 4,
    "latent_channels": 4,
    "base_channels": 32,
    "channel_multiplier": [1, 1, 1, 1],
    "num_res_blocks": 0,
    "attn_resolutions": [],
}
#: The WavTokenizer encoder shrunk: 4 filters, two 2x downsamplings, one LSTM layer, a 16-code codebook of width 8.
AUDIO_TOKENIZER = {
    "model_type": "wavtokenizer_encoder",
    "num_filters": 4,
    "upsampling_ratios": [2, 2],
    "num_lstm_layers": 1,
    "hidden_size": 8,
    "codebook_size": AUDIO_CODES,
    "codebook_dim": 8,
    "kernel_size": 3,
    "last_kernel_size": 3,
    "decoder_hidden_size": 32,
    "decoder_intermediate_size": 32,
    "decoder_num_layers": 1,
    "decoder_attention_num_groups": 32,
}
#: The image processor's settings: each image resized to `SIDE` pixels square, normalized to [-1, 1].
IMAGE_SETTINGS = {
    "image_processor_type": "Apertus1p5ImageProcessor",
    "spatial_factor": DOWNSAMPLE,
    "size": {"min_pixels": SIDE * SIDE, "max_pixels": SIDE * SIDE},
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


class VqImages:
    """Apertus 1.5's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Each image is resized (bicubic) to sides that are multiples of `spatial_factor` within
    the `size` pixel budget, as `Apertus1p5ImageProcessor` sizes it, rescaled to [0, 1],
    normalized, laid out channel-first and zero-padded to the largest image of the call;
    `image_sizes` holds each image's own size, which the model crops back to.
    """

    model_input_names = ["pixel_values", "image_sizes"]

    def __init__(self, spatial_factor, size, image_mean, image_std, **_):
        self.spatial_factor = spatial_factor
        self.size = size
        self.image_mean = image_mean
        self.image_std = image_std

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as addresses."""
        return images

    def smart_resize(self, height, width):
        """(height, width) of the resized image, as the transformers processor's `smart_resize` computes them."""
        factor, least, most = self.spatial_factor, self.size["min_pixels"], self.size["max_pixels"]
        rows, cols = round(height / factor) * factor, round(width / factor) * factor
        if rows * cols > most:
            beta = math.sqrt(height * width / most)
            rows = max(factor, math.floor(height / beta / factor) * factor)
            cols = max(factor, math.floor(width / beta / factor) * factor)
        elif rows * cols < least:
            beta = math.sqrt(least / (height * width))
            rows = math.ceil(height * beta / factor) * factor
            cols = math.ceil(width * beta / factor) * factor
        return rows, cols

    def get_number_of_image_patches(self, height, width, images_kwargs=None):
        """The codes, and so the image tokens, of an image of this size."""
        rows, cols = self.smart_resize(height, width)
        return (rows // self.spatial_factor) * (cols // self.spatial_factor)

    def __call__(self, images, **_):
        from PIL import Image

        flat = []
        for item in images if isinstance(images, list) else [images]:
            flat.extend(item if isinstance(item, list) else [item])
        grids = []
        for picture in flat:
            picture = picture.convert("RGB")
            rows, cols = self.smart_resize(picture.height, picture.width)
            if (picture.height, picture.width) != (rows, cols):
                picture = picture.resize((cols, rows), Image.BICUBIC)
            pixels = np.asarray(picture, dtype=np.float32) / 255.0
            pixels = (pixels - np.array(self.image_mean, np.float32)) / np.array(self.image_std, np.float32)
            grids.append(torch.from_numpy(pixels).permute(2, 0, 1))
        height = max(grid.shape[1] for grid in grids)
        width = max(grid.shape[2] for grid in grids)
        batch = torch.zeros(len(grids), 3, height, width)
        for index, grid in enumerate(grids):
            batch[index, :, : grid.shape[1], : grid.shape[2]] = grid
        sizes = torch.tensor([list(grid.shape[1:]) for grid in grids])
        return BatchFeature({"pixel_values": batch, "image_sizes": sizes})

    def save_pretrained(self, path):
        text = json.dumps(IMAGE_SETTINGS, indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


def _processor(tokenizer, config):
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(AUDIO_TOKENS), special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens=NAMED)
    return ProcessorParts(
        tokenizer, VqImages(**IMAGE_SETTINGS), chat_template(IMAGE_TOKEN), processor_class="Apertus1p5Processor"
    )


#: Apertus 1.5: early fusion, each image a grid of VQ codes read as text tokens (an end-of-row token after each
#: row), on Apertus's block; an audio tokenizer beside it, whose codes enter the same way.
ENTRIES = (
    Entry(
        "apertus1p5",
        "apertus1p5",
        {
            "text_config": TEXT,
            "vision_config": VQ_TOKENIZER,
            "audio_config": AUDIO_TOKENIZER,
            "image_token_id": image_token_id(),
            "audio_token_id": WRAPPED_VOCAB,
            "image_token_offset": IMAGE_TOKEN_OFFSET,
            "audio_token_offset": AUDIO_TOKEN_OFFSET,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def apertus1p5_processor():
    """The wrapper's processor from the checkpoint's parts, `VqImages` as its image processor and no audio.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for the image and audio slots while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.apertus1p5.processing_apertus1p5 import Apertus1p5Processor

    from .. import locate

    path = locate.checkpoint_path("apertus1p5")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name in ("image_processor", "feature_extractor") else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Apertus1p5Processor(
            image_processor=VqImages(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
