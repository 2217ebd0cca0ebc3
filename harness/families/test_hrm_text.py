"""HRM-Text, end to end: a one-block low stack and a one-block high stack, run in two high cycles of one low cycle.

`layers` is the low stack's block then the high stack's; a forward calls them low, high, low,
high. The suite's statements about the count of blocks, the stream between blocks and the
head take their HRM-Text form here: the config counts cache slots, each stack's first block
reads the sum of the two states (each stack's output through its own norm), a block's values
are its first run and its later runs are nnsight's later occurrences.
"""

from contextlib import contextmanager

import torch

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.looped import assert_noise_writes_move_the_logits, runs
from nnterp_harness.release import family
from nnterp_harness.suite import PROMPT, FamilySuite, first_tensor, moved, perturbed, rows, run, with_config

FAMILY = family("hrm_text")

LOW, HIGH = 0, 1


def stack_norms(model):
    """The low and the high stack's `final_norm` modules, which make each stack's output the new state."""
    body = model._module.model
    return body.L_module.final_norm, body.H_module.final_norm


def both_blocks(m):
    low, high = m.layers[LOW], m.layers[HIGH]
    return low.layer_input, low.layer_output, high.layer_input, high.layer_output


@contextmanager
def counting_blocks(model):
    """The config with `num_hidden_layers` holding the block count and no cache, for a suite check that reads the
    block count there; the cache is off because its slots are what the config's own count sizes."""
    config = model.config
    slots, cached = config.num_hidden_layers, config.use_cache
    config.num_hidden_layers, config.use_cache = len(model.layers), False
    try:
        yield
    finally:
        config.num_hidden_layers, config.use_cache = slots, cached


class TestHrmText(FamilySuite):
    CHECKPOINT = "hrm_text"
    FAMILY = FAMILY
    NATIVE = rows("model", "layers", "embed_tokens", "H_module.final_norm")
    # A sigmoid gate of the normed input scales the heads before o_proj.
    PREMIX_IS_HEAD_OUTPUTS = False

    def test_the_checkpoint_runs_each_block_twice(self, model):
        config = model.config
        assert (config.num_layers_per_stack, config.H_cycles, config.L_cycles) == (1, 2, 1)
        body = model._module.model
        assert [block._module for block in model.layers] == [*body.L_module.layers, *body.H_module.layers]
        assert "layers" not in body.L_module._modules and "layers" not in body.H_module._modules

    # -- the block count -------------------------------------------------------------------

    def test_every_layer_is_renamed(self, model):
        config = model.config
        assert len(model.layers) == 2 * config.num_layers_per_stack
        assert config.num_hidden_layers == config.num_layers_per_stack * config.H_cycles * (config.L_cycles + 1)
        with counting_blocks(model):
            super().test_every_layer_is_renamed(model)

    def test_sizes_match_the_model(self, model):
        assert model.num_layers == 2 * model.config.num_layers_per_stack
        with counting_blocks(model):
            super().test_sizes_match_the_model(model)

    # -- the stream between blocks ---------------------------------------------------------

    def test_layer_input_is_the_block_input(self, model):
        """Each run of a stack's first block reads the sum of the two states, as the forward builds them."""
        scale = model.config.embedding_scale
        embedded = run(model, lambda m: m.embed_tokens.output) * scale
        raw = run(model, lambda m: (m.layers[LOW].input, m.layers[HIGH].input))
        (x_low, y_low, x_high, y_high), (x_low2, y_low2, x_high2, y_high2) = runs(model, both_blocks, 2)
        head = run(model, lambda m: m.final_norm_output)
        assert torch.equal(raw[0], x_low) and torch.equal(raw[1], x_high), "layer_input is not the block's input"
        low_norm, high_norm = stack_norms(model)
        with torch.no_grad():
            start = model._module.model.z_L_init.expand_as(embedded)
            assert torch.equal(x_low, start + embedded), "the low stack does not start from z_L_init + embeddings"
            low, high = low_norm(y_low), high_norm(y_high)
            assert torch.equal(x_high, embedded + low), "the high stack does not read embeddings + the low state"
            assert torch.equal(x_low2, low + high), "the second low run does not read the two new states"
            assert torch.equal(x_high2, high + low_norm(y_low2)), "the second high run does not read the two states"
            assert torch.equal(head, high_norm(y_high2)), "the head does not read the last high state"
        assert not torch.equal(y_low, y_low2) and not torch.equal(y_high, y_high2)

    def test_low_cycles_run_before_each_high_run(self, tmp_path_factory):
        """With two low cycles per high cycle, the low block runs twice on the same high state, then the high block."""
        source = locate.checkpoint_path(self.CHECKPOINT)
        target = with_config(
            source, tmp_path_factory.mktemp("hrm_text_two_low_cycles"), L_cycles=2, num_hidden_layers=6
        )
        model = StandardizedTransformer(str(target), dispatch=True, attn_implementation="eager")
        embedded = run(model, lambda m: m.embed_tokens.output) * model.config.embedding_scale
        low = runs(model, lambda m: (m.layers[LOW].layer_input, m.layers[LOW].layer_output), 4)
        high = runs(model, lambda m: (m.layers[HIGH].layer_input, m.layers[HIGH].layer_output), 2)
        low_norm, high_norm = stack_norms(model)
        with torch.no_grad():
            start = model._module.model.z_L_init.expand_as(embedded)
            states = [low_norm(y) for _, y in low]
            first_high = high_norm(high[0][1])
            expected_low = [start + embedded, states[0] + embedded, states[1] + first_high, states[2] + first_high]
            for run_index, ((x, _), expected) in enumerate(zip(low, expected_low)):
                assert torch.equal(x, expected), f"low run {run_index} does not read its low and high states"
            assert torch.equal(high[0][0], embedded + states[1]), "high run 0 does not follow low run 1"
            assert torch.equal(high[1][0], first_high + states[3]), "high run 1 does not follow low run 3"

    def test_a_later_run_is_the_block_again_on_its_input(self, model):
        """Run 1 of the low block is the block recomputed on run 1's input, with no cache."""
        second = runs(model, lambda m: (m.layers[LOW].inputs, m.layers[LOW].layer_output), 2)[1]
        (args, kwargs), out = second
        with torch.no_grad():
            # The cache goes by `cache` or `past_key_values` depending on the release; the recomputation runs without.
            uncached = {key: value for key, value in kwargs.items() if key not in ("cache", "past_key_values")}
            again = model.layers[LOW]._module(*args, **uncached)
        assert torch.equal(again, out), "run 1's output is not the block recomputed on its input"

    def test_reads_pinned_to_a_run_are_that_run(self, model):
        outputs = runs(model, lambda m: m.layers[HIGH].layer_output, 2)
        assert torch.equal(outputs[0], run(model, lambda m: m.layers[HIGH].layer_output)), (
            "the unpinned read is not the first run"
        )
        assert not torch.equal(outputs[0], outputs[1]), "the two runs of the high block read the same output"

    def test_under_generate_a_step_holds_every_run(self, model, clean):
        """Occurrences count runs across steps: step 1's runs of a block follow step 0's."""
        cycles, n = model.config.H_cycles, clean["input_ids"].shape[1]
        box = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[0 : 2 * cycles]:
                box.append(model.layers[HIGH].layer_output)
        assert [value.shape[1] for value in box] == [n] * cycles + [1] * cycles

    def test_attention_interior_under_generate(self, model, clean):
        """The decode step's first run of the low block is occurrence `H_cycles * L_cycles`; it reads the cache."""
        step = model.config.H_cycles * model.config.L_cycles
        n = self.n_tokens(clean)
        found = {}
        for name in ("attention_probabilities", "attention_queries", "attention_keys"):
            box = []
            with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
                for _ in tracer.iter[step : step + 1]:
                    box.append(getattr(model.layers[LOW].self_attn, name))
            assert len(box) == 1, f"{name} was not read on the decode step"
            found[name] = box[0]
        pattern, queries, keys = found["attention_probabilities"], found["attention_queries"], found["attention_keys"]
        assert tuple(pattern.shape) == (1, model.num_heads, 1, n + 1), f"decode pattern: {tuple(pattern.shape)}"
        sums = pattern.float().sum(-1)
        assert torch.allclose(sums, torch.ones_like(sums), atol=1e-3)
        assert queries.shape[2] == 1 and keys.shape[2] == n + 1

    def test_renamed_model_equals_raw_model(self, model, raw_model):
        def standard(m):
            return [m.input_ids] + [first_tensor(m.layers[i].output) for i in (LOW, HIGH)] + [m.logits]

        def raw(m):
            found = [m.inputs[1]["input_ids"]]
            for stack in (m.model.L_module, m.model.H_module):
                found.append(first_tensor(stack.layers[0].output))
            return found + [m.output.logits]

        ours, theirs = run(model, standard), run(raw_model, raw)
        for index, (a, b) in enumerate(zip(ours, theirs)):
            assert torch.equal(a, b), f"read {index} differs from the raw model's"
        later = runs(model, lambda m: m.layers[HIGH].layer_output, 2)[1]
        later_raw = runs(raw_model, lambda m: first_tensor(m.model.H_module.layers[0].output), 2)[1]
        assert torch.equal(later, later_raw), "the high block's second run differs from the raw model's"

    # -- writes and skips ------------------------------------------------------------------

    def test_boundary_writes_land(self, model, clean):
        # Each stack's output enters an RMS norm, which undoes a scaled layer_output: the writes add noise.
        assert_noise_writes_move_the_logits(model, clean, LOW)
        embedded = run(model, lambda m: m.embed_tokens.output) * model.config.embedding_scale

        def landed(m):
            out = perturbed(m.layers[LOW].layer_output)
            m.layers[LOW].layer_output = out
            return out, m.layers[HIGH].layer_input

        written, received = run(model, landed)
        low_norm, _ = stack_norms(model)
        with torch.no_grad():
            assert torch.equal(received, embedded + low_norm(written)), "the high block did not read the write"

        def zeroed(m):
            b = m.layers[LOW]
            x = b.layer_input
            b.self_attn.attention_output[:] = 0
            return x, b.self_attn.attention_output, b.mlp.mlp_output, b.layer_output

        x, attention, mlp, out = run(model, zeroed)
        assert float(attention.detach().abs().max()) == 0.0
        assert torch.equal(x + attention + mlp, out), "a zeroed attention_output did not drop out of the output"

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        """Skipping both blocks' first runs hands the low block's input to the high stack's norm."""

        def body(m):
            entering = m.layers[LOW].layer_input
            m.skip_layers(LOW, HIGH)
            return entering, m.layers[HIGH].layer_output, m.norm.input

        entering, high, normed = run(model, body)
        assert torch.equal(high, entering), "the skipped blocks did not hand the stream on"
        assert torch.equal(normed, entering), "the high stack's norm did not receive the stream"

    def test_skip_layers_with_a_given_stream(self, model, clean):
        zeros = torch.zeros(1, self.n_tokens(clean), model.hidden_size)
        embedded = run(model, lambda m: m.embed_tokens.output) * model.config.embedding_scale

        def body(m):
            m.skip_layers(LOW, LOW, skip_with=zeros)
            return m.layers[HIGH].layer_input, m.logits

        received, logits = run(model, body)
        # The low state is the norm of zeros, zero, so the high block reads the embeddings alone.
        assert torch.equal(received, embedded), "the high block did not read embeddings + norm(skip_with)"
        assert moved(logits, clean["logits"])

    def test_project_on_vocab_is_the_logit_lens(self, model):
        """The logit lens of the last block's last run is the logits; of its first run, not."""
        first, last = runs(model, lambda m: m.layers[-1].layer_output, model.config.H_cycles)
        logits = run(model, lambda m: m.logits)
        assert torch.equal(model.project_on_vocab(last), logits), "project_on_vocab(last run) is not logits"
        assert moved(model.project_on_vocab(first), logits)
