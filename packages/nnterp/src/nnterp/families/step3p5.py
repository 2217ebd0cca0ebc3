"""Step-3.5's text model (`Step3p7TextModel`), served on the `Step3p7ForConditionalGeneration` wrapper.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Laguna's block: the norms are Gemma's (`x * (1 + weight)`), the attention norms each
head's queries and keys (`q_norm`, `k_norm`), rotates part of each head
(`partial_rotary_factor`, per layer kind), calls the shared eager interface and
multiplies each head's output by a sigmoid of `g_proj` (one gate per head) before
`o_proj`, so `attention_premix` is the gated product, not `attention_head_outputs`.
Blocks marked `sliding_attention` in `layer_types` attend over the last
`sliding_window` tokens, with their own query head count
(`num_sliding_attention_heads`). A block is dense or a mixture by its
`mlp_layer_types` entry. The dense MLP and the shared expert clamp the activated gate
and the up projection at the block's `swiglu_limits_shared` entry where it has one, so
`mlp_activation` is the activation before that clamp and `mlp_neurons` the clamped
product. The router (`gate`) scores its logits with a sigmoid, adds a correction bias
for the choice only and renormalizes the chosen scores. The experts loop over the
chosen experts in their own forward (no grouped implementation), so `expert_outputs`
is unavailable. The mixture runs the shared expert first, multiplies the experts'
output by `moe_router_scaling_factor`, then adds the shared output, so
`routed_output` is that scaled product (see `nnterp.components.ScaledRoutedMoe`).

The type has no causal-LM class: the default task builds the wrapper with no
processor. The wrapper holds the text model under `model.language_model` and its ViT
under `model.vision_model` (`vision`): a convolution per patch (`patch_embed`, its
grid flattened to rows), a learned position table resampled to each view's grid, a
pre-norm (`pre_layernorm`), and blocks of CLIP's order whose attention rotates the
queries and keys by each patch's row and column and whose sublayer outputs are scaled
per channel before the add, `h = x + lambda_1 * self_attn(layernorm_before(x));
out = h + lambda_2 * mlp(layernorm_after(h))`, so `attention_output` and `mlp_output`
are the scaled products. The tower has no final norm; two stride-2 convolutions
(`downsampler1`, `downsampler2`) then shrink the patch grid 4x by side and widen it 4x,
so the tower's output is theirs and `tower_output` is read before them, the last
block's stream. The projector (`projector`, `model.multi_modal_projector`, one linear)
maps the downsampled rows to the text width. The tower runs on the global view of every
image, and once more on the local crops of those the processor tiles; the wrapper
writes, per image, the projected rows of its crops, then of its global view, and
scatters them in `Step3p7Model`.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.step3p7.modeling_step3p7 import (
    Step3p7Attention,
    Step3p7DecoderLayer,
    Step3p7MLP,
    Step3p7Model,
    Step3p7SparseMoeBlock,
    Step3p7VisionAttention,
    Step3p7VisionEncoderLayer,
    Step3p7VisionMLP,
    Step3p7VisionModel,
)

from nnterp.components import (
    OWN_EXPERT_LOOP,
    Attention,
    EProperty,
    ImageScatter,
    Layer,
    Mlp,
    ScaledRoutedMoe,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    unavailable,
)
from nnterp.components.scaled import scaled_output
from nnterp.components.vision import WRAPPED_TEXT_RENAME, Patches, no_tower_run

RENAME = {
    **WRAPPED_TEXT_RENAME,
    "model.vision_model": "vision",
    "model.multi_modal_projector": "projector",
    # The ViT's inner names, keyed relative to the tower: multi-component keys and names no text block has.
    "embeddings.patch_embedding": "patch_embed",
    "layernorm_before": "input_layernorm",
    "layernorm_after": "post_attention_layernorm",
    "out_proj": "o_proj",
    "fc2": "down_proj",
    "activation_fn": "act_fn",
}


class Moe(ScaledRoutedMoe):
    """Step-3.5's mixture: a sigmoid router with a choice bias (`gate`), experts that loop in their own forward and
    are scaled after they run, a shared expert."""

    SCORING = "sigmoid"
    ROUTER = "gate"
    SHARED = "shared_experts.output"

    expert_outputs = unavailable(OWN_EXPERT_LOOP)


class StepVision(Vision):
    """Step3p7's ViT: a fixed-size global view, its patch grid downsampled by two convolutions after the blocks.

    The tower's own output is the convolutions', 4x narrower a grid and 4x wider, so
    `tower_output` is read where they take the last block's stream, as a grid.
    """

    @EProperty(
        "downsampler1.input",
        description="The last block's stream, before the convolutions that downsample the patch grid",
        unavailable=no_tower_run,
    )
    def tower_output(self, value) -> Patches:
        return value.flatten(2).transpose(1, 2)  # a grid, [images, width, rows, columns]

    @tower_output.postprocess
    def tower_output(self, value):
        grid = Mediator.value(f"{self.downsampler1.path}.input")
        return value.transpose(1, 2).reshape(grid.shape)


def _lambda_1(envoy):
    return envoy.parent._module.lambda_1


def _lambda_2(envoy):
    return envoy.parent._module.lambda_2


class StepVisionAttention(VisionAttention):
    """The ViT's attention: the block multiplies its output by the per-channel `lambda_1` before the add."""

    attention_output = scaled_output(
        "What the attention adds to the patches' stream, after the block's lambda_1", multiplier=_lambda_1
    )


class StepVisionMlp(VisionMlp):
    """The ViT's ungated MLP: the block multiplies its output by the per-channel `lambda_2` before the add."""

    mlp_output = scaled_output(
        "What the MLP adds to the patches' stream, after the block's lambda_2", multiplier=_lambda_2
    )


ENVOYS = {
    Step3p7DecoderLayer: Layer,
    Step3p7Attention: Attention,
    Step3p7MLP: Mlp,
    Step3p7SparseMoeBlock: Moe,
    Step3p7VisionModel: StepVision,
    Step3p7VisionEncoderLayer: VisionLayer,
    Step3p7VisionAttention: StepVisionAttention,
    Step3p7VisionMLP: StepVisionMlp,
    Step3p7Model: ImageScatter,
}
