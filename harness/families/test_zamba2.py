"""Zamba2 (`Zamba2ForCausalLM`), end to end: a Mamba-2 block, then two hybrid blocks sharing one transformer block."""

from nnterp_harness.recurrent import CHUNKED_STATES, MIXER_ONLY
from nnterp_harness.release import family
from nnterp_harness.shared_block import SharedTransformerChecks
from nnterp_harness.suite import FamilySuite, child_names, rows

FAMILY = family("zamba2")


class TestZamba2(FamilySuite):
    CHECKS = (SharedTransformerChecks,)
    CHECKPOINT = "zamba2"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_layernorm", attn=None, ln1=None, ln2=None, mlp=None)
    EXPECTED_UNAVAILABLE = {**CHUNKED_STATES, **MIXER_ONLY}
    # Every block holds the mixer; the hybrid blocks run an attention before it.
    HYBRID = False
    MLP_NORM = None
    DECODE_MASK_COVERS_CACHE = False

    def contribution_sources(self, block):
        # The mixer's output is all a block adds: the shared transformer feeds the mixer's input.
        return [(child_names(block)["linear_attn"], "attention_output")]

    def sublayers_besides_mixers(self, model):
        # The attention reads the shared block's own norm of a wider input, not the block's normed stream,
        # and no block has an MLP: the block's norm feeds the mixer alone (held below and by RecurrentChecks).
        return False
