"""Dory (`DoryForCausalLM`): nGPT blocks on the unit sphere, with a middle section of blocks run in a loop.

`n = input_layernorm(x); h = n + lambda_1' * (post_attention_layernorm(self_attn(n)) - n);
m = pre_feedforward_layernorm(h); out = m + lambda_2' * (post_feedforward_layernorm(mlp(m)) - m)`,
with `lambda_k' = abs(lambda_k * lambda_scale)` per channel.

Every norm is a weightless L2 norm that puts the stream on the unit sphere. Each
sublayer's normed output is not added to the stream: the stream moves towards it at a
learned per-channel rate. `attention_output` and `mlp_output` are those normed
outputs (read on the sibling norms), so the identity takes the interpolation form
`layer_mid == attention_norm_output + lambda_1' * (attention_output - attention_norm_output)`
and `layer_output == mlp_norm_output + lambda_2' * (mlp_output - mlp_norm_output)`,
bit for bit; a write to either contribution moves the target, not the step.

The depth is looped. The model runs its `n_input_layers` blocks once, then its
`n_recurrent_layers` blocks `n_recurrent_loops` times, then its `n_output_layers`
blocks once. Each loop starts from `norm(stream) + norm(input section's output)`, so
the first looped block's input is not the previous block's output, and the first
block after the loop reads the last run's output. `norm` is one module called before
the loop, at the start of every run of the loop and before the head.

`layers[i]` is the module, so `len(layers)` is `num_hidden_layers` and a looped block
is one entry. Each of its values is its first run by default, in a trace and for
`steer` and `skip_layers`, which act on the first run only. Run `k` (from 0) of a
looped block is nnsight's occurrence `k` of its locations: read it inside
`for step in tracer.iter[k:k + 1]` (under `generate` the occurrences count the runs of
every step, so step `s` holds runs `s * n_recurrent_loops` onwards). Likewise
`model.norm.output` is the norm's first call, on the input section's output, and
`final_norm_output` is its last call, read at that call in the inner model's forward,
so it is what the head reads.

The attention unit-normalizes its queries and keys per head, applies the rotary
embedding, rescales the queries per channel (`sqk`) and calls the shared eager
interface; the heads' output is gated by a sigmoid of `gate_proj` and L2-normed
(`attn_sub_norm`) before `o_proj`, so `attention_premix` is that gated, normed
output and not the head outputs. The MLP scales its gate and up projections per
channel (`suv_gate`, `suv_up`) and L2-norms their product before `down_proj`, so the
neurons are not `act_fn(gate) * up_proj(x)`. The head multiplies its logits by a
learned per-token scale inside `lm_head`, so `project_on_vocab` is the norm and
`lm_head`.
"""

from transformers.models.dory.modeling_dory import DoryAttention, DoryDecoderLayer, DoryMLP, DoryModel

from nnterp.components import Attention, EProperty, Mlp, Residual, SandwichLayer, Standard

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}

#: The norm's last call, before the head (its first calls norm the stream before and inside the loop).
final_norm_output = EProperty("model.source.self_norm_2.output")


class Body(Standard):
    """Dory's inner model, instrumented at load, because `final_norm_output` is read at the last norm call inside it.

    The loop calls the same norm module before the head, so its module output names the
    first call only.
    """

    sourced = True


class Attention(Attention):
    """Dory's attention; the shared eager interface, then a sigmoid gate and an L2 norm before `o_proj`."""

    @EProperty(
        "../post_attention_layernorm.output",
        description="The unit-norm attention output the stream moves towards at the block's lambda_1 rate",
    )
    def attention_output(self, value) -> Residual:
        return value


class Mlp(Mlp):
    """Dory's gated MLP with per-channel scales and an L2 norm before `down_proj`."""

    @EProperty(
        "../post_feedforward_layernorm.output",
        description="The unit-norm MLP output the stream moves towards at the block's lambda_2 rate",
    )
    def mlp_output(self, value) -> Residual:
        return value


ENVOYS = {DoryModel: Body, DoryDecoderLayer: SandwichLayer, DoryAttention: Attention, DoryMLP: Mlp}
