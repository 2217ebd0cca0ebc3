"""Zamba (`ZambaForCausalLM`): Mamba-1 blocks, some of which first run a shared transformer block whose result feeds the mixer.

`layers[i]` is the model's block `i`, and every block adds one thing to the stream, its
Mamba-1 mixer's output: `linear_attn` (a `HeadedScan`, native `mamba`) behind its norm
`input_layernorm`. A block that `config.layers_block_type` marks `hybrid` (native
`ZambaHybridLayer`) first runs a transformer block (native `shared_transf`, its weights
tied across the hybrid blocks) on the stream concatenated with the embedding output,
passes its result through a linear map (native `linear`) and adds that to the mixer's
input only. With `e` the embedding output and `t = linear(shared_transf(x, e))`:
`out = x + linear_attn(input_layernorm(x))` on a Mamba block and
`out = x + linear_attn(input_layernorm(x + t))` on a hybrid block. On a hybrid block
`self_attn` is the shared block's attention (served on the shared eager interface; it
reads the norm of the `2 * hidden_size` wide concatenation), whose `attention_output`
feeds the shared block's MLP (`layers[i].shared_transf.feed_forward`), not the stream.
No block has an `mlp` of its own; a Mamba block has no `self_attn`.

The mixer splits its channels into `n_mamba_heads` heads, each with its own `B`, `C`,
step projection and `A`, and runs one selective scan per head in a Python loop, so one
kernel label fires once per head. Its values are read in the forward around that loop,
where every head's tensor is bound at once: `x` after the convolution, `B` and `C` from
the split, the step size and `A` as the loop hands them to the kernels, and after the
loop the concatenated output (after the `D` skip and the `silu(z)` gate the kernels
apply) and the stacked final state. Channels are laid head after head, as the output
projection takes them; `B` and `C` have one group per head.
"""

from typing import Any, Optional

import torch
import torch.nn.functional as F
from nnsight.intervention.interleaver import Mediator
from transformers.models.zamba.modeling_zamba import ZambaAttention, ZambaMambaMixer

from nnterp.components import Attention, DerivedEProperty, EProperty, HybridLayer, RecurrentMixer, always, unavailable
from nnterp.components.recurrent import interleaving, per_call
from nnterp.components.selective_scan import ScanDecays, ScanQK, ScanState, ScanSteps, ScanValues

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.final_layernorm": "norm",
    "mamba": "linear_attn",
    "mamba_decoder.mamba": "linear_attn",
    "mamba_decoder.input_layernorm": "input_layernorm",
    "shared_transf.self_attn": "self_attn",
}

#: The forward's bindings the keyed values are read at, the same on every release that has the type (the derived
#: ones read `time_step_0`, `time_proj_bias_0`, `A_0`, `recurrent_state_0` and `torch_stack_0`).
X = "source.hidden_states_B_C_7.output"
SPLIT = "source.torch_split_0.output"
PROMPT_OUTPUT = "source.torch_cat_1.output"
STEP_OUTPUT = "source.torch_cat_0.output"

NO_TOKEN_STATE = (
    "Zamba's mixer runs one selective scan per head in a Python loop, so its per-token state binding fires for "
    "every head in turn and is not served; state_output holds every head's state after the call"
)


def _channels_last(value: Any) -> Any:
    """A heads-first `[heads, batch, head_dim, seq]` tensor as `[batch, seq, heads * head_dim]`."""
    heads, batch, width, seq = value.shape
    return value.permute(1, 3, 0, 2).reshape(batch, seq, heads * width)


def _heads_first(value: Any, heads: int) -> Any:
    """`_channels_last` undone."""
    batch, seq, channels = value.shape
    return value.reshape(batch, seq, heads, channels // heads).permute(2, 0, 3, 1).contiguous()


class WritableState(DerivedEProperty):
    """A value read off the call's cached state, which `store(envoy, value)` writes into before the kernels run."""

    def __init__(self, compute, store, description=None, unavailable=None) -> None:
        super().__init__(compute, description=description, unavailable=unavailable)
        self._store = store

    def __set__(self, obj: Any, value: Any) -> None:
        self._check(obj)
        self._store(obj, value)


class Layer(HybridLayer):
    """Zamba's Mamba block and hybrid block; each returns the stream as a tensor."""


class Attention(Attention):
    """The shared transformer block's attention; the shared eager interface, so the base holds."""


class HeadedScan(RecurrentMixer):
    """Zamba's Mamba-1 mixer, `model.layers[i].linear_attn`, read around its per-head kernel loop."""

    CHUNK_KERNEL = "mamba_selective_scan_0"
    RECURRENT_KERNEL = "mamba_selective_state_update_0"

    # -- sizes ------------------------------------------------------------------------

    @property
    def channels(self) -> int:
        """The mixer's inner width, every head's channels side by side."""
        return self._module.intermediate_size

    @property
    def state_dim(self) -> int:
        """The numbers each channel's state holds."""
        return self._module.ssm_state_size

    @property
    def groups(self) -> int:
        """One `B` and `C` per head."""
        return self._module.n_mamba_heads

    def no_token_state(self) -> str:
        return NO_TOKEN_STATE

    # -- the call -----------------------------------------------------------------------

    def _call(self) -> tuple[bool, Any]:
        """(whether this call decodes, the cache's state tensor it updates in place or None), once per call.

        Read before any value of the call, so the binding of the cached state is
        reached before the forward passes it.
        """
        if not interleaving(self):
            return False, None
        decoding = self._decoding()

        def compute() -> Any:
            return Mediator.value(f"{self.source.recurrent_state_0.path}.output") if decoding else None

        return decoding, per_call(self, "cached", compute)

    def _at(self, key: str) -> str:
        self._call()
        return key

    # -- values -----------------------------------------------------------------------

    @EProperty(
        lambda envoy: envoy._at(X),
        description="What each channel writes (x), after the convolution and the activation, heads side by side",
        unavailable=always,
    )
    def attention_values(self, value) -> ScanValues:
        return _channels_last(value)

    @attention_values.postprocess
    def attention_values(self, value):
        return _heads_first(value, self.groups)

    @attention_values.transform
    def attention_values(self, view, raw):
        return _heads_first(view, self.groups)

    @EProperty(
        lambda envoy: envoy._at(SPLIT),
        select=2,
        description="C: what each token reads the state with, one group per head",
        unavailable=always,
    )
    def attention_queries(self, value) -> ScanQK:
        return value.permute(1, 2, 0, 3)

    @attention_queries.postprocess
    def attention_queries(self, value):
        return value.permute(2, 0, 1, 3)

    @EProperty(
        lambda envoy: envoy._at(SPLIT),
        select=1,
        description="B: where each token writes into the state, one group per head",
        unavailable=always,
    )
    def attention_keys(self, value) -> ScanQK:
        return value.permute(1, 2, 0, 3)

    @attention_keys.postprocess
    def attention_keys(self, value):
        return value.permute(2, 0, 1, 3)

    def _steps(self) -> Any:
        """softplus(dt + dt_bias) heads first, and A, read once per call (both derived values use them)."""
        self._call()

        def compute() -> Any:
            step = Mediator.value(f"{self.source.time_step_0.path}.output")
            bias = Mediator.value(f"{self.source.time_proj_bias_0.path}.output")
            if bias is not None:
                step = step + bias.to(step.dtype)[:, None, :, None]
            return F.softplus(step), Mediator.value(f"{self.source.A_0.path}.output")

        return per_call(self, "steps", compute)

    def _betas(self) -> ScanSteps:
        """softplus(dt + dt_bias), each token's step size per channel; read-only."""
        steps, _ = self._steps()
        return _channels_last(steps)

    betas = DerivedEProperty(
        _betas, description="Each token's step size per channel, softplus(dt + dt_bias)", unavailable=always
    )

    def _decays(self) -> ScanDecays:
        """dt * A, the log decay per token, channel and state dimension; read-only."""
        steps, rate = self._steps()
        return _channels_last(steps)[..., None] * rate.reshape(-1, rate.shape[-1])

    decays = DerivedEProperty(
        _decays, description="The log decay per channel and state dimension, dt * A", unavailable=always
    )

    def _state_input(self) -> Optional[ScanState]:  # noqa: UP045 - the layout reads typing.Optional
        """A decode step's cached state, a copy; None on a prompt, whose scans start from zeros."""
        decoding, cached = self._call()
        # The kernels update the cache's tensor in place, which would change a saved read.
        return cached.flatten(1, 2).clone() if decoding else None

    def _write_state_input(self, value: Any) -> None:
        decoding, cached = self._call()
        if not decoding:
            raise ValueError(f"{self.path}.state_input: a prompt's scans start from zeros and take no state")
        current = cached.flatten(1, 2)
        if value.shape != current.shape or value.dtype != current.dtype:
            raise ValueError(
                f"{self.path}.state_input takes a {current.dtype} tensor of shape {tuple(current.shape)}, "
                f"got {value.dtype} {tuple(value.shape)}"
            )
        # The kernels update the tensor the cache keeps, in place, so the write goes into it.
        with torch.no_grad():
            cached.copy_(value.unflatten(1, cached.shape[1:3]))

    state_input = WritableState(
        _state_input,
        _write_state_input,
        description="The state the call starts from: None on a prompt, a copy of the cached state on a decode step",
        unavailable=always,
    )

    @EProperty(
        lambda envoy: envoy._at(STEP_OUTPUT if envoy._decoding() else PROMPT_OUTPUT),
        description="The scan outputs y of every head, after the D skip and the silu(z) gate, before out_proj",
        unavailable=always,
    )
    def attention_head_outputs(self, value) -> ScanValues:
        return value.transpose(1, 2)

    @attention_head_outputs.postprocess
    def attention_head_outputs(self, value):
        return value.transpose(1, 2)

    def _state_output(self) -> ScanState:
        """Every head's state after the call's last token, as the cache receives it; read-only."""
        decoding, cached = self._call()
        if decoding:
            Mediator.value(f"{self.source.torch_cat_0.path}.output")  # after every head's in-place update
            return cached.flatten(1, 2).clone()
        return Mediator.value(f"{self.source.torch_stack_0.path}.output").flatten(1, 2).clone()

    state_output = DerivedEProperty(
        _state_output,
        description="The state after the call's last token, every head's channels side by side; read-only",
        unavailable=always,
    )

    state = unavailable(NO_TOKEN_STATE)
    states = unavailable(NO_TOKEN_STATE)


ENVOYS = {
    "layers.*": Layer,
    ZambaAttention: Attention,
    ZambaMambaMixer: HeadedScan,
}
