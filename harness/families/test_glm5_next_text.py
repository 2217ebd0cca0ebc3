"""glm5_next_text: its text family's suite on the `glm5_next` wrapper checkpoint, beside the wrapper's `test_glm5_next.py`.

No causal-LM class of the auto mapping builds `glm5_next_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("glm5_next")

import torch
from test_glm5_next import FAMILY, LOAD_KWARGS, LONG_PROMPT, SPLIT_VALUES

from nnterp.components import LatentAttention, Mlp
from nnterp.components.kimi_delta import KimiDeltaAttention
from nnterp.families import deepseek_v3
from nnterp_harness.hyper_connections import (
    spread,
)
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.suite import (
    ROUTED_EXPERTS,
    FamilySuite,
    moved,
    rows,
    run,
)


class TestGlm5NextText(FamilySuite):
    CHECKPOINT = "glm5_next"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", attn=None)
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = {**ROUTING_NEEDED, **ROUTED_EXPERTS}
    ROUTER_EXTRA_CLASSES = (Mlp,)
    MLP_WIDTH_KEY = "intermediate_size"
    REFUSES_IN_PLACE = ("attention_values",) if SPLIT_VALUES else ()

    def _streams(self, model):
        return model.config.get_text_config().hc_mult

    def mixer_name(self, model, index):
        kind = model.config.get_text_config().layer_types[index]
        return "linear_attn" if kind == "linear_attention" else "self_attn"

    def test_contribution_identity(self, model):
        # The suite's form, each block's contribution read on the mixer it holds.
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                mixer = getattr(b, self.mixer_name(model, i))
                read.append(
                    (
                        b.layer_input,
                        b.attention_post,
                        b.attention_comb,
                        mixer.attention_output,
                        b.layer_mid,
                        b.mlp_post,
                        b.mlp_comb,
                        b.mlp.mlp_output,
                        b.layer_output,
                    )
                )
            return read

        for index, (x, post_a, comb_a, attn, mid, post_m, comb_m, mlp, out) in enumerate(run(model, body)):
            assert tuple(post_a.shape) == tuple(x.shape[:3]), f"block {index}: attention_post {tuple(post_a.shape)}"
            assert tuple(comb_a.shape) == (*x.shape[:3], x.shape[2]), f"block {index}: {tuple(comb_a.shape)}"
            assert torch.equal(spread(post_a, attn, x, comb_a), mid), f"block {index}: layer_mid is not the add"
            assert torch.equal(spread(post_m, mlp, mid, comb_m), out), f"block {index}: layer_output is not the add"
            assert moved(out[:, :, 0], out[:, :, 1]), f"block {index}: the streams are one"

    def test_the_checkpoint_holds_each_block_kind(self, model):
        config = model.config.get_text_config()
        assert [kind == "linear_attention" for kind in config.layer_types] == [False, False, True]
        assert config.indexer_types[:2] == ["full", "shared"]
        assert config.mlp_layer_types == ["dense", "sparse", "dense"]
        assert isinstance(model.layers[0].self_attn, LatentAttention)
        assert isinstance(model.layers[1].self_attn, LatentAttention)
        assert isinstance(model.layers[2].linear_attn, KimiDeltaAttention)
        assert isinstance(model.layers[1].mlp, deepseek_v3.Moe) and not isinstance(model.layers[0].mlp, deepseek_v3.Moe)

    def test_each_query_attends_to_at_most_the_indexed_keys(self, model):
        config = model.config.get_text_config()
        keep = config.index_topk + config.index_kpool - 1
        (pattern,) = self.read_on_blocks(model, "self_attn.attention_probabilities", [0], LONG_PROMPT)
        n = pattern.shape[-1]
        assert n > keep
        kept = (pattern[0] > 0).sum(-1)  # [heads, queries]
        assert bool((kept <= keep).all()), "a query attends to more keys than the indexer keeps"
        # Query i sees all of its i + 1 earlier keys while they fit in `index_topk`, and fewer once they pass the
        # budget with the tail.
        early = config.index_topk
        assert torch.equal(kept[:, :early], (torch.arange(early) + 1).expand(kept.shape[0], -1))
        assert bool((kept[:, keep:] < torch.arange(keep, n) + 1).all()), "a late query kept every key"
        assert float(pattern[0].triu(1).detach().abs().max()) == 0.0, "a query attends to a later key"

    def test_the_shared_block_reuses_the_first_blocks_choice(self, model):
        def body(m):
            return m.layers[0].output[1], m.layers[1].output[1], m.layers[2].output[1]

        first, second, third = run(model, body, LONG_PROMPT)
        assert first is not None and second is None and third is None, "only the block before a shared one hands on"
        assert model.layers[1].self_attn._module.indexer is None

        def patterns(m):
            return m.layers[0].self_attn.attention_probabilities, m.layers[1].self_attn.attention_probabilities

        a, b = run(model, patterns, LONG_PROMPT)
        assert torch.equal(a[0, 0] > 0, b[0, 0] > 0), "the shared block does not keep the first block's keys"

    def test_a_skipped_first_block_hands_on_every_earlier_key(self, model):
        def body(m):
            m.skip_layers(0, 0)
            return m.layers[0].output[1], m.layers[1].self_attn.attention_probabilities

        chosen, pattern = run(model, body, LONG_PROMPT)
        n = pattern.shape[-1]
        keys = torch.arange(n)
        assert torch.equal(chosen[0].long(), torch.where(keys[None, :] <= keys[:, None], keys, -1))
        kept = (pattern[0] > 0).sum(-1)
        assert torch.equal(kept, (keys + 1).expand_as(kept)), "the shared block still drops keys"

    def test_the_forget_gate_bounds_the_decays(self, model):
        config = model.config.get_text_config()
        block = model.layers[2]

        def body(m):
            b = m.layers[2]
            return b.attention_norm_output, b.linear_attn.decays

        normed, decays = run(model, body)
        with torch.no_grad():
            gate = block.linear_attn._module.forget_gate(normed)
        assert torch.equal(decays, gate), "the decays are not the forget gate on the normed stream"
        assert bool((decays > config.linear_lower_bound).all()), "a decay beyond the gate's lower bound"

    def test_weights_are_the_scaled_sigmoid_scores_of_the_chosen_experts(self, model):
        def body(m):
            mixture = m.layers[1].mlp
            return mixture.router_logits, mixture.expert_weights, mixture.expert_indices

        logits, weights, indices = run(model, body)
        scores = torch.sigmoid(logits.float()).gather(-1, indices)
        expected = (
            scores / (scores.sum(-1, keepdim=True) + 1e-20) * model.config.get_text_config().routed_scaling_factor
        )
        assert torch.allclose(weights, expected, atol=1e-5)
