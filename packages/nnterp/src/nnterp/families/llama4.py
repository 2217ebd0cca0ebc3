"""Llama 4 (`Llama4ForConditionalGeneration`): Llama 4's text model behind a ViT with a pixel-shuffle adapter.

The text model sits under `language_model.model` and its head at `language_model.lm_head`,
served with Llama 4's classes (`nnterp.families.llama4_text`). The ViT (`vision`, at
`vision_model`) embeds each patch with an unfolded linear layer (`patch_embed`), appends
a CLS token after the patches, norms the stream before its blocks, and runs pre-norm
blocks whose attention rotates the queries and keys by each patch's 2-D position; its
final norm (`vision.norm`, native `layernorm_post`) ends `tower_output`, the CLS row still
last. The tower then drops the CLS row and runs its own adapter (`vision_adapter`), a
pixel shuffle of each 2x2 patch group followed by a two-layer MLP, so the tower's output
is the adapter's and not the final norm's. The projector (`projector`, at
`multi_modal_projector`) is one linear layer to the text width, and the wrapper scatters
its output into the token embeddings in its own top-level forward (`ROOT_SCATTER`).
"""

from transformers.models.llama4.modeling_llama4 import (
    Llama4VisionAttention,
    Llama4VisionEncoderLayer,
    Llama4VisionMLP,
    Llama4VisionModel,
)

from nnterp.components import (
    EProperty,
    Neurons,
    Patches,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    needs_child,
)
from nnterp.components.vision import no_tower_run
from nnterp.families import llama4_text

RENAME = {
    **llama4_text.RENAME,
    "language_model.model.embed_tokens": "embed_tokens",
    "language_model.model.layers": "layers",
    "language_model.model.norm": "norm",
    "language_model.lm_head": "lm_head",
    "vision_model": "vision",
    "multi_modal_projector": "projector",
    # The ViT's inner names, keyed relative to the tower; its blocks sit at `model.layers`, keyed by the text
    # family, and already carry the standard block names.
    "patch_embedding": "patch_embed",
    "layernorm_post": "norm",
    "fc2": "down_proj",
}

#: The wrapper writes the image features into the embeddings in its own forward.
ROOT_SCATTER = True


class Vision(Vision):
    """Llama 4's ViT: a fixed-size image, its patches and then a CLS token in each row.

    The tower's own output is its adapter's, after the CLS row is dropped and the patches
    are pixel-shuffled and projected, so `tower_output` is read at the final norm instead.
    """

    @EProperty(
        "norm.output",
        description="The last block's stream after the tower's final norm, before any pooling or projection",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value

    @tower_output.postprocess
    def tower_output(self, value):
        return value


class VisionMlp(VisionMlp):
    """The ViT's ungated MLP (`fc1`, a GELU, `fc2`); its activation is `activation_fn`."""

    @EProperty(
        "activation_fn.output",
        description="The activation function's output",
        unavailable=needs_child("activation_fn", "mlp"),
    )
    def mlp_activation(self, value) -> Neurons:
        return value


ENVOYS = {
    **llama4_text.ENVOYS,
    Llama4VisionModel: Vision,
    Llama4VisionEncoderLayer: VisionLayer,
    Llama4VisionAttention: VisionAttention,
    Llama4VisionMLP: VisionMlp,
}
