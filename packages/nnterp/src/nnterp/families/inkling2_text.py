"""Inkling 2 (`Inkling2ForCausalLM`): attention and mixture sublayers that end in a short convolution, joined by
block attention residuals.

The blocks come in groups of `n_layers_per_attn_res_block`. Besides the stream it
passes from block to block, the model keeps the group states: the embedding and the
stream at the start of every later group (a block that opens a group files its
input there). Before each sublayer the block mixes the group states and its current
stream with a softmax over them (an `Inkling2BlockAttentionResidual`: one learned
query per mix, the states RMS-normed): native `attention_input` before the
attention (absent on block 0, three mixes on full-attention blocks, one each for
the queries, keys and values) and native `mlp_input` before the MLP. A block that
opens a group restarts its stream:
`h = [x if the block is inside a group] + post_attention_convolution(self_attn(input_layernorm(mix(x))));
out = h + post_mlp_convolution(mlp(post_attention_layernorm(mix'(h))))`.
So `layer_input + attention_output + mlp_output == layer_output` holds inside a
group, and `attention_output + mlp_output == layer_output` on a block that opens one,
its input living on in the group states only. The contributions are read at the two
block-level convolutions, each `(y + conv(y)) / sqrt(conv_kernel_size + 1)` over the
last tokens. `layer_mid` is the stream the block keeps after the attention add,
which it adds to the MLP's contribution at the end; no call receives it alone, so it
is read where the MLP's mix takes it and is read-only (an in-place edit lands on
both). The native module `mlp_input` is reached as `E_mlp_input`, since
`mlp_input` is the standard value (what the MLP is called with).

Sliding-window blocks (`hybrid_sliding`) norm their mix with `input_layernorm`;
full-attention blocks (`hybrid`) norm the three mixes with `q_input_layernorm`
(aliased `input_layernorm`, the queries' stream), `k_input_layernorm` and
`v_input_layernorm`. The attention scales its queries and clips each head's L2
norm (then scales them by the log of the position on full blocks); it convolves its
keys and values along the sequence (a static filter on sliding blocks, a per-token
one on full blocks), then clips each key head's L2 norm and RMS-norms the values
without a weight. It adds a relative position bias mixed per token from
a bank of profiles, joins a sink logit per head (`sink_proj`) to the softmax and
drops it after; its output projection (`o_proj`) gates the head outputs with a
sigmoid of the attention's input before its `linear`, so `attention_premix` (what
`o_proj` takes) is the ungated head outputs. Every block's
MLP is a mixture: a sigmoid router with a correction bias for the choice,
renormalized weights times `route_scale`, experts with a softcapped SwiGLU, no
shared expert. After the last block the model mixes the group states once more
(`final_input`), norms, projects and softcaps the logits: `project_on_vocab` is the
final norm, `lm_head` and the softcap, so it equals the logits on `final_input`'s
mix, not on the last block's raw `layer_output`. The head is `unpadded_vocab_size`
wide, narrower than the embedding's `vocab_size` rows where the checkpoint pads its
vocabulary (the released one does), so `vocab_size` is the head's width, the last
axis of `logits`, `lm_head_output` and `next_token_probs`.

The Inkling 2 wrapper (`inkling2`) is served by `nnterp.families.inkling2`.
"""

from nnsight.intervention.interleaver import Mediator
from transformers.models.inkling2.modeling_inkling2 import (
    Inkling2FullAttention,
    Inkling2FullDecoderLayer,
    Inkling2SlidingAttention,
    Inkling2SlidingDecoderLayer,
    Inkling2SparseMoeBlock,
)

from nnterp.components import (
    DerivedEProperty,
    EProperty,
    Layer,
    Moe,
    Pattern,
    Residual,
    SinkAttention,
    interface_reason,
    normed_contribution,
)
from nnterp.components.logit_lens import LogitLens, text_config

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
    "q_input_layernorm": "input_layernorm",
}

#: The call of the MLP's attention-residual mix in the block's forward.
_MLP_MIX = "self_mlp_input_0"


def _kept_stream(self) -> Residual:
    """The stream after the attention add, as the block keeps it and hands it to the MLP's mix."""
    args, _ = Mediator.value(f"{getattr(self.source, _MLP_MIX).path}.input")
    return args[1]


class Layer(Layer):
    """Inkling 2's block: attention-residual mixes before both sublayers, a stream restarted where a group opens."""

    # `layer_mid` is read inside the block's forward; instrumented at build, a first read after
    # another of the block's values still finds the call ahead.
    sourced = True

    layer_mid = DerivedEProperty(
        _kept_stream,
        description="The residual stream after the attention add, which the block adds to the MLP's contribution; "
        "read-only, an in-place edit lands",
    )

    def opens_group(self) -> bool:
        """Whether this block opens an attention-residual group, restarting the stream from its attention."""
        return bool(self._module.is_block_boundary)


class Attention(SinkAttention):
    """Inkling 2's attention: its own eager function on the shared interface, a sink logit per head, a gated output.

    The contribution is read after the block's `post_attention_convolution`; the gate
    on the heads runs inside `o_proj`, so `attention_premix` is the ungated head outputs.
    """

    @EProperty(
        "source.attention_interface_1.source.attn_weights_2.output",
        description="The attention scores with the relative position bias, masked, before the sink column joins them",
        unavailable=interface_reason,
    )
    def attention_scores(self, value) -> Pattern:
        return value

    attention_output = normed_contribution("post_attention_convolution", "attention")


class Moe(Moe):
    """Inkling 2's mixture: a sigmoid router with a choice bias (`gate`), softcapped experts, no shared expert.

    The contribution is read after the block's `post_mlp_convolution`.
    """

    SCORING = "sigmoid"
    ROUTER = "gate"

    mlp_output = normed_contribution("post_mlp_convolution", "mlp")


#: The model applies its head to `final_input`'s mix of the group states and the last block's output, so the
#: lens equals the logits there.
project_on_vocab = LogitLens(float32=True, softcap="final_logit_softcapping")


def vocab_size(model) -> int:
    """The head's width, `unpadded_vocab_size`: the logits leave out the rows the embedding pads its vocabulary with."""
    return text_config(model).unpadded_vocab_size


ENVOYS = {
    Inkling2SlidingDecoderLayer: Layer,
    Inkling2FullDecoderLayer: Layer,
    Inkling2SlidingAttention: Attention,
    Inkling2FullAttention: Attention,
    Inkling2SparseMoeBlock: Moe,
}
