"""NeoMME (`neomme`), end to end: factorized embeddings, a mix of the stream and the initial states, scaled adds."""

import contextlib

import torch

from nnterp_harness.release import family
from nnterp_harness.sliding import LONG_PROMPT
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("neomme")


@contextlib.contextmanager
def effective_table(model):
    """The factorized embedding module holds, for the time of the block, the table it applies: `[vocab, hidden]`.

    The module has no `weight`: it looks a row up in a table `embedding_rank` wide and
    projects it. The suite's size check reads the table's width off `weight`, so the
    product of the two stands there, a plain attribute the forward never reads.
    """
    module = model.embed_tokens._module
    table = module.word_embeddings.weight @ module.embedding_projection.weight.T
    module.weight = table.detach()
    try:
        yield table
    finally:
        del module.weight


class TestNeoMME(FamilySuite):
    CHECKPOINT = "neomme"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "final_norm")
    EXPECTED_UNAVAILABLE = {}
    PREMIX_IS_HEAD_OUTPUTS = False
    PLAIN_UP_PROJ = True

    def test_sizes_match_the_model(self, model):
        module = model.embed_tokens._module
        config = model.config
        assert tuple(module.word_embeddings.weight.shape) == (model.vocab_size, config.embedding_rank)
        assert tuple(module.embedding_projection.weight.shape) == (model.hidden_size, config.embedding_rank)
        assert config.embedding_rank < model.hidden_size, "the checkpoint does not factorize its token table"
        with effective_table(model):
            super().test_sizes_match_the_model(model)
        assert not hasattr(module, "weight")

    def test_token_embeddings_are_the_projected_table_row(self, model):
        ids, tokens, entering = run(model, lambda m: (m.input_ids, m.token_embeddings, m.layers[0].layer_input))
        native = model._module.model
        with torch.no_grad():
            projected = native.embed_tokens.embedding_projection(native.embed_tokens.word_embeddings(ids))
            assert torch.equal(tokens, projected)
            assert torch.equal(entering, native.embedding_norm(tokens)), "block 0 does not read the normed embeddings"

    def test_the_attention_reads_the_normed_mix_with_the_initial_states(self, model):
        count = len(model.layers)

        def body(m):
            return m.layers[0].layer_input, [(b.layer_input, b.attention_norm_output) for b in m.layers[:count]]

        initial, blocks = run(model, body)
        for index, (stream, normed) in enumerate(blocks):
            block = model.layers[index]._module
            a, b = block.lambdas
            assert float(b) != 0.0, f"block {index} hides the initial states from its attention"
            with torch.no_grad():
                expected = block.input_layernorm(a * stream + b * initial)
                assert torch.equal(normed, expected), f"block {index}: the attention does not read the normed mix"
                if index:
                    assert not torch.equal(normed, block.input_layernorm(stream))

    def test_contributions_are_the_scaled_outputs(self, model):
        scale = model.config.residual_multiplier
        assert model.layers[0]._module.residual_multiplier == scale != 1.0

        def body(m):
            b = m.layers[0]
            return b.self_attn.output[0], b.self_attn.attention_output, b.mlp.output, b.mlp.mlp_output

        attn_raw, attn_out, mlp_raw, mlp_out = run(model, body)
        assert torch.equal(attn_out, attn_raw * scale)
        assert torch.equal(mlp_out, mlp_raw * scale)

    def test_the_pre_norm_identity_is_exact(self, model):
        count = len(model.layers)

        def body(m):
            return [
                (b.layer_input, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output)
                for b in (m.layers[i] for i in range(count))
            ]

        for index, (x, attention, mlp, out) in enumerate(run(model, body, ["The Eiffel Tower is in", "Paris"])):
            assert torch.equal(x + attention + mlp, out), f"block {index}: the sum is not layer_output bit for bit"

    def test_premix_is_the_gated_exclusive_mix(self, model):
        def body(m):
            a = m.layers[0].self_attn
            return a.input[0], a.attention_values, a.attention_head_outputs, a.attention_premix

        normed, values, heads, premix = run(model, body)
        attention = model.layers[0]._module.self_attn
        with torch.no_grad():
            exclusive = attention.exclusive_self_attention(heads, values)
            gate = torch.sigmoid(attention.output_projection.gate_proj(normed))
            assert torch.equal(premix.flatten(-2), exclusive.flatten(-2) * gate)
        assert not torch.equal(exclusive, heads), "the exclusive self-attention left the head outputs as they were"

    def test_the_first_global_block_adds_the_value_embeddings(self, model):
        config = model.config
        ids, normed, values = run(
            model, lambda m: (m.input_ids, m.layers[0].attention_norm_output, m.layers[0].self_attn.attention_values)
        )
        assert config.layer_types[0] == "full_attention"
        native = model._module.model
        attention = native.layers[0].self_attn
        with torch.no_grad():
            projected = attention.v_proj(normed).unflatten(-1, (-1, attention.head_dim)).transpose(1, 2)
            embedded = native.value_embeddings(ids).unflatten(-1, (-1, attention.head_dim)).transpose(1, 2)
            assert torch.equal(values, projected + embedded)

    def test_a_sliding_block_weighs_the_band_its_window_states(self, model):
        config = model.config
        kinds = config.layer_types
        blocks = list(range(len(model.layers)))
        patterns = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks, LONG_PROMPT)
        assert set(kinds) == {"full_attention", "sliding_attention"}
        for index, pattern in zip(blocks, patterns):
            window = model.layers[index].self_attn.attention_window
            assert (window is None) == (kinds[index] == "full_attention"), f"block {index}: attention_window {window}"
            n = pattern.shape[-1]
            pattern = pattern.detach()
            if window is not None:
                reach = config.per_layer_config[index].sliding_window
                assert window == 2 * reach + 1
                assert n > window, "the long prompt does not outrun the band"
                band = (torch.arange(n)[:, None] - torch.arange(n)[None, :]).abs() <= reach
                assert float(pattern[..., ~band].abs().max()) == 0.0, f"block {index} weighs a key past its band"
                assert float(pattern[..., band].min()) > 0.0, f"block {index} leaves a key of its band unweighed"
            else:
                assert float(pattern.min()) > 0.0, f"full-attention block {index} leaves a key unweighed"

    def test_the_lens_on_the_last_block_is_the_logits(self, model):
        def body(m):
            return m.project_on_vocab(m.layers[-1].layer_output), m.lm_head.input, m.logits

        lens, narrowed, logits = run(model, body)
        assert narrowed.shape[-1] == model.config.embedding_rank
        assert torch.equal(lens, logits)

    def test_a_text_prompt_runs_no_patch_stem(self, model):
        calls = []
        hook = model._module.model.patch_embeddings.register_forward_hook(lambda *args: calls.append(1))
        try:
            run(model, lambda m: m.logits)
        finally:
            hook.remove()
        assert not calls, "the patch stem ran on a text prompt"
