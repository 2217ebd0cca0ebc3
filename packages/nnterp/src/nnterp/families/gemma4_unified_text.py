"""Gemma 4 unified, text only (`Gemma4UnifiedForCausalLM`): Gemma 4's sandwich block and scaled sum, no per-layer input.

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = layer_scalar * (h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h))))`.

Each sublayer adds its post-norm's output, so the contributions are read on the
sibling norms, and the stream between the sublayers enters `pre_feedforward_layernorm`.
The block multiplies its sum by its `layer_scalar` buffer, so the identity reads
`layer_output == layer_scalar * (layer_input + attention_output + mlp_output)`. The head
width differs per block as on Gemma 4 (`global_head_dim` on full-attention blocks), so
the attention sizes are its own module's and the root's `head_dim` is the sliding
blocks'. The embedding module scales by `sqrt(hidden_size)`, and the head's output is
softcapped where the config sets `final_logit_softcapping`, which `project_on_vocab`
applies too.

Gemma 4 unified's wrapper (`Gemma4UnifiedForConditionalGeneration`, built under the
default task too, with no processor) holds this text model under
`model.language_model` and has no tower: `vision` is its embedder (`embed_vision`), a
`Vision` with no `layers`, which norms each raw patch, projects it (`patch_embeddings`,
the dense projection's output), adds a 2-D position table and norms again
(`tower_output`, `[images, patches, vision_hidden_size]` with the padding rows the
image processor adds). Its last module, the multimodal embedder, is the `projector`,
and the wrapper drops the padding rows and scatters the rest in `Gemma4UnifiedModel`.
The embedder has no heads and no MLP, so those sizes are unavailable; the resolution
is the image's own (`image_size` unavailable).
"""

from transformers.models.gemma4_unified.modeling_gemma4_unified import (
    Gemma4UnifiedModel,
    Gemma4UnifiedTextAttention,
    Gemma4UnifiedTextDecoderLayer,
    Gemma4UnifiedTextMLP,
    Gemma4UnifiedVisionEmbedder,
)

from nnterp.components import (
    EProperty,
    ImageScatter,
    Patches,
    SandwichLayer,
    SandwichMlp,
    Unavailable,
    no_tower_run,
    variable_resolution,
)
from nnterp.components import Vision as BaseVision
from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import gemma4_text

#: The embedder has no attention and no MLP.
_NO_BLOCKS = "Gemma 4 unified has no tower: its embedder projects each patch on its own, with no attention or MLP"

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    **WRAPPED_TEXT_RENAME,
    "model.embed_vision": "vision",
    "model.embed_vision.multimodal_embedder": "projector",
}
head_dim = gemma4_text.head_dim


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
    Gemma4UnifiedTextDecoderLayer: SandwichLayer,
    Gemma4UnifiedTextAttention: gemma4_text.Attention,
    Gemma4UnifiedTextMLP: SandwichMlp,
    Gemma4UnifiedVisionEmbedder: Vision,
    Gemma4UnifiedModel: ImageScatter,
}
