"""Qwen4-Exp (`Qwen4ExpForCausalLM`), end to end: two flattened hyper-connection streams over an indexed attention
block and a gated DeltaNet block with the per-layer n-gram embedding, both mixtures with a gated shared expert.

The hyper-connection statements take their flattened, unmixed form: the blocks hold the streams as one
`[batch, seq, streams * hidden_size]` tensor (`native` unflattens what is read at a module boundary), the sublayers
read the collapsed stream with no norm of their own, the n-gram embedding joins the streams before the attention's
hyper-connection, and the final gated-residual module (`norm`) collapses the last streams for the head.
"""

import pytest
import torch

from nnterp_harness.entries.qwen4_exp_text import indexed_attention_unsupported
from nnterp_harness.hyper_connections import spread
from nnterp_harness.recurrent import ROUTING_NEEDED
from nnterp_harness.release import family
from nnterp_harness.suite import ATTENTION_INTERIOR, ROUTED_EXPERTS, FamilySuite, moved, rows, run, scale_of

FAMILY = family("qwen4_exp_text")

if reason := indexed_attention_unsupported():
    pytest.skip(reason, allow_module_level=True)


class TestQwen4ExpText(FamilySuite):
    CHECKPOINT = "qwen4_exp_text"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "hyper_connection_mixer", attn=None, ln1=None, ln2=None)
    EXPECTED_UNAVAILABLE = {
        **ROUTING_NEEDED,
        **ROUTED_EXPERTS,
        "attention_comb": "unmixed",
        "mlp_comb": "unmixed",
    }
    ROUTER_EXTRA_CLASSES = (FAMILY.Mlp,)
    COMB = False
    ATTENTION_NORM = None
    MLP_NORM = None
    QUERY_GATED = True
    PREMIX_IS_HEAD_OUTPUTS = False
    flat: tuple[int, int] = (0, 0)

    @pytest.fixture(autouse=True)
    def _widths(self, model):
        type(self).flat = (self._streams(model), model.hidden_size)

    def _streams(self, model):
        return model.config.get_text_config().hc_count

    def native(self, value):
        streams, hidden = self.flat
        if value.dim() == 3 and value.shape[-1] == streams * hidden:
            return value.unflatten(-1, (streams, hidden))
        return value

    def mixer_name(self, model, index):
        return "self_attn" if model.config.layer_types[index] == "indexed_attention" else "linear_attn"

    def test_the_checkpoint_holds_each_block_kind(self, model):
        assert model.config.layer_types == ["indexed_attention", "linear_attention"]
        support = model.support()
        assert support["ple_output"] == {0: "no ple module on this block"}, support["ple_output"]

    def test_trace_through_standard_names(self, model):
        def body(m):
            return m.embed_tokens.output, m.layers[-1].output, m.norm.input, m.norm.output, m.lm_head.output

        embed, last, norm_in, norm_out, head = run(model, body)
        streams, hidden = self.flat
        assert embed.shape[-1] == hidden and norm_out.shape[-1] == hidden
        assert last.shape[-1] == norm_in.shape[-1] == streams * hidden and torch.equal(last, norm_in)
        assert head.shape[-1] == model.vocab_size

    def test_sublayer_inputs_are_the_normed_stream(self, model):
        for index in range(len(model.layers)):
            name = self.mixer_name(model, index)

            def body(m, index=index, name=name):
                b = m.layers[index]
                return (
                    b.attention_norm_output,
                    b.attention_collapsed,
                    getattr(b, name).input,
                    b.mlp_norm_output,
                    b.mlp_collapsed,
                    b.mlp.input,
                )

            attn_norm, attn_collapsed, mixer_in, mlp_norm, mlp_collapsed, mlp_in = run(model, body)
            assert torch.equal(attn_norm, attn_collapsed) and torch.equal(mixer_in, attn_norm), f"block {index}"
            assert torch.equal(mlp_norm, mlp_collapsed) and torch.equal(mlp_in, mlp_norm), f"block {index}"

    def test_the_collapsed_streams_feed_the_norms(self, model):
        # No norm follows the collapse: the gated-residual module norms every stream before it averages them.
        def body(m):
            b = m.layers[0]
            return b.layer_input, b.attention_collapsed, b.attn_hyper_connection.output[0]

        x, collapsed, raw = run(model, body)
        assert torch.equal(collapsed, raw)
        hc = model.layers[0]._module.attn_hyper_connection
        with torch.no_grad():
            assert torch.equal(hc(x.flatten(-2))[0], collapsed), "the collapse is not the module on the streams"

    def test_contribution_identity(self, model):
        count = len(model.layers)
        carries = [model.support(layer=i)["ple_output"] is None for i in range(count)]

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                x = b.layer_input
                ple = b.ple_output if carries[i] else None
                read.append(
                    (
                        x,
                        ple,
                        b.attention_post,
                        b.self_attn.attention_output if i == 0 else b.linear_attn.attention_output,
                        b.layer_mid,
                        b.mlp_post,
                        b.mlp.mlp_output,
                        b.layer_output,
                    )
                )
            return read

        for index, (x, ple, post_a, attn, mid, post_m, mlp, out) in enumerate(run(model, body)):
            assert (ple is not None) == (index == 1), f"block {index}: the n-gram embedding is not where configured"
            entering = x if ple is None else (x.flatten(-2) + ple.flatten(-2)).unflatten(-1, x.shape[-2:])
            assert torch.equal(spread(post_a, attn, entering, None), mid), f"block {index}: layer_mid is not the add"
            assert torch.equal(spread(post_m, mlp, mid, None), out), f"block {index}: layer_output is not the add"
            assert moved(out[:, :, 0], out[:, :, 1]), f"block {index}: the streams are one"

    def test_the_ngram_embedding_write_lands(self, model, clean):
        def body(m):
            block = m.layers[1]
            x = block.layer_input
            block.ple_output = block.ple_output * 0
            return x, block.attn_hyper_connection.input, m.logits

        x, entering, logits = run(model, body)
        assert torch.equal(self.native(entering), x), "a zeroed ple_output did not drop out of the streams"
        assert moved(logits, clean["logits"])

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, m.norm.input, m.norm.output

        before, after, final_in, final_out = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        assert torch.equal(self.native(final_in), before), "the final collapse did not receive block 0's streams"
        assert torch.equal(model.family.collapse_streams(model, before), final_out)

    def test_interior_writes_are_causal(self, model, clean):
        # Transformers 5.20 adds the indexer's mask to the causal mask, so a key both leave out scores -inf there
        # (two `finfo.min` overflow) and `scores * 0` is NaN: each interior value is zeroed where it is finite.
        index, _ = self.first_attention(model)
        for name in ATTENTION_INTERIOR:
            if name == "attention_probabilities":
                continue

            def zero(m, name=name):
                a = m.layers[index].self_attn
                value = getattr(a, name)
                setattr(a, name, torch.where(value.isfinite(), value * 0, value))
                return m.logits

            assert moved(run(model, zero), clean["logits"]), f"zeroing {name} did not move the logits"

        def silent(m):
            a = m.layers[index].self_attn
            a.attention_head_outputs = a.attention_head_outputs * 0
            return a.attention_output

        out = run(model, silent)
        assert float((out - out[:, :1]).detach().abs().max()) == 0.0, "zeroed heads left a position-dependent output"

        def last_query(m):
            a = m.layers[index].self_attn
            queries = a.attention_queries.clone()
            queries[:, :, -1] = 0
            a.attention_queries = queries
            return m.logits

        edited = run(model, last_query)
        atol = 1e-6 * scale_of(clean["logits"])
        assert torch.allclose(edited[:, :-1], clean["logits"][:, :-1], rtol=0, atol=atol), (
            "an edit of the last query moved an earlier position"
        )
        assert moved(edited[:, -1], clean["logits"][:, -1]), "an edit of the last query did not move its position"
