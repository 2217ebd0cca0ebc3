"""Dory, end to end: nGPT blocks that interpolate on the unit sphere, a looped middle block, a scaled head.

The tiny checkpoint holds one input block, one block looped three times and one output
block. The suite's statements about the stream between blocks and about the
contributions take their Dory form here: a loop run starts from
`norm(stream) + norm(input section's output)`, each sublayer moves the stream towards
its normed output at a per-channel rate, and a looped block's values are its first run,
its later runs being nnsight's later occurrences.
"""

import torch

from nnterp_harness.looped import assert_noise_writes_move_the_logits, runs
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, PROMPT, FamilySuite, run

FAMILY = family("dory")

LOOPED = 1


def rates(block):
    """The block's per-channel interpolation rates, as its forward computes them."""
    module = block._module
    return (module.lambda_1 * module.lambda_scale).abs(), (module.lambda_2 * module.lambda_scale).abs()


class TestDory(FamilySuite):
    CHECKPOINT = "dory"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    MLP_NORM = "pre_feedforward_layernorm"
    # The stream moves towards each normed output instead of adding it (test_contribution_identity).
    MID_IDENTITY = False
    # A sigmoid gate and an L2 norm sit between the heads and o_proj.
    PREMIX_IS_HEAD_OUTPUTS = False
    # The gate and up projections are scaled per channel and their product is L2-normed before down_proj.
    NEURONS_FROM_ACTIVATION = False

    def test_the_checkpoint_loops_one_block(self, model):
        config = model.config
        assert (config.n_input_layers, config.n_recurrent_layers, config.n_output_layers) == (1, 1, 1)
        assert config.n_recurrent_loops == 3 and len(model.layers) == config.num_hidden_layers == 3

    # -- the stream between blocks -------------------------------------------------------

    def test_layer_input_is_the_block_input(self, model):
        loops = model.config.n_recurrent_loops

        def body(m):
            found = [(m.layers[0].input, m.layers[0].layer_input, m.layers[0].layer_output)]
            found.append((m.layers[1].input, m.layers[1].layer_input, m.layers[1].layer_output))
            return found

        (raw0, x0, y0), (raw1, x1, _) = run(model, body)
        assert torch.equal(raw0, x0) and torch.equal(raw1, x1), "layer_input is not the block's first input"
        norm = model.norm._module
        assert torch.equal(x1, norm(y0) + norm(y0)), "the loop's first run does not start from norm(y) + norm(y)"
        last = runs(model, lambda m: m.layers[LOOPED].layer_output, loops)[-1]
        after = run(model, lambda m: m.layers[2].layer_input)
        assert torch.equal(after, last), "the block after the loop does not read the loop's last run"

    def test_a_later_run_is_the_block_again_on_the_loop_input(self, model):
        """Run 1 of the looped block is the block recomputed on `norm(run 0's output) + norm(input section)`."""
        first, second = runs(model, lambda m: (m.layers[LOOPED].inputs, m.layers[LOOPED].layer_output), 2)
        (args0, kwargs0), out0 = first
        (args1, kwargs1), out1 = second
        entering = run(model, lambda m: m.layers[0].layer_output)
        norm = model.norm._module
        assert torch.equal(args1[0], norm(out0) + norm(entering)), "run 1 does not start from run 0's output"
        block = model.layers[LOOPED]._module
        kwargs = {**kwargs1, "cache": None}
        with torch.no_grad():
            again = block(*args1, **kwargs)
        assert torch.equal(again, out1), "run 1's output is not the block recomputed on its input"
        assert not torch.equal(out0, out1)

    def test_reads_pinned_to_a_run_are_that_run(self, model):
        loops = model.config.n_recurrent_loops
        outputs = runs(model, lambda m: m.layers[LOOPED].layer_output, loops)
        assert torch.equal(outputs[0], run(model, lambda m: m.layers[LOOPED].layer_output)), (
            "the unpinned read is not the first run"
        )
        for a, b in zip(outputs, outputs[1:]):
            assert not torch.equal(a, b), "two runs of the looped block read the same output"

    def test_under_generate_a_step_holds_every_run(self, model, clean):
        """Occurrences count runs across steps: step 1's runs of the looped block follow step 0's."""
        loops, n = model.config.n_recurrent_loops, clean["input_ids"].shape[1]
        box = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[0 : 2 * loops]:
                box.append(model.layers[LOOPED].layer_output)
        assert [value.shape[1] for value in box] == [n] * loops + [1] * loops

    def test_final_norm_output_is_the_last_call(self, model):
        def body(m):
            return m.norm.output, m.layers[-1].layer_output, m.final_norm_output, m.lm_head.input

        first, last, final, head_in = run(model, body)
        assert torch.equal(final, head_in), "final_norm_output is not what the head reads"
        assert torch.equal(final, model.norm._module(last)), "final_norm_output is not the norm of the last block"
        assert not torch.equal(first, final)

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        # skip_layers acts on the first run of the looped block; the later runs start from the stream it hands on.
        last = len(model.layers) - 1

        def body(m):
            entering = m.layers[1].layer_input
            m.skip_layers(1, last)
            return entering, m.layers[last].layer_output, m.final_norm_output

        entering, after, final = run(model, body)
        assert torch.equal(after, entering), "the last block's output is not the stream entering block 1"
        assert torch.equal(final, model.norm._module(entering)), "the head's norm did not receive that stream"

    def test_trace_through_standard_names(self, model):
        # The suite reads `norm.output` after the last block; here that is the norm's first call, before the loop.
        def body(m):
            out = {"embed": m.embed_tokens.output}
            out["norm"] = m.norm.output
            block = m.layers[-1]
            out["attn"] = block.self_attn.output[0]
            out["mlp"] = block.mlp.output
            out["last"] = block.output
            out["head"] = m.lm_head.output
            return out

        out = run(model, body)
        for name in ("embed", "norm", "attn", "mlp", "last"):
            assert out[name].shape[-1] == model.hidden_size, name
        assert out["head"].shape[-1] == model.vocab_size

    # -- the interpolation identity ---------------------------------------------------------

    def _read_identity(self, model, edit=None):
        count = len(model.layers)

        def body(m):
            read = []
            for i in range(count):
                b = m.layers[i]
                n = b.attention_norm_output
                if edit is not None and i == 0:
                    edit(b)
                read.append(
                    (n, b.self_attn.attention_output, b.layer_mid, b.mlp_norm_output, b.mlp.mlp_output, b.layer_output)
                )
            return read

        return run(model, body)

    def test_contribution_identity(self, model):
        for index, (n, attention, mid, m, mlp, out) in enumerate(self._read_identity(model)):
            first, second = rates(model.layers[index])
            assert torch.equal(n + first * (attention - n), mid), (
                f"block {index}: attention_norm_output + lambda_1' * (attention_output - it) is not layer_mid"
            )
            assert torch.equal(m + second * (mlp - m), out), (
                f"block {index}: mlp_norm_output + lambda_2' * (mlp_output - it) is not layer_output"
            )
            assert torch.allclose(out.norm(dim=-1), torch.ones(out.shape[:-1]), atol=0.5), "the stream left the sphere"

    def test_boundary_writes_land(self, model, clean):
        # Every stream between blocks enters an L2 norm, which undoes a scaled layer_output: write noise instead.
        assert_noise_writes_move_the_logits(model, clean, 0)

        def landed(m):
            out = m.layers[0].layer_output * 2
            m.layers[0].layer_output = out
            return out, m.layers[0].output

        written, received = run(model, landed)
        assert torch.equal(written, received), "the block did not return the assigned layer_output"

        def zero_attention(block):
            block.self_attn.attention_output[:] = 0

        n, attention, mid, _, _, _ = self._read_identity(model, zero_attention)[0]
        first, _ = rates(model.layers[0])
        assert float(attention.detach().abs().max()) == 0.0
        assert torch.equal(n - first * n, mid), "a zeroed attention_output is not what the stream moved towards"
