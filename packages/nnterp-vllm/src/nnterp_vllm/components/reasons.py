"""The reasons a value is unavailable on the vLLM engine, shared by the families."""

from __future__ import annotations

LM_HEAD = (
    "vLLM never calls lm_head: its logits processor projects with lm_head's weight and applies any softcap and "
    "scale in the same call, on the last position only; read logits"
)
NO_MASK = "a vLLM request is one unpadded sequence; there is no mask"
GATED = (
    "a gated MLP on vLLM: act(gate) is never a module's output (gate_up_proj feeds act_fn, an act-and-multiply "
    "kernel, whose output is already act(gate) * up), so it is not served; mlp_neurons is the product"
)
ROUTED = "routed experts, inside vLLM's fused MoE kernel: there is no single activation or down projection"
DECODE = (
    "recomputed from this step's queries and keys, and on a decode step the earlier tokens' keys are in vLLM's "
    "cache, which only its kernel reads; read it on the prefill"
)
ORDER = "model.{name} is not supported on the vllm engine; it is measured on a StandardizedTransformer"
