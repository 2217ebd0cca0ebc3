"""GPT-J on vLLM (``vllm.model_executor.models.gpt_j``).

out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x)), with GPT-J's names (``ln_1``, ``attn``,
``fc_in``/``fc_out``) renamed. A parallel block: one LayerNorm feeds both sublayers, so ``mlp_norm_output`` is the
attention's normed input and ``layer_mid`` is unavailable. The block is called ``forward(position_ids,
hidden_states)`` and returns the stream. The rotary embedding turns the first ``rotary_dim`` channels of each head
in interleaved pairs. The MLP is plain: ``mlp_activation`` and ``mlp_neurons`` are both the input of ``fc_out``. vLLM's GPT-J refuses
tied embeddings.
"""

from vllm.model_executor.models.gpt_j import GPTJMLP, GPTJAttention, GPTJBlock

from nnterp_vllm import components as base
from nnterp_vllm.components import parallel

RENAME = {
    "transformer.wte": "embed_tokens",
    "transformer.h": "layers",
    "transformer.ln_f": "norm",
    "ln_1": "input_layernorm",
    "attn": "self_attn",
    "attn.out_proj": "attn.o_proj",
    "fc_out": "down_proj",
    "act": "act_fn",
}


class Layer(parallel.ParallelLayer):
    """GPT-J's parallel block: ``forward(position_ids, hidden_states) -> hidden_states``."""

    STREAM = 1


class Attention(base.Attention):
    """GPT-J's attention; its output is what the block adds, so the base holds."""


class Mlp(base.Mlp):
    """GPT-J's plain MLP; its output is what the block adds, so the base holds."""


#: Module type -> Envoy subclass, for nnsight's ``envoys=``.
ENVOYS = {GPTJBlock: Layer, GPTJAttention: Attention, GPTJMLP: Mlp}
