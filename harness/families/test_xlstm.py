"""xLSTM (`xLSTMForCausalLM`), end to end: two mLSTM blocks, a prompt split between the chunkwise and sequence kernels.

The mLSTM's values are its backend module's arguments and results, so `RecurrentChecks`'
shape, write and hand-off checks run as stated; the per-token state checks are restated:
the backend binds no state per token, and what it computes is checked by hand against
the served queries, keys, values and gates instead.
"""

from __future__ import annotations

import torch

from nnterp.components.mlstm import Mlstm
from nnterp_harness.call_state import CallStateChecks
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("xlstm")

NO_STATE_PER_TOKEN = {
    "linear_attn.state": "never the state after each token",
    "linear_attn.states": "never the state after each token",
}


def mlstm_by_hand(queries, keys, values, decays, betas):
    """Every token's read `h` and the memory `C` after the last token, unstabilized, in float64, from zeros."""
    queries, keys, values, decays, betas = (x.double() for x in (queries, keys, values, decays, betas))
    batch, seq, heads, key_dim = keys.shape
    memory = torch.zeros(batch, heads, key_dim, values.shape[-1], dtype=torch.float64)
    normalizer = torch.zeros(batch, heads, key_dim, dtype=torch.float64)
    reads = []
    for t in range(seq):
        keep, write = decays[:, t].exp()[..., None], betas[:, t].exp()[..., None]
        memory = keep[..., None] * memory + write[..., None] * keys[:, t, :, :, None] * values[:, t, :, None, :]
        normalizer = keep * normalizer + write * keys[:, t]
        query = queries[:, t] * key_dim**-0.5
        numerator = (query[..., None] * memory).sum(-2)
        denominator = (query * normalizer).sum(-1, keepdim=True).abs().clamp(min=1.0)
        reads.append(numerator / denominator)
    return torch.stack(reads, dim=1), memory


class TestXlstm(FamilySuite):
    CHECKS = (CallStateChecks,)
    CHECKPOINT = "xlstm"
    FAMILY = FAMILY
    NATIVE = rows(
        "backbone", "blocks", "embeddings", "out_norm", attn=None, ln1="norm_mlstm", ln2="norm_ffn", mlp="ffn"
    )
    EXPECTED_UNAVAILABLE = NO_STATE_PER_TOKEN
    TOKEN_STATE = "never the state after each token"
    BOUNDARY_VALUES = ("attention_queries", "betas", "state_output", "attention_output")
    HYBRID = False
    DECODE_MASK_COVERS_CACHE = False

    def in_place_values(self, mix):
        # The queries, keys, values, input gates and head outputs are views of the backend's tensors; the decays are
        # computed from the forget gates, and only an assignment reaches the kernel.
        return ("attention_queries", "attention_values", "betas", "attention_head_outputs")

    def test_the_prompt_runs_both_kernels(self, model, clean):
        # Chunks of `chunk_size` tokens go through the chunkwise kernel and the rest through the sequence kernel.
        n = self.n_tokens(clean)
        assert n > model.config.chunk_size and n % model.config.chunk_size, (n, model.config.chunk_size)

    def test_the_backend_computes_the_mlstm(self, model, clean):
        index, mix = self.mixer(model)
        assert isinstance(mix, Mlstm)
        names = ("attention_queries", "attention_keys", "attention_values", "decays", "betas")
        names += ("attention_head_outputs", "state_output")
        read = self.read_mixer(model, index, names)
        stabilizer = run(model, lambda m: m.layers[index].linear_attn.mlstm_backend.output[1][2])
        reads, memory = mlstm_by_hand(*(read[name] for name in names[:5]))
        assert torch.allclose(read["attention_head_outputs"].double(), reads, rtol=1e-4, atol=1e-5), (
            f"h differs from the mLSTM by {float((read['attention_head_outputs'].double() - reads).abs().max())}"
        )
        unscaled = read["state_output"].double() * stabilizer.double().exp()[..., None]
        assert torch.allclose(unscaled, memory, rtol=1e-4, atol=1e-6), "C * exp(m) is not the memory"
        assert bool((read["decays"] < 0).all())
