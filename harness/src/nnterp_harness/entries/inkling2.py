"""Inkling 2's wrapper checkpoint, and the pieces the Inkling wrappers share: a PIL image processor and its loader.

transformers has Inkling 2's and Inkling's image processors only as torchvision classes,
and torchvision cannot be installed here, so the checkpoints save their processor as
`ProcessorParts` with a NumPy stand-in for the image processor, and `wrapper_processor`
builds the real processor class around that stand-in.
"""

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import BatchFeature

from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .inkling2_text import INKLING2_SHAPE

#: Inkling 2's ViT shrunk to two blocks of width 32 over 4-pixel patches, merged 2x2 into one 8-pixel image token,
#: with a 4x4 learned position grid and a narrow two-layer merger.
INKLING2_TOWER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": 4,
    "spatial_merge_size": 2,
    "posemb_grid_size": 4,
    "projection_hidden_dim": 48,
    "text_hidden_size": INKLING2_SHAPE["hidden_size"],
    "attention_dropout": 0.0,
}
#: The text model of the Inkling 2 wrappers: the text checkpoint's, its vocabulary holding the image tokens.
WRAPPED_TEXT = {**special_token_ids(), "vocab_size": WRAPPED_VOCAB, "unpadded_vocab_size": WRAPPED_VOCAB}
#: The image processor's settings: one patch per image token, the image padded to whole tokens, then normalized.
INKLING2_IMAGES = {
    "image_processor_type": "Inkling2ImageProcessor",
    "size": {
        "height": INKLING2_TOWER["patch_size"] * INKLING2_TOWER["spatial_merge_size"],
        "width": INKLING2_TOWER["patch_size"] * INKLING2_TOWER["spatial_merge_size"],
    },
    "rescale_factor": 1 / 255,
    "image_mean": [0.5, 0.5, 0.5],
    "image_std": [0.5, 0.5, 0.5],
}


class NumpyImages:
    """The shared part of the Inkling image processors' stand-ins: settings, loading, saving.

    A subclass sets `model_input_names`, `patches(pixels)`, which cuts one image,
    `[height, width, channels]` in float32 on the 0-255 scale, into its patches, and
    `batch(cut)`, which joins the images' patches into the model's inputs.
    """

    model_input_names: list[str] = []

    def __init__(self, image_processor_type, size, rescale_factor, image_mean, image_std, **extra):
        self.image_processor_type = image_processor_type
        self.size = size
        self.rescale_factor = rescale_factor
        self.image_mean = np.array(image_mean, np.float32)
        self.image_std = np.array(image_std, np.float32)
        self.extra = extra

    def normalize(self, pixels: np.ndarray) -> np.ndarray:
        return (pixels * self.rescale_factor - self.image_mean) / self.image_std

    def fetch_images(self, images: Any) -> Any:
        # The processor asks its image processor to fetch URLs; these are PIL images already.
        return images

    def pixels(self, picture: Any) -> np.ndarray:
        """One PIL image as `[height, width, channels]` float32 on the 0-255 scale, converted to RGB."""
        return np.asarray(picture.convert("RGB"), dtype=np.float32)

    def __call__(self, images, **_):
        images = images if isinstance(images, list) else [images]
        return self.batch([self.patches(self.pixels(picture)) for picture in images])

    def settings(self) -> dict:
        return {
            "image_processor_type": self.image_processor_type,
            "size": self.size,
            "rescale_factor": self.rescale_factor,
            "image_mean": self.image_mean.tolist(),
            "image_std": self.image_std.tolist(),
            **self.extra,
        }

    def save_pretrained(self, path):
        text = json.dumps(self.settings(), indent=2, sort_keys=True) + "\n"
        (Path(path) / "preprocessor_config.json").write_text(text, encoding="utf-8")


class Inkling2Images(NumpyImages):
    """`Inkling2ImageProcessor` in NumPy: each image padded to whole image tokens, one patch per token.

    The image is padded at its bottom and right edges with -1 on the 0-255 scale to a
    whole number of `size` tiles, rescaled and normalized, and cut into tiles of
    `(height, width, channels)` in row-major order; `image_grid_thw` is `(1, rows,
    columns)` per image, counted in tiles. That is the torchvision class's layout for an
    RGB image (it composites transparency onto a checkerboard first, which these test
    images do not have).
    """

    model_input_names = ["pixel_values", "image_grid_thw"]

    def patches(self, pixels):
        side_h, side_w = self.size["height"], self.size["width"]
        height, width = pixels.shape[:2]
        rows, cols = math.ceil(height / side_h), math.ceil(width / side_w)
        padded = np.full((rows * side_h, cols * side_w, 3), -1.0, np.float32)
        padded[:height, :width] = pixels
        tiles = self.normalize(padded).reshape(rows, side_h, cols, side_w, 3).transpose(0, 2, 1, 3, 4)
        return tiles.reshape(rows * cols, side_h, side_w, 3), (1, rows, cols)

    def batch(self, cut):
        pixels = torch.from_numpy(np.concatenate([tiles for tiles, _ in cut]))
        return BatchFeature({"pixel_values": pixels, "image_grid_thw": torch.tensor([grid for _, grid in cut])})


def parts(tokenizer: Any, images: NumpyImages, processor_class: str, **settings: Any) -> ProcessorParts:
    """The saved parts of an Inkling wrapper's processor: `<image>` as its image token, the stand-in images."""
    return ProcessorParts(
        with_image_tokens(tokenizer),
        images,
        chat_template(IMAGE_TOKEN),
        processor_class=processor_class,
        image_token=IMAGE_TOKEN,
        **settings,
    )


def wrapper_processor(checkpoint: str, stand_in: type = Inkling2Images) -> Any:
    """The processor of an Inkling wrapper checkpoint, built from its saved parts around `stand_in`, its NumPy images.

    The processor class checks its image processor's (and Inkling's its audio feature
    extractor's) class, which without torchvision cannot be imported; the check is lifted
    for those slots while it is built. No audio reaches the model.
    """
    import transformers
    from transformers import AutoTokenizer, ProcessorMixin

    from .. import locate

    path = locate.checkpoint_path(checkpoint)
    settings = json.loads((path / "processor_config.json").read_text(encoding="utf-8"))
    images = json.loads((path / "preprocessor_config.json").read_text(encoding="utf-8"))
    processor_class = getattr(transformers, settings.pop("processor_class"))
    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if name in ("image_processor", "feature_extractor") else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return processor_class(
            image_processor=stand_in(**images),
            tokenizer=AutoTokenizer.from_pretrained(path),
            chat_template=(path / "chat_template.jinja").read_text(encoding="utf-8"),
            **settings,
        )
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


def inkling2_parts(tokenizer, config):
    return parts(tokenizer, Inkling2Images(**INKLING2_IMAGES), "Inkling2Processor")


#: Inkling 2: a packed ViT (a CLS token before each image's patches, per-image attention, layer-scaled sublayers)
#: whose merger turns each 2x2 group of patches into one image token, on the Inkling 2 text model.
ENTRIES = (
    Entry(
        "inkling2",
        "inkling2",
        {
            "text_config": {**INKLING2_SHAPE, **WRAPPED_TEXT},
            "vision_config": INKLING2_TOWER,
            "image_token_id": image_token_id(),
        },
        auto_class="AutoModelForImageTextToText",
        processor=inkling2_parts,
    ),
)


class WrappedResidualChecks:
    """`AttentionResidualChecks`' statements that name the text model's path, at a wrapper's `model.language_model`.

    Mix it in before `AttentionResidualChecks`: the blocks, the final mix of the group
    states and the config's block kinds sit under the wrapper's text model and text config.
    """

    TEXT = "model.language_model"

    def text_model(self, model):
        return model.get(self.TEXT)

    def test_every_layer_is_renamed(self, model):
        layer_types = model.config.get_text_config().layer_types
        for index, block in enumerate(model.layers):
            full = layer_types[index] == "hybrid"
            rows = {
                "self_attn": "self_attn",
                "input_layernorm": "q_input_layernorm" if full else "input_layernorm",
                "post_attention_layernorm": "post_attention_layernorm",
                "mlp": "mlp",
            }
            assert block is model.get(f"{self.TEXT}.layers.{index}")
            for standard, native in rows.items():
                envoy = getattr(block, standard)
                assert envoy is block.get(native), f"layers.{index}.{standard} is not {native}"
                assert envoy.path == f"{block.path}.{native}"

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        from ..suite import run

        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, self.text_model(m).final_input.inputs

        before, after, (args, _) = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        assert torch.equal(before, args[1]), "the final mix did not receive block 0's stream"

    def test_project_on_vocab_is_the_logit_lens(self, model):
        from ..suite import moved, run

        def body(m):
            last = m.layers[-1].layer_output
            mixed = self.text_model(m).final_input.output[0]
            return mixed, m.project_on_vocab(mixed), last, m.logits

        mixed, inside, last, logits = run(model, body)
        assert torch.equal(model.project_on_vocab(mixed), logits), "project_on_vocab(final mix) is not logits"
        assert torch.equal(inside, logits), "project_on_vocab inside the trace is not logits"
        assert moved(model.project_on_vocab(last), logits), "the final mix left the last block's stream as it was"


class LayerScaledTowerChecks:
    """The Inkling 2 ViT's layout, mixed in beside `VisionSuite`: layer-scaled sublayers, CLS rows, a merger."""

    def test_the_contributions_are_layer_scaled(self, model):
        from ..vision import prompt_for

        block = model.vision.layers[0]
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            raw_attn = block.self_attn.output[0].save()
            attn = block.self_attn.attention_output.save()
            raw_mlp = block.mlp.output.save()
            mlp = block.mlp.mlp_output.save()
            box.append((raw_attn, attn, raw_mlp, mlp))
        raw_attn, attn, raw_mlp, mlp = box[0]
        assert torch.equal(attn[0], block._module.lambda_1 * raw_attn)
        assert torch.equal(mlp[0], block._module.lambda_2 * raw_mlp)
        assert not torch.equal(attn[0], raw_attn)

    def test_the_merger_takes_each_images_patches_without_its_cls_row(self, model):
        from ..vision import prompt_for

        box = []
        with model.trace(prompt_for(model, 2), images=self.images(0, 1)):
            patches = model.vision.patch_embeddings.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((patches, received, projected, tower, features))
        patches, received, projected, tower, features = box[0]
        merge = model.vision.tower_config.spatial_merge_size
        width = model.vision.vision_hidden_size
        per_image = patches.shape[1] // 2
        # Each image is its CLS row, then its patches.
        assert tower.shape == (1, patches.shape[1] + 2, width)
        rows = torch.cat([tower[0, 1 : 1 + per_image], tower[0, 2 + per_image :]])
        assert torch.equal(received, rows.reshape(-1, merge * merge * width))
        assert torch.equal(projected, features)
        assert features.shape[0] * merge * merge == patches.shape[1]

    def test_the_cls_rows_are_the_learned_class_embedding(self, model):
        from ..vision import prompt_for

        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.vision.embeddings.output.save())
        embedded = box[0]
        native = model.vision._module.embeddings
        cls = (native.class_embedding + native.cls_position_embedding).detach()
        assert torch.equal(embedded[0], cls)
        assert not torch.equal(embedded[1], cls)
