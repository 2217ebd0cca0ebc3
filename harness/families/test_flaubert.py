"""FlauBERT (`flaubert`), end to end: XLM's post-LN blocks, gathered from four parallel lists, as a bidirectional encoder."""

import torch

from nnterp import StandardizedTransformer
from nnterp.families import xlm
from nnterp_harness.post_ln import POST_LN_UNAVAILABLE
from nnterp_harness.release import family
from nnterp_harness.suite import FamilySuite, rows, run

FAMILY = family("flaubert")


class TestFlaubert(FamilySuite):
    CHECKPOINT = "flaubert"
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

    def test_blocks_are_xlms_gathered_blocks(self, model):
        # The decision: FlauBERT takes XLM's declarations, so each block is XLM's container over the trunk's lists.
        trunk = model.transformer._module
        for index, block in enumerate(model.layers):
            assert isinstance(block, xlm.Layer) and isinstance(block._module, xlm.XLMBlock)
            assert trunk.attentions[index] is block.self_attn._module
            assert trunk.layer_norm2[index] is block.layer_norm2._module
        assert len(list(model._module.parameters())) == len(dict(model._module.named_parameters()))

    def test_renamed_model_equals_raw_model(self, model, raw_model):
        # The raw model has no block modules: block i ends at `layer_norm2[i]`, as in the gathered block.
        count = len(model.layers)

        def standard(m):
            return [m.layers[i].layer_output for i in range(count)] + [m.logits]

        def raw(m):
            norms = m.transformer.layer_norm2
            return [norms[i].output for i in range(count)] + [m.output.logits]

        for index, (ours, theirs) in enumerate(zip(run(model, standard), run(raw_model, raw))):
            assert torch.equal(ours, theirs), f"value {index} differs from the raw model's"

    def test_padded_positions_of_the_stream_read_zero(self, model):
        # The trunk multiplies the stream by the padding mask after each block's layer_norm2, in place.
        def body(m):
            return m.attention_mask, m.layers[0].layer_output

        mask, out = run(model, body, ["The Eiffel Tower is in [MASK]", "Paris is [MASK]"])
        pads = mask[1] == 0
        assert bool(pads.any()) and float(out[1, pads].abs().max()) == 0.0

    def test_bare_trunk_is_gathered_on_the_meta_load_and_the_dispatch(self, model, checkpoint):
        # The bare trunk is the root, whose envoy is the wrapper: the blocks are gathered on the meta load, and
        # again when the real weights replace the meta ones.
        bare = StandardizedTransformer(str(checkpoint), task="feature-extraction", attn_implementation="eager")
        assert len(bare.layers) == len(model.layers) and not bare.dispatched
        last = len(model.layers) - 1

        def body(m):
            return m.layers[last].layer_output

        assert torch.equal(run(bare, body), run(model, body))
        assert bare.dispatched and isinstance(bare._module.layers[0], xlm.XLMBlock)

    def test_a_loaded_bare_trunk_is_gathered(self, model, checkpoint):
        # A trunk handed over as a module is the root too: the wrapper gathers its blocks before mirroring it.
        from transformers import AutoModel, AutoTokenizer

        trunk = AutoModel.from_pretrained(str(checkpoint), attn_implementation="eager")
        bare = StandardizedTransformer(
            trunk, task="feature-extraction", tokenizer=AutoTokenizer.from_pretrained(str(checkpoint))
        )
        assert len(bare.layers) == len(model.layers) and isinstance(trunk.layers[0], xlm.XLMBlock)
        assert bare.tokenizer.padding_side == "right", "an encoder's batch pads on the right"
        assert torch.equal(
            run(bare, lambda m: m.layers[0].layer_output), run(model, lambda m: m.layers[0].layer_output)
        )
