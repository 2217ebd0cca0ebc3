"""dots3 note's language model (`Dots3NoteForCausalLM`): gated latent attention, indexed or sliding, and a mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The attention is DeepSeek-V3's multi-head latent attention (see
`nnterp.components.latent`) with its query and key/value latents rescaled and the
rotary key normed, and with a sigmoid gate per head (`g_proj`) on the head outputs
before `o_proj`: `attention_premix` is the gated head outputs, not
`attention_head_outputs`. `layer_types` decides each block's attention: an
`indexed_attention` block folds its indexer's choice of `index_topk` keys per query
into the mask (DeepSeek-V3.2's sparse attention), a `sliding_attention` block keeps a
window of `sliding_window` keys and takes its own head counts and latent widths
(`per_layer_config`), so the attention sizes are per block. `mlp_layer_types` gives
the first blocks a dense MLP and the others DeepSeek-V3's mixture: a grouped sigmoid
router with a correction bias (`gate`), grouped experts, and shared experts added
after the routed ones. The block, dense MLP and mixture envoys are DeepSeek-V3's.

The dots3 note wrapper (`dots3_note`) is served by `nnterp.families.dots3_note`.
"""

from transformers.models.dots3_note.modeling_dots3_note import (
    Dots3NoteTextAttention,
    Dots3NoteTextDecoderLayer,
    Dots3NoteTextMLP,
    Dots3NoteTextMoE,
)

from nnterp.components import LatentAttention
from nnterp.families import deepseek_v3
from nnterp.families.deepseek_v3 import Layer, Mlp, Moe

__all__ = [
    "ENVOYS",
    "RENAME",
    "Layer",
    "Mlp",
    "Moe",
    "head_dim",
    "num_heads",
    "num_kv_heads",
    "qk_head_dim",
]


RENAME = dict(deepseek_v3.RENAME)


# The config refuses a model-wide read of the sizes a sliding block sets for itself, so the
# root answers the first block's; `model.layers[i].self_attn` answers each block's own.
def num_heads(model) -> int:
    """The first block's query heads."""
    return model.layers[0].self_attn.num_heads


def num_kv_heads(model) -> int:
    """The first block's key/value heads: as many as its query heads."""
    return model.layers[0].self_attn.num_kv_heads


def head_dim(model) -> int:
    """The first block's value width, `v_head_dim`."""
    return model.layers[0].self_attn.head_dim


def qk_head_dim(model) -> int:
    """The first block's query/key width: the no-rope and the rotary parts."""
    return model.layers[0].self_attn.qk_head_dim


ENVOYS = {
    Dots3NoteTextDecoderLayer: Layer,
    # The gate and the per-block sizes need nothing beyond latent attention's own reads.
    Dots3NoteTextAttention: LatentAttention,
    Dots3NoteTextMLP: Mlp,
    Dots3NoteTextMoE: Moe,
}
