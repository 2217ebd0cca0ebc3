"""Inkling (`InklingForConditionalGeneration`): Inkling's text model behind a per-tile hierarchical MLP in the tower's place.

The text stack sits under `model.language_model` and is served with Inkling's classes
(`nnterp.families.inkling_text`). The tower (`vision`, at `model.vision_tower`) is no
transformer but a hierarchical MLP over patches: each image is cut into square tiles,
each tile repeated over two frames, and every tile goes through `encoder_layers` alone,
each stage folding a block of neighbouring pixels (and at the end the two frames) into
the channels, projecting, and RMS-norming it before a GELU; the last stage projects to
the text width. `final_norm`, the last module before the scatter, is the `projector`:
its output, one row per tile, is what `InklingModel` scatters into the token
embeddings, one image token per tile. With no blocks, the tower has no `layers`, heads
or MLP width (unavailable), no patch embedding apart from its first stage
(unavailable), and `tower_output` is its output, every image's tiles in one row at the
text width. The wrapper's audio embedding is not named.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.inkling.modeling_inkling import InklingModel, InklingVisionModel

from nnterp.components import (
    EProperty,
    ImageScatter,
    Patches,
    Unavailable,
    no_tower_run,
    unavailable,
    variable_resolution,
)
from nnterp.components import Vision as BaseVision
from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import inkling_text

#: The tower has no attention and no MLP blocks.
_NO_BLOCKS = "Inkling's tower has no blocks: a stack of per-patch MLP stages, with no attention or MLP block"

RENAME = {
    **inkling_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.vision_tower": "vision",
    "model.vision_tower.final_norm": "projector",
}

#: Inkling's logit lens, which divides by `logits_mup_width_multiplier` before `lm_head`.
project_on_vocab = inkling_text.project_on_vocab


class Vision(BaseVision):
    """Inkling's patch MLP in the tower's place: no blocks, no fixed resolution, its output at the text width."""

    ONE_ROW = True
    image_size = property(variable_resolution)

    @property
    def num_layers(self) -> int:
        """None: the tower has no blocks."""
        return 0

    @property
    def vision_hidden_size(self) -> int:
        """The width of the tower's output, the text model's: its last stage projects there."""
        return self.tower_config.text_hidden_size

    @property
    def num_heads(self) -> int:
        """Unavailable: the tower has no attention."""
        raise Unavailable(_NO_BLOCKS)

    @property
    def head_dim(self) -> int:
        """Unavailable: the tower has no attention."""
        raise Unavailable(_NO_BLOCKS)

    @property
    def intermediate_size(self) -> int:
        """Unavailable: the tower has no MLP block."""
        raise Unavailable(_NO_BLOCKS)

    patch_embeddings = unavailable(
        "Inkling's tower has no patch embedding apart from its stages: "
        "each stage folds blocks of pixels into channels, and a tile is one vector only after the last"
    )

    @EProperty(
        "output",
        description="The tower's output after its final norm, every image's tiles in one row",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        # The tower runs each tile as its own batch row of one token: [tiles, 1, width] seen as [1, tiles, width].
        return value.last_hidden_state.transpose(0, 1)

    @tower_output.postprocess
    def tower_output(self, value):
        output = Mediator.value(f"{self.path}.output")
        tiles = value.transpose(0, 1).reshape(output.last_hidden_state.shape)
        # The wrapper scatters `pooler_output`, the same tensor as `last_hidden_state`: both take the write.
        output["last_hidden_state"] = tiles
        output["pooler_output"] = tiles
        return output


ENVOYS = {
    **inkling_text.ENVOYS,
    InklingVisionModel: Vision,
    InklingModel: ImageScatter,
}
