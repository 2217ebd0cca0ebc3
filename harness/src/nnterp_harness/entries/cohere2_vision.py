import json

import nnsight  # noqa: F401  - before any transformers modeling module
import numpy as np
from transformers.image_processing_utils import get_size_dict
from transformers.image_utils import SizeDict
from transformers.models.got_ocr2.image_processing_pil_got_ocr2 import GotOcr2ImageProcessorPil

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, chat_template, with_image_tokens
from .cohere2 import ENTRIES as COHERE2
from .llava import SIGLIP_VISION

#: The tokens Command A Vision's processor reads off its tokenizer, added after the shared image tokens.
COHERE_TOKENS = {
    "boi_token": "<|START_OF_IMG|>",
    "eoi_token": "<|END_OF_IMG|>",
    "image_token": "<|IMG_PATCH|>",
    "img_line_break_token": "<|IMG_LINE_BREAK|>",
}
#: The projector's pixel shuffle: each tile's 4x4 patches become 2x2 image tokens.
DOWNSAMPLE = 2
#: The most tiles an image is cut into (a thumbnail is added beside a grid of more than one).
MAX_TILES = 4


def _tile_grid(height: int, width: int, tile: int, max_tiles: int) -> tuple[int, int]:
    """(columns, rows) of the tile grid for a `height` x `width` image, as Command A Vision's processor picks it.

    The grid that needs the least upscaling to hold the image, or, where every grid
    must shrink it, the one that shrinks it least; ties go to the grid with fewer tiles.
    """
    grids = sorted(
        ((columns, rows) for columns in range(1, max_tiles + 1) for rows in range(1, max_tiles + 1)),
        key=lambda grid: grid[0] * grid[1],
    )
    grids = [grid for grid in grids if grid[0] * grid[1] <= max_tiles]
    scales = np.min(np.array(grids) * tile / np.array([width, height]), axis=-1)
    if np.all(scales < 1):
        return grids[int(np.argmax(scales))]
    return grids[int(np.argmin(np.where(scales < 1.0, 10e9, scales)))]


class Cohere2VisionImageProcessorPil(GotOcr2ImageProcessorPil):
    """Command A Vision's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    Got-OCR 2's PIL processor (resize, rescale, CLIP normalization, channels first)
    with Command A Vision's settings: tiling on, `patch_size` the side of a tile's grid
    of image tokens (the processor writes that many squared per tile), and its own
    choice of tile grid. An image fills the grid of tiles, and a thumbnail of the whole
    follows where the grid holds more than one; `num_patches` counts the tiles. It saves
    as `Cohere2VisionImageProcessor`, the class that loads where torchvision is installed.
    """

    size = {"height": 512, "width": 512}
    crop_to_patches = True
    min_patches = 1
    max_patches = 12
    patch_size = 16

    def __init__(self, patch_size: int | None = None, **kwargs):
        super().__init__(**kwargs)
        if patch_size is not None:
            self.patch_size = patch_size

    def to_dict(self):
        output = super().to_dict()
        output["patch_size"] = self.patch_size
        return output

    def crop_image_to_patches(
        self, image, min_patches, max_patches, use_thumbnail=True, patch_size=None, resample=None
    ):
        tile = patch_size if isinstance(patch_size, SizeDict) else SizeDict(**get_size_dict(patch_size))
        height, width = image.shape[-2:]
        columns, rows = _tile_grid(height, width, tile.height, max_patches)
        whole = self.resize(image, SizeDict(height=tile.height * rows, width=tile.width * columns), resample)
        tiles = [
            whole[..., row * tile.height : (row + 1) * tile.height, column * tile.width : (column + 1) * tile.width]
            for row in range(rows)
            for column in range(columns)
        ]
        if use_thumbnail and len(tiles) != 1:
            tiles.append(self.resize(image, tile, resample))
        return tiles

    def get_number_of_image_patches(self, height, width, images_kwargs=None):
        images_kwargs = images_kwargs or {}
        size = images_kwargs.get("size", self.size)
        side = size["height"] if isinstance(size, dict) else size.height
        max_patches = images_kwargs.get("max_patches", self.max_patches)
        if not images_kwargs.get("crop_to_patches", self.crop_to_patches) or max_patches <= 1:
            return 1
        columns, rows = _tile_grid(height, width, side, max_patches)
        return 1 if columns * rows == 1 else columns * rows + 1


def _processor(tokenizer, config):
    from transformers import Cohere2VisionProcessor

    side = config.vision_config.image_size
    tokens_side = side // config.vision_config.patch_size // config.downsample_factor
    images = Cohere2VisionImageProcessorPil(
        size={"height": side, "width": side}, max_patches=MAX_TILES, patch_size=tokens_side
    )
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(COHERE_TOKENS.values()), special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens=COHERE_TOKENS)
    return Cohere2VisionProcessor(
        image_processor=images, tokenizer=tokenizer, chat_template=chat_template(COHERE_TOKENS["image_token"])
    )


def cohere2_vision_processor():
    """The pinned checkpoint's `Cohere2VisionProcessor`, its image processor `Cohere2VisionImageProcessorPil`.

    `AutoProcessor` cannot load it without torchvision: the saved image processor class
    has no PIL variant in transformers.
    """
    from transformers import AutoTokenizer, Cohere2VisionProcessor

    from .. import locate

    path = locate.checkpoint_path("cohere2_vision")
    settings = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))["image_processor"]
    settings = {key: value for key, value in settings.items() if key != "image_processor_type"}
    return Cohere2VisionProcessor(
        image_processor=Cohere2VisionImageProcessorPil(**settings),
        tokenizer=AutoTokenizer.from_pretrained(path),
        chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
    )


#: Command A Vision: a SigLIP tower run per tile, a pixel-shuffle SwiGLU projector, on a Cohere 2 text model.
ENTRIES = (
    Entry(
        "cohere2_vision",
        "cohere2_vision",
        {
            "text_config": {
                "model_type": "cohere2",
                **COHERE2[0].overrides,
                "num_hidden_layers": 2,
                "layer_types": ["sliding_attention", "full_attention"],
                "vocab_size": WRAPPED_VOCAB + len(COHERE_TOKENS),
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": SIGLIP_VISION,
            "downsample_factor": DOWNSAMPLE,
            "alignment_intermediate_size": 64,
            "image_token_id": WRAPPED_VOCAB + list(COHERE_TOKENS).index("image_token"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
