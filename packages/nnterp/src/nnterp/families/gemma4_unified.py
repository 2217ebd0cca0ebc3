"""Gemma 4 unified (`Gemma4UnifiedForConditionalGeneration`): Gemma 4 unified's text model behind a patch embedder, no tower.

The wrapper is built under the default task too, with no processor. The text stack sits
under `model.language_model` and is served with Gemma 4 unified's classes
(`nnterp.families.gemma4_unified_text`). The wrapper has no tower: `vision` is its
embedder (`embed_vision`), a `Vision` with no `layers`, which norms each raw patch,
projects it (`patch_embeddings`, the dense projection's output), adds a 2-D position
table and norms again (`tower_output`, `[images, patches, vision_hidden_size]` with the
padding rows the image processor adds). Its last module, the multimodal embedder, is the
`projector`, and the wrapper drops the padding rows and scatters the rest in
`Gemma4UnifiedModel`. The embedder has no heads and no MLP, so those sizes are
unavailable; the resolution is the image's own (`image_size` unavailable).
"""

from transformers.models.gemma4_unified.modeling_gemma4_unified import Gemma4UnifiedModel, Gemma4UnifiedVisionEmbedder

from nnterp.components import EProperty, ImageScatter, Patches, Unavailable, no_tower_run, variable_resolution
from nnterp.components import Vision as BaseVision
from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import gemma4_unified_text

#: The embedder has no attention and no MLP.
_NO_BLOCKS = "Gemma 4 unified has no tower: its embedder projects each patch on its own, with no attention or MLP"

RENAME = {
    **gemma4_unified_text.RENAME,
    **WRAPPED_TEXT_RENAME,
    "model.embed_vision": "vision",
    "model.embed_vision.multimodal_embedder": "projector",
}

#: The sliding-window blocks' head width, as on the text model.
head_dim = gemma4_unified_text.head_dim


class Vision(BaseVision):
    """Gemma 4 unified's embedder in the tower's place: no blocks, no fixed resolution."""

    image_size = property(variable_resolution)

    @property
    def tower_config(self):
        """The embedder's config, the wrapper's `vision_config`."""
        return self.root._module.config.vision_config

    @property
    def num_layers(self) -> int:
        """None: the embedder has no blocks."""
        return 0

    @property
    def vision_hidden_size(self) -> int:
        """The width of the embedded patches."""
        return self.tower_config.mm_embed_dim

    @property
    def num_heads(self) -> int:
        """Unavailable: the embedder has no attention."""
        raise Unavailable(_NO_BLOCKS)

    @property
    def head_dim(self) -> int:
        """Unavailable: the embedder has no attention."""
        raise Unavailable(_NO_BLOCKS)

    @property
    def intermediate_size(self) -> int:
        """Unavailable: the embedder has no MLP."""
        raise Unavailable(_NO_BLOCKS)

    @property
    def patch_size(self) -> int:
        """The side of one patch the embedder takes, in pixels: the image processor's patches merged."""
        return self.tower_config.patch_size * self.tower_config.pooling_kernel_size

    @EProperty(
        "patch_dense.output",
        description="The dense projection of each normed raw patch, one row per patch",
        unavailable=no_tower_run,
    )
    def patch_embeddings(self, value) -> Patches:
        return value


ENVOYS = {
    **gemma4_unified_text.ENVOYS,
    Gemma4UnifiedVisionEmbedder: Vision,
    Gemma4UnifiedModel: ImageScatter,
}
