"""Step3p7 (`Step3p7ForConditionalGeneration`): Step-3.5's text model behind a layer-scaled ViT and a linear projector.

The text stack sits under `model.language_model` and is served with Step-3.5's classes
(`nnterp.families.step3p5`); the type has no causal-LM class, so the default task
builds the wrapper with no processor. The ViT (`vision`, at `model.vision_model`) has a
convolution per patch (`patch_embed`, its grid flattened to rows), a learned position
table resampled to each view's grid, a pre-norm (`pre_layernorm`), and blocks of CLIP's
order whose attention rotates the queries and keys by each patch's row and column and
whose sublayer outputs are scaled per channel before the add,
`h = x + lambda_1 * self_attn(layernorm_before(x));
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
    Step3p7Model,
    Step3p7VisionAttention,
    Step3p7VisionEncoderLayer,
    Step3p7VisionMLP,
    Step3p7VisionModel,
)

from nnterp.components import EProperty, ImageScatter, Vision, VisionAttention, VisionLayer, VisionMlp
from nnterp.components.scaled import scaled_output
from nnterp.components.vision import WRAPPED_TEXT_RENAME, Patches, no_tower_run
from nnterp.families import step3p5

RENAME = {
    **step3p5.RENAME,
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
    **step3p5.ENVOYS,
    Step3p7VisionModel: StepVision,
    Step3p7VisionEncoderLayer: VisionLayer,
    Step3p7VisionAttention: StepVisionAttention,
    Step3p7VisionMLP: StepVisionMlp,
    Step3p7Model: ImageScatter,
}
