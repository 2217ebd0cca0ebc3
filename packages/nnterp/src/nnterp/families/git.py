"""GIT (`GitForCausalLM`, model type `git`): BERT-style post-LN text blocks, and a CLIP-like tower whose image is prepended.

`h = post_attention_layernorm(x + self_attn(x)); out = ffn_output.LayerNorm(h + mlp(h))`

The text stack (`git.encoder.layer`) is BERT's: the embedding sums the token and
position tables and norms the sum (`git.embeddings.LayerNorm`), and each block adds
and norms twice. `embed_tokens` is the token table, and the embedding adds the
positions to its output in place, so the tensor `token_embeddings` serves holds the
sum once the forward moves on: take `.clone()` inside the trace for the token
embedding itself. Its attention (`attention`, aliased `self_attn`) is the inner
`GitSelfAttention` followed by `GitSelfOutput`, which projects (`o_proj`), adds the
block input and norms (`post_attention_layernorm`); its feed-forward path is two
modules the block calls from `feed_forward_chunk`, `GitIntermediate` (`up_proj` and
`act_fn`) and `GitOutput` (`down_proj`, then the add and the block's output norm).

The text blocks are regrouped as BERT's are (`nnterp.components.bert_block`), by
the envoy of `GitModel` (`Prepend`) before the envoys beneath it are built, and
again when the real weights replace the meta ones: `GitSelfOutput` moves to
`attention.self_output`, and `GitIntermediate` and `GitOutput` go under one
container, `mlp`, which the block calls as its feed-forward chunk, so `mlp.input` is
the normed stream and `mlp.output` the block's output. The parameter names move with
them (`git.encoder.layer.0.mlp.intermediate.dense.weight`), so a model saved from an
nnterp load no longer loads in transformers.

The block is post-LN: `attention_output` and `mlp_output` are the terms entering
each add (the dropout after each output projection), `layer_mid == layer_input +
attention_output` and `layer_output == ffn_output.LayerNorm(mlp_norm_output +
mlp_output)`, bit for bit. No norm feeds the attention and there is no final norm:
the head (`output`, aliased `lm_head`) reads the last `layer_output`. The attention
does its own arithmetic under every implementation (GIT has only the eager one): the
scores are the product divided by the head width's square root with the additive
mask, the keys and values are read where the products take them, after the cache
update.

The tower (`git.image_encoder`, aliased `vision`) is CLIP's vision transformer, a
CLS row before one row per patch, with its final `post_layernorm` (served as the
tower's `norm`) over every row, so `tower_output` is the last block's stream after
it. The projector (`git.visual_projection`, a linear and a LayerNorm) maps each row
to the text width, and `GitModel` concatenates the projected rows in front of the
embedded text: there is no image token and no scatter. The text stack's sequence is
the image rows followed by the text rows, so every text value on an image load, and
the logits, cover `image_rows + seq` positions, the image rows first.

`vision.image_features` is the projected image as concatenated,
`[batch * image_rows, hidden_size]`: the projector's output repeated over the
batch's prompts, which is the tensor `torch.cat` puts in front of the text.
`vision.image_token_mask` marks those rows in the text stack's sequence,
`[batch, image_rows + seq]`, the first `image_rows` of each row true. It is read off
the model's inputs (the pixel grid gives the row count, the ids the text length), so
`layers[0].layer_input[mask] == image_features` exactly, as on a scattering wrapper;
on a call with no image (a decode step under `generate`) it is all false. One image
per prompt: the projected image is repeated to the batch, so two images for one
prompt give it no image rows at all (transformers then fails in the concatenation).
"""

from __future__ import annotations

from typing import Any

import torch
from nnsight.intervention.interleaver import Mediator
from transformers.models.git.modeling_git import (
    GitAttention,
    GitLayer,
    GitModel,
    GitVisionAttention,
    GitVisionEncoderLayer,
    GitVisionMLP,
    GitVisionModel,
)

from nnterp.components import (
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    NO_FINAL_NORM,
    EProperty,
    ImageScatter,
    OwnAttention,
    PostLNLayer,
    Residual,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    lm_head_only,
    own_value,
    unavailable,
)
from nnterp.components.bert_block import BERT_BLOCK_RENAME, BertMlp, FeedForward, regroup_block
from nnterp.components.regrouped import Regrouping
from nnterp.components.vision import SIGLIP_TOWER_RENAME, ImageFeatures, ImageTokenMask, no_tower_run, scatter_call

#: The multi-component CLIP keys, which start at the tower's transformer rather than the tower.
_TOWER_PATHS = ("embeddings.patch_embedding", "encoder.layers")

RENAME = {
    "git.embeddings.word_embeddings": "embed_tokens",
    "git.encoder.layer": "layers",
    # After the blocks' `output` modules move, the root's head is the one module filed as `E_output`.
    "E_output": "lm_head",
    **BERT_BLOCK_RENAME,
    "git.image_encoder": "vision",
    "git.visual_projection": "projector",
    # The CLIP names, keyed from the tower, whose transformer sits under `vision_model`.
    **{f"vision_model.{key}" if key in _TOWER_PATHS else key: alias for key, alias in SIGLIP_TOWER_RENAME.items()},
}

final_norm_output = unavailable(NO_FINAL_NORM)
project_on_vocab = lm_head_only

#: The operation of `GitModel.forward` whose output is the projected image as it is concatenated before the text.
_PREPENDED = "projected_visual_features_repeat_0"


class Attention(OwnAttention):
    """GIT's attention: the inner `self` does the arithmetic, `self_output` projects, adds and norms."""

    @property
    def num_heads(self) -> int:
        return self._module.self.num_attention_heads

    @property
    def head_dim(self) -> int:
        return self._module.self.attention_head_size

    attention_queries = own_value(
        "attention_queries",
        "self.source.transpose_0.output",
        description="The queries entering attention, before the scores are divided by the head width's square root",
    )
    attention_keys = own_value("attention_keys", "self.source.torch_matmul_0.inputs", KEYS_TRANSPOSED, select=1)
    attention_values = own_value("attention_values", "self.source.torch_matmul_1.inputs", select=1)
    attention_scores = own_value(
        "attention_scores",
        "self.source.nn_functional_softmax_0.input",
        description="The attention scores entering the softmax, divided by the head width's square root and masked",
    )
    attention_probabilities = own_value("attention_probabilities", "self.dropout.output")
    attention_head_outputs = own_value("attention_head_outputs", "self.source.torch_matmul_1.output", HEADS_FIRST)
    attention_premix = own_value("attention_premix", "o_proj.input", MERGED_HEADS)

    @EProperty(
        "self_output.dropout.output",
        description="What the attention adds to the residual stream, the term its own add takes",
    )
    def attention_output(self, value) -> Residual:
        return value


def _prepended(vision: Any) -> str:
    """The key of `image_features`: the output of the operation that repeats the projected image, from the root."""
    return f"/{scatter_call(vision.root)[0]}.output"


class GitVision(Vision):
    """GIT's CLIP tower: `post_layernorm` norms every row, and the image is prepended to the text, not scattered."""

    @property
    def norm(self):
        """The tower's final norm, over the CLS row and the patches."""
        return self.vision_model.post_layernorm

    @EProperty(
        "/inputs",
        description="Which rows of the text stack's sequence hold the prepended image, off the model's inputs",
        unavailable=no_tower_run,
    )
    def image_token_mask(self, value) -> ImageTokenMask:
        args, kwargs = value
        ids = kwargs["input_ids"] if "input_ids" in kwargs else args[0]
        pixels = kwargs.get("pixel_values")
        text = torch.zeros(ids.shape, dtype=torch.bool, device=ids.device)
        if pixels is None:
            return text
        patch = self.patch_size
        rows = (pixels.shape[-2] // patch) * (pixels.shape[-1] // patch) + 1
        if pixels.dim() == 5:  # frames, each with its own rows
            rows *= pixels.shape[1]
        image = torch.ones((ids.shape[0], rows), dtype=torch.bool, device=ids.device)
        return torch.cat([image, text], dim=1)

    @image_token_mask.postprocess
    def image_token_mask(self, value):
        raise AttributeError("image_token_mask is read off the inputs and cannot be assigned; assign pixel_values")

    @EProperty(
        _prepended,
        description="The projected image as the wrapper concatenates it before the text rows, repeated over the batch",
        unavailable=no_tower_run,
    )
    def image_features(self, value) -> ImageFeatures:
        return value.reshape(-1, value.shape[-1])

    @image_features.postprocess
    def image_features(self, value):
        location, _ = type(self).image_features._resolve(self, _prepended(self))
        return value.reshape(Mediator.value(location).shape)


def _regroup_blocks(model: torch.nn.Module) -> None:
    """`regroup_block` on every block of `GitModel`'s encoder."""
    for block in model.encoder.layer:
        regroup_block(block)


class Prepend(Regrouping, ImageScatter):
    """`GitModel`: its forward concatenates the projected image in front of the embedded text.

    Its envoy regroups every block's modules before its children are mirrored, on
    every load and dispatch, so the renames beneath it see the regrouped blocks.
    """

    scatter = _PREPENDED
    scatter_argument = 0
    regroup = staticmethod(_regroup_blocks)


def intermediate_size(model) -> int:
    """The feed-forward width, `config.intermediate_size`."""
    return model.config.intermediate_size


ENVOYS = {
    GitLayer: PostLNLayer,
    GitAttention: Attention,
    FeedForward: BertMlp,
    GitModel: Prepend,
    GitVisionModel: GitVision,
    GitVisionEncoderLayer: VisionLayer,
    GitVisionAttention: VisionAttention,
    GitVisionMLP: VisionMlp,
}
