"""XLM (`xlm`), end to end: post-LN blocks gathered from four parallel lists, its own attention, no final norm."""

import torch

from nnterp import axis_size
from nnterp.families import xlm
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.resend import ResendChecks
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("xlm")


class TestXLM(FamilySuite):
    CHECKS = (ResendChecks,)
    CHECKPOINT = "xlm"
    FAMILY = FAMILY
    NATIVE = rows(
        "transformer",
        "layers",
        "embeddings",
        None,
        attn="attention",
        ln1=None,
        ln2="layer_norm1",
        mlp="ffn",
        head="pred_layer.proj",
    )
    EXPECTED_UNAVAILABLE = POST_LN_UNAVAILABLE
    OUTPUT_NORM = "layer_norm2"
    PLAIN_UP_PROJ = True
    KEEPS_CACHE = False

    def test_blocks_hold_the_trunks_own_modules(self, model):
        # The decision: each gathered block holds the i-th module of every parallel list, which the forward calls.
        trunk = model.transformer._module
        for index, block in enumerate(model.layers):
            held = (block.self_attn, block.post_attention_layernorm, block.mlp, block.layer_norm2)
            for (name, _), envoy in zip(xlm._PARALLEL_LISTS, held):
                assert getattr(trunk, name)[index] is envoy._module, f"block {index} does not hold {name}[{index}]"
        assert not set(n for n, _ in xlm._PARALLEL_LISTS) & set(trunk._modules), "a parallel list is still registered"
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_renamed_model_equals_raw_model(self, model, raw_model):
        # The raw model has no block modules: block i ends at `layer_norm2[i]`, as in the gathered block.
        count = len(model.layers)

        def standard(m):
            return [m.input_ids] + [m.layers[i].layer_output for i in range(count)] + [m.logits]

        def raw(m):
            norms = m.transformer.layer_norm2
            return [m.inputs[1]["input_ids"]] + [norms[i].output for i in range(count)] + [m.output.logits]

        ours, theirs = run(model, standard), run(raw_model, raw)
        assert torch.equal(ours[0], theirs[0]), "the two models tokenized the prompt differently"
        for index, (a, b) in enumerate(zip(ours[1:-1], theirs[1:-1])):
            assert torch.equal(a, b), f"block {index}'s output differs from the raw model's"
        assert torch.equal(ours[-1], theirs[-1]), "the logits differ from the raw model's"

    def test_block_boundaries_are_its_modules(self, model):
        def body(m):
            block = m.layers[0]
            return block.input, block.self_attn.input, block.layer_norm2.output, m.layers[1].input

        entering, attention_input, leaving, next_input = run(model, body)
        assert torch.equal(entering, attention_input)
        assert torch.equal(leaving, next_input), "block 1 does not read block 0's layer_norm2 output"

    def appended_id(self, model):
        return model.config.mask_token_id

    def test_attention_interior_under_generate(self, model, clean):
        # Every step passes the n prompt ids, the generated one and the appended mask token; the keys span all
        # n + 2, and the queries too unless the call carries the cache (then only the last id runs).
        n = self.n_tokens(clean)
        attn = model.layers[0].self_attn
        for name in ("attention_probabilities", "attention_queries", "attention_keys"):
            value, cached = self.decode_step(model, lambda m: getattr(m.layers[0].self_attn, name))
            queried = 1 if cached else n + 2
            if name == "attention_probabilities":
                assert tuple(value.shape) == (1, axis_size(attn, "num_heads"), queried, n + 2), tuple(value.shape)
                sums = value.float().sum(-1)
                assert torch.allclose(sums, torch.ones_like(sums), atol=1e-3)
            else:
                assert value.shape[2] == (queried if name == "attention_queries" else n + 2), (name, value.shape)
