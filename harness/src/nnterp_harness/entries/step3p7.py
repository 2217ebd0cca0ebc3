import json

import nnsight  # noqa: F401  - before any transformers modeling module
import numpy as np
import torch
from transformers import BatchFeature
from transformers.image_processing_backends import PilBackend
from transformers.image_utils import OPENAI_CLIP_MEAN, OPENAI_CLIP_STD, PILImageResampling, SizeDict
from transformers.processing_utils import ImagesKwargs

from ..entry import TEXT_DEFAULTS, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, with_image_tokens

#: The global view's side, in pixels: an 8x8 grid of 4-pixel patches, downsampled 4x by side into 2x2 image tokens.
SIDE = 32
#: The side of one local crop, in pixels: a 4x4 grid of patches, one image token.
CROP = 16
#: The ViT's patch side, in pixels.
PATCH = 4
#: The tower's downsampling by side: two stride-2 convolutions after the blocks.
STRIDE = 4
#: The image tokens of one global view.
IMAGE_TOKENS = (SIDE // (PATCH * STRIDE)) ** 2
#: The markers Step3p7's processor writes (the image token first), added after the shared image tokens in this order.
STEP_TOKENS = ("<im_patch>", "<im_start>", "<im_end>", "<patch_start>", "<patch_end>", "<patch_newline>")

#: Step3p7's ViT shrunk to two blocks of width 16 over 4-pixel patches, its 8x8 position table resampled to each
#: view's grid, its 2-D rotary over both axes.
STEP_TOWER = {
    "hidden_size": 16,
    "mlp_ratio": 4.0,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": PATCH,
    "image_size": SIDE,
    "max_position_embeddings": (SIDE // PATCH) ** 2,
    "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0},
    "attention_dropout": 0.0,
}
#: The image processor's settings: a `SIDE`-pixel global view, `CROP`-pixel local crops of a large or elongated
#: image, CLIP's normalization.
IMAGE_SETTINGS = {
    "image_processor_type": "Step3p7ImageProcessor",
    "size": {"height": SIDE, "width": SIDE},
    "patch_size": CROP,
    "max_image_size": 4 * SIDE,
    "vision_patch_size": PATCH,
    "downsampler_stride": STRIDE,
}


class Step3p7ImageProcessorKwargs(ImagesKwargs, total=False):
    """The settings `Step3p7ImageProcessor` takes beyond the shared ones: the crop side and the largest image side."""

    patch_size: int
    max_image_size: int


class Step3p7ImageProcessorPil(PilBackend):
    """Step3p7's image processor in PIL and NumPy: transformers has it only as a torchvision class.

    The same plan as `Step3p7ImageProcessor`: an image of extreme aspect (short side
    under 32 pixels, ratio over 4) is zero-padded to a square at its top left, one
    larger than `max_image_size` is scaled down; the global view is the image resized
    (bilinear) to that size and then to `size`; an image larger than the global view,
    or one fitting in it but more than 1.5 times longer than wide, is also resized to
    whole multiples of a window (`patch_size`, the short side where that is smaller)
    and cut into the window's tiles in row-major order, each resized to `patch_size`.
    Every view is rescaled to [0, 1] and normalized with CLIP's mean and std, channels
    first. `num_local_patches` counts each image's tiles, `pixel_values_local` holds
    every image's tiles in order, and `patch_newline_masks` marks the last tile of each
    row but the last. PIL's bilinear resize stands in for torchvision's; a view already
    at its target size is not resampled by either. It saves as `Step3p7ImageProcessor`,
    the class that loads where torchvision is installed.
    """

    resample = PILImageResampling.BILINEAR
    size = {"height": 728, "width": 728}
    patch_size = 504
    do_rescale = True
    do_normalize = True
    image_mean = OPENAI_CLIP_MEAN
    image_std = OPENAI_CLIP_STD
    do_convert_rgb = True
    valid_kwargs = Step3p7ImageProcessorKwargs
    model_input_names = ["pixel_values", "pixel_values_local", "num_local_patches"]
    max_image_size = 3024
    #: The ViT's patch side and the tower's downsampling by side; the processor counts the image tokens from them.
    vision_patch_size = 14
    downsampler_stride = 4

    def fetch_images(self, images):
        """The images as given: they arrive as PIL images, never as addresses."""
        return images

    @staticmethod
    def _is_extreme_aspect(width: int, height: int) -> bool:
        return min(width, height) < 32 and max(width / height, height / width) > 4

    def _plan_patches(self, width: int, height: int, image_size: int, patch_size: int):
        """The global view's size, the crop's size, the window and the tile grid, as `Step3p7ImageProcessor` plans."""
        needs_square_pad = self._is_extreme_aspect(width, height)
        if needs_square_pad:
            width = height = max(width, height)
        if max(height, width) > self.max_image_size:
            scale = self.max_image_size / max(height, width)
            width, height = int(width * scale), int(height * scale)
        short_side, long_side = min(height, width), max(height, width)
        if long_side <= image_size:
            window_size = short_side if long_side / short_side > 1.5 else 0
        elif long_side / short_side > 4:
            window_size = min(short_side, patch_size)
        else:
            window_size = patch_size
        if window_size == 0:
            return (width, height), (width, height), 0, 0, 0, needs_square_pad
        crop_width, crop_height = (
            (
                window_size * (dim // window_size + (dim % window_size > 0.2 * window_size))
                if dim >= window_size
                else dim
            )
            for dim in (width, height)
        )
        num_patches_x = max(1, crop_width // window_size)
        num_patches_y = max(1, crop_height // window_size)
        return (width, height), (crop_width, crop_height), window_size, num_patches_x, num_patches_y, needs_square_pad

    def get_number_of_image_patches(self, height: int, width: int, images_kwargs=None) -> int:
        """The local tiles of an image of the given size."""
        images_kwargs = images_kwargs or {}
        size = images_kwargs.get("size", self.size)
        patch_size = images_kwargs.get("patch_size", self.patch_size)
        num_patches_x, num_patches_y = self._plan_patches(width, height, size["height"], patch_size)[3:5]
        return num_patches_x * num_patches_y

    def _get_image_patches(self, image, image_size, patch_size, resample):
        _, height, width = image.shape
        (global_width, global_height), (crop_width, crop_height), window, columns, rows, square = self._plan_patches(
            width, height, image_size, patch_size
        )
        if square:
            side = max(width, height)
            image = self.pad([image], pad_size=SizeDict(height=side, width=side))[0]
        whole = self.resize(image, SizeDict(height=global_height, width=global_width), resample=resample)
        whole = self.resize(whole, SizeDict(height=image_size, width=image_size), resample=resample)
        if window == 0:
            return whole, [], columns, rows
        cropped = self.resize(image, SizeDict(height=crop_height, width=crop_width), resample=resample)
        tiles = [
            cropped[:, top : top + window, left : left + window]
            for top in range(0, crop_height, window)
            for left in range(0, crop_width, window)
        ]
        return whole, tiles, columns, rows

    def _normalized(self, image, do_rescale, rescale_factor, do_normalize, image_mean, image_std):
        if do_rescale:
            image = self.rescale(image, rescale_factor)
        if do_normalize:
            image = self.normalize(image, image_mean, image_std)
        return image.astype(np.float32)

    def _preprocess(
        self,
        images,
        do_rescale,
        rescale_factor,
        do_normalize,
        image_mean,
        image_std,
        resample,
        size,
        patch_size,
        return_tensors,
        **kwargs,
    ) -> BatchFeature:
        norm = (do_rescale, rescale_factor, do_normalize, image_mean, image_std)
        wholes, tiles, counts, newlines = [], [], [], []
        for image in images:
            whole, local, columns, rows = self._get_image_patches(image, size.height, patch_size, resample)
            wholes.append(self._normalized(whole, *norm))
            counts.append(len(local))
            tile_side = SizeDict(height=patch_size, width=patch_size)
            tiles.extend(self._normalized(self.resize(tile, tile_side, resample=resample), *norm) for tile in local)
            newlines.append([col == columns - 1 and row < rows - 1 for row in range(rows) for col in range(columns)])
        result = BatchFeature(
            data={"pixel_values": np.stack(wholes), "num_local_patches": counts}, tensor_type=return_tensors
        )
        most = max(counts, default=0)
        if most:
            # Set after the conversion, as the torchvision class does: the masks stay lists of bools.
            result["pixel_values_local"] = torch.from_numpy(np.stack(tiles))
            result["patch_newline_masks"] = [mask + [False] * (most - len(mask)) for mask in newlines]
        return result


def _processor(tokenizer, config):
    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_special_tokens({"additional_special_tokens": list(STEP_TOKENS)}, replace_extra_special_tokens=False)
    settings = {key: value for key, value in IMAGE_SETTINGS.items() if key != "image_processor_type"}
    return ProcessorParts(
        tokenizer,
        Step3p7ImageProcessorPil(**settings),
        chat_template(STEP_TOKENS[0]),
        processor_class="Step3p7Processor",
    )


def _draw_choice_bias(model):
    # The router's choice bias is a zero buffer at init, which the constant noise leaves alone; a zero bias would
    # make the choice the weights' own top-k, so a test could not tell them apart.
    generator = torch.Generator().manual_seed(3)
    for module in model.modules():
        bias = getattr(module, "e_score_correction_bias", None)
        if isinstance(bias, torch.Tensor):
            bias.copy_(0.5 * torch.randn(bias.shape, generator=generator))


#: Step3p7: a ViT with a 2-D rotary, layer-scaled blocks and two stride-2 convolutions after them, a linear projector,
#: on Step-3.5's text model (a sliding-window dense block and a full-attention mixture block, both head-gated).
ENTRIES = (
    Entry(
        "step3p7",
        "step3p7",
        {
            "text_config": {
                "model_type": "step3p5",
                **TEXT_DEFAULTS,
                "intermediate_size": 96,
                "moe_intermediate_size": 16,
                "share_expert_dim": 32,
                "n_routed_experts": 8,
                "num_experts_per_tok": 2,
                "moe_router_scaling_factor": 2.5,
                "num_hidden_layers": 2,
                "layer_types": ["sliding_attention", "full_attention"],
                "mlp_layer_types": ["dense", "sparse"],
                "sliding_window": 8,
                "num_key_value_heads": 2,
                "head_dim": 16,
                "partial_rotary_factors": [0.5, 1.0],
                "vocab_size": WRAPPED_VOCAB + len(STEP_TOKENS),
                **special_token_ids(),
            },
            "vision_config": STEP_TOWER,
            "image_token_id": WRAPPED_VOCAB,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        prepare=_draw_choice_bias,
    ),
)


def step3p7_processor():
    """The wrapper's `Step3p7Processor` from the checkpoint's parts, `Step3p7ImageProcessorPil` as its image processor.

    The processor class checks its image processor's class, which without torchvision
    cannot be imported; the check is lifted for the image slot while it is built.
    """
    from transformers import AutoTokenizer, ProcessorMixin
    from transformers.models.step3p7.processing_step3p7 import Step3p7Processor

    from .. import locate

    path = locate.checkpoint_path("step3p7")
    settings = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    settings = {key: value for key, value in settings.items() if key != "image_processor_type"}
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name == "image_processor" else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return Step3p7Processor(
            image_processor=Step3p7ImageProcessorPil(**settings),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check
