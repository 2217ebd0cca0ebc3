"""Muse Glimmer's text model (`MuseGlimmerTextModel`, model type `muse_glimmer_text`).

`h = x + post_attention_layernorm(self_attn(input_layernorm(x)));
out = h + post_feedforward_layernorm(mlp(pre_feedforward_layernorm(h)))`.

Gemma 2's sandwich block, its norms centered RMS norms, under AFMoE's gated attention:
the attention norms the queries and keys per head with one weightless norm (the queries
then times `qk_scale_factor`), rotates them except on the NoPE blocks
(`layer_rope_theta` 0, full attention; the others slide), calls the shared eager
interface, and multiplies the merged heads by a sigmoid of `gate_proj` before `o_proj`,
so `attention_premix` is the gated product, not `attention_head_outputs`. The block,
the attention and the MLP keep Gemma 2's norm names, so the sandwich components hold
as they are. The embedding module norms its lookup with a weightless norm
(`embed_tokens.embed_norm`). The wrapper multiplies the head's output by
`output_multiplier` and then softcaps it (`final_logit_softcapping`), which
`project_on_vocab` does too.
transformers has no causal-LM class for `muse_glimmer_text`: the text model is served
only inside its wrapper.

The `MuseGlimmerForConditionalGeneration` wrapper (`muse_glimmer`) is served by
`nnterp.families.muse_glimmer`.
"""

from transformers.models.muse_glimmer.modeling_muse_glimmer import (
    MuseGlimmerTextAttention,
    MuseGlimmerTextDecoderLayer,
    MuseGlimmerTextMLP,
)

from nnterp.components import SandwichAttention, SandwichLayer, SandwichMlp
from nnterp.components.logit_lens import LogitLens

# The text model alone already names its embedding, blocks and final norm as nnterp does.
RENAME: dict[str, str] = {}


project_on_vocab = LogitLens(multiply="output_multiplier", softcap="final_logit_softcapping")


ENVOYS = {
    MuseGlimmerTextDecoderLayer: SandwichLayer,
    MuseGlimmerTextAttention: SandwichAttention,
    MuseGlimmerTextMLP: SandwichMlp,
}
