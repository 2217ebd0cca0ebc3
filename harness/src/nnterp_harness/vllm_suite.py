"""`VLLMSuite`: a vLLM family against the transformers engine, on one tiny checkpoint.

A vLLM family's test file subclasses `VLLMSuite`, names the pinned tiny checkpoint
entry it starts from and the family module, and states its quirks::

    from nnterp_harness.vllm_suite import VLLMSuite
    from nnterp_vllm.families import qwen2

    class TestVLLMQwen2(VLLMSuite):
        CHECKPOINT = "qwen2"
        FAMILY = qwen2

vLLM's CPU attention takes heads at least 32 wide and the pinned checkpoints' heads
are 16 wide, so the suite builds the entry again with `RESIZE` over its overrides
(same seed, same recipe, the heads widened) into a temporary folder, once per class.
Both engines load that copy in float32: `hf`, a `StandardizedTransformer` with eager
attention, and `engine`, a `StandardizedVLLM` (in-process, one per class).

What it asserts, each a statement that can fail:

- the family resolves under `nnterp_vllm.families`, and `support()` marks exactly
  `UNAVAILABLE` unavailable, each read raising `Unavailable` with its reason;
- every value the engine serves has the transformers value's shape and agrees with
  it within `TOLERANCE[name]` of the transformers value's largest magnitude (the
  logits at the last position; the scores on the unmasked entries);
- the contribution identity ``layer_input + attention_output + mlp_output ==
  layer_output`` on every block;
- the same edit (an assignment, an in-place edit, `steer`) moves the logits the same
  way on both engines, and a write of another shape fails the request with the
  shape error while the engine carries on;
- the pattern is unavailable on a decode step and read-only, `order()` is refused,
  the logit lens of the last block is the logits, and a greedy generation over
  steps serves ``[1, tokens, ...]`` then ``[1, 1, ...]`` and the transformers engine's tokens.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", "auto")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import nnsight  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from nnterp import StandardizedTransformer  # noqa: E402
from nnterp.components.names import not_available  # noqa: E402

PROMPT = "The Eiffel Tower is in"

#: Config keys that widen a pinned checkpoint's heads to 32 for vLLM's CPU attention.
WIDE_HEADS: dict[str, Any] = {"hidden_size": 128, "head_dim": 32, "intermediate_size": 128}

#: The unavailable values of every family on this engine.
ALWAYS_UNAVAILABLE = frozenset({"attention_mask", "lm_head_output"})

#: The values a mixture in vLLM's fused MoE kernel lacks, over `ALWAYS_UNAVAILABLE`: no neuron, no routing, no slot.
FUSED_MOE_UNAVAILABLE = ALWAYS_UNAVAILABLE | {
    "mlp.mlp_activation",
    "mlp.mlp_neurons",
    "mlp.expert_weights",
    "mlp.expert_indices",
    "mlp.expert_outputs",
}

#: The largest difference allowed between the engines, as a share of the transformers
#: value's largest magnitude. Float32 on both sides; the attention kernels sum in
#: different orders, so the values after the attention carry a little more.
DEFAULT_TOLERANCE: dict[str, float] = {
    "token_embeddings": 0.0,
    "input_ids": 0.0,
    "layer_input": 1e-5,
    "attention_norm_output": 1e-5,
    "self_attn.attention_queries": 1e-5,
    "self_attn.attention_keys": 1e-5,
    "self_attn.attention_values": 1e-5,
    "self_attn.attention_scores": 1e-5,
    "self_attn.attention_probabilities": 1e-5,
    "self_attn.attention_head_outputs": 1e-5,
    "self_attn.attention_premix": 1e-5,
    "self_attn.attention_output": 1e-5,
    "layer_mid": 1e-5,
    "mlp_norm_output": 1e-5,
    "mlp_input": 1e-5,
    "mlp.mlp_activation": 1e-5,
    "mlp.mlp_neurons": 1e-5,
    "mlp.mlp_output": 1e-5,
    "mlp.router_logits": 1e-5,
    "mlp.expert_weights": 1e-5,
    "mlp.expert_indices": 0.0,
    "mlp.routed_output": 1e-5,
    "mlp.shared_expert_output": 1e-5,
    "layer_output": 1e-5,
    "final_norm_output": 1e-5,
    "logits": 1e-5,
    "next_token_probs": 1e-5,
}

#: Root values compared between the engines (the rest of the root is asserted elsewhere).
ROOT_VALUES = ("input_ids", "token_embeddings", "final_norm_output", "logits", "next_token_probs")


def engine_kwargs() -> dict[str, Any]:
    """The engine's arguments: float32, short sequences, a small KV cache."""
    return {
        "dispatch": True,
        "dtype": "float32",
        "max_model_len": 128,
        "max_num_seqs": 4,
        "seed": 0,
        "kv_cache_memory_bytes": 64 * 2**20,
    }


def resized_checkpoint(name: str, resize: dict[str, Any], root: Any) -> str:
    """Build tiny checkpoint entry `name` with `resize` over its overrides into `root`; the path."""
    from .checkpoints import ENTRIES, build_entry

    entry = ENTRIES[name]
    wide = dataclasses.replace(entry, name=f"{entry.name}_vllm", overrides={**entry.overrides, **resize})
    return str(build_entry(wide, root))


def shutdown(model: Any) -> None:
    """Stop the engine a class built, so the next class can build its own in this process."""
    entrypoint = getattr(model, "vllm_entrypoint", None)
    engine = getattr(entrypoint, "llm_engine", None)
    core = getattr(engine, "engine_core", None)
    if core is not None and hasattr(core, "shutdown"):
        core.shutdown()
    model.vllm_entrypoint = None


def host(envoy: Any, name: str) -> Any:
    """The envoy that carries dotted value `name` of `envoy`."""
    *parts, _ = name.split(".")
    for part in parts:
        envoy = getattr(envoy, part)
    return envoy


def gap(ours: torch.Tensor, theirs: torch.Tensor) -> float:
    """The largest difference, as a share of `theirs`'s largest magnitude."""
    ours, theirs = ours.detach().cpu().double(), theirs.detach().cpu().double()
    scale = theirs.abs().max().item() or 1.0
    return ((ours - theirs).abs().max() / scale).item()


class VLLMSuite:
    """The contract of a vLLM family on its tiny checkpoint, against the transformers engine."""

    #: The pinned tiny checkpoint entry the test copy is built from.
    CHECKPOINT: str = ""
    #: The vLLM family module the checkpoint's model type resolves to.
    FAMILY: Any = None
    #: Config keys set over the entry's overrides (heads at least 32 wide).
    RESIZE: dict[str, Any] = WIDE_HEADS
    #: Values unavailable on this family's engine, by `support()` name.
    UNAVAILABLE: frozenset[str] = ALWAYS_UNAVAILABLE | {"mlp.mlp_activation"}
    #: Per-value tolerances over `DEFAULT_TOLERANCE`.
    TOLERANCE: dict[str, float] = {}
    #: Keyword arguments for the transformers model's `from_pretrained` over the suite's own.
    HF_KWARGS: dict[str, Any] = {}
    #: Keyword arguments for `StandardizedVLLM` over `engine_kwargs()`.
    ENGINE_KWARGS: dict[str, Any] = {}

    # -- fixtures -------------------------------------------------------------------

    @pytest.fixture(scope="class")
    @classmethod
    def checkpoint(cls, tmp_path_factory: pytest.TempPathFactory) -> str:
        return resized_checkpoint(cls.CHECKPOINT, cls.RESIZE, tmp_path_factory.mktemp(cls.CHECKPOINT))

    @pytest.fixture(scope="class")
    @classmethod
    def engine(cls, checkpoint: str) -> Any:
        import gc

        from nnterp import StandardizedVLLM

        # vLLM collects garbage several times while it loads; with everything imported
        # so far frozen out of the collector, each pass is short.
        gc.freeze()
        model = StandardizedVLLM(checkpoint, **{**engine_kwargs(), **cls.ENGINE_KWARGS})
        yield model
        shutdown(model)

    @pytest.fixture(scope="class")
    @classmethod
    def hf(cls, checkpoint: str, engine: Any) -> StandardizedTransformer:
        from transformers import AutoModelForCausalLM
        from vllm.config import set_current_vllm_config

        kwargs = {"dtype": torch.float32, "attn_implementation": "eager", **cls.HF_KWARGS}
        # vLLM's transformers backend decorates the transformers model classes it
        # runs for its compiler; under the engine's config (eager) they build and
        # run as transformers' own.
        with set_current_vllm_config(engine.vllm_entrypoint.llm_engine.vllm_config):
            module = AutoModelForCausalLM.from_pretrained(checkpoint, **kwargs).eval()
        cls.align(module)
        return StandardizedTransformer(module)

    @classmethod
    def as_transformers(cls, engine: Any, name: str, value: torch.Tensor) -> torch.Tensor:
        """An engine value in the form the transformers engine computes it, where the two differ; says how."""
        return value

    @classmethod
    def align(cls, module: Any) -> None:
        """Make the transformers model compute what vLLM's implementation does, where the two differ; says how."""

    @pytest.fixture(scope="class")
    @classmethod
    def served(cls, engine: Any) -> list[str]:
        """The block values the engine serves, by `support()` name."""
        return [name for name, reason in engine.support(layer=0).items() if reason is None]

    def tolerance(self, name: str) -> float:
        return {**DEFAULT_TOLERANCE, **self.TOLERANCE}[name]

    # -- reading ----------------------------------------------------------------------

    @staticmethod
    def read_engine(engine: Any, name: str) -> list[torch.Tensor]:
        """Block value `name` of every block on the engine's prefill, one trace."""
        leaf = name.rsplit(".", 1)[-1]
        blocks = list(range(engine.num_layers))
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            values = nnsight.save([])
            for index in blocks:
                values.append(getattr(host(engine.layers[index], name), leaf))
        return list(values)

    @staticmethod
    def read_hf(hf: StandardizedTransformer, name: str) -> list[torch.Tensor]:
        leaf = name.rsplit(".", 1)[-1]
        values = []
        with torch.no_grad(), hf.trace(PROMPT):
            for index in range(hf.num_layers):
                values.append(getattr(host(hf.layers[index], name), leaf).save())
        return values

    # -- the family -------------------------------------------------------------------

    def test_the_family_resolves_on_vllm(self, engine: Any) -> None:
        from nnterp import families

        model_type = self.FAMILY.__name__.rsplit(".", 1)[-1]
        assert engine.family is self.FAMILY
        assert self.FAMILY.__name__ == f"nnterp_vllm.families.{model_type}"
        assert families.lookup(model_type, engine="vllm") is self.FAMILY
        assert model_type in families.known("vllm")

    def test_support_marks_exactly_the_unavailable_values(self, engine: Any) -> None:
        support = engine.support()
        missing = {name for name, reason in support.items() if reason}
        assert missing == set(self.UNAVAILABLE)

    def test_reading_an_unavailable_value_raises_its_reason(self, engine: Any) -> None:
        support = engine.support()
        # A value of a module the block lacks (OPT's `mlp.*`) has no host to read it on.
        readable = {
            name
            for name in self.UNAVAILABLE - {"attention_mask", "lm_head_output"}
            if "." not in name or hasattr(engine.layers[0], name.split(".", 1)[0])
        }
        name = sorted(readable or {"lm_head_output"})[0]
        reason = support[name] if isinstance(support[name], str) else next(iter(support[name].values()))
        where = engine if name in ("attention_mask", "lm_head_output") else host(engine.layers[0], name)
        leaf = name.rsplit(".", 1)[-1]
        with pytest.raises(RuntimeError) as error:
            with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
                getattr(where, leaf).save()
        first = str(error.value).splitlines()[0]
        assert first.startswith("Unavailable: ") and first.endswith(f"is not available: {reason}")

    # -- the same values on both engines ----------------------------------------------------

    def test_block_values_agree_with_transformers(
        self, engine: Any, hf: StandardizedTransformer, served: list[str]
    ) -> None:
        hf_support = hf.support(layer=0)
        problems = []
        for name in served:
            assert hf_support.get(name, "absent") is None, f"{name} is served on vLLM but not on transformers"
            ours, theirs = self.read_engine(engine, name), self.read_hf(hf, name)
            ours = [self.as_transformers(engine, name, value) for value in ours]
            for index, (mine, reference) in enumerate(zip(ours, theirs)):
                if tuple(mine.shape) != tuple(reference.shape):
                    problems.append(f"{name}[{index}]: shape {tuple(mine.shape)} vs {tuple(reference.shape)}")
                    continue
                if name.endswith("attention_scores"):
                    keep = reference > torch.finfo(reference.dtype).min / 2
                    assert torch.equal(keep, mine > torch.finfo(mine.dtype).min / 2), f"{name}[{index}]: masks differ"
                    mine, reference = mine[keep], reference[keep]
                found = gap(mine, reference)
                if found > self.tolerance(name):
                    problems.append(f"{name}[{index}]: {found:.2e} > {self.tolerance(name):.0e}")
        assert not problems, problems

    def test_root_values_agree_with_transformers(self, engine: Any, hf: StandardizedTransformer) -> None:
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            ids = engine.input_ids.save()
            size = engine.input_size.save()
            embeddings = engine.token_embeddings.save()
            final = engine.final_norm_output.save()
            logits = engine.logits.save()
            probs = engine.next_token_probs.save()
        with torch.no_grad(), hf.trace(PROMPT):
            hf_ids = hf.input_ids.save()
            # A copy at the read: a model may scale its embedding module's output in place later (CTRL).
            hf_embeddings = hf.token_embeddings.clone().save()
            hf_final = hf.final_norm_output.save()
            hf_logits = hf.logits[:, -1:].save()
            hf_probs = hf.next_token_probs.save()
        assert ids.tolist() == hf_ids.tolist()
        assert tuple(size) == tuple(hf_ids.shape)
        pairs = {
            "token_embeddings": (embeddings, hf_embeddings),
            "final_norm_output": (final, hf_final),
            "logits": (logits, hf_logits),
            "next_token_probs": (probs, hf_probs),
        }
        for name, (mine, reference) in pairs.items():
            assert tuple(mine.shape) == tuple(reference.shape), name
            assert gap(mine, reference) <= self.tolerance(name), (name, gap(mine, reference))

    def test_contributions_add_up_to_the_block_output(self, engine: Any, served: list[str]) -> None:
        if "mlp.mlp_output" not in served:
            pytest.skip("no mlp module on this family's blocks")
        blocks = list(range(engine.num_layers))
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            parts = nnsight.save([])
            for index in blocks:
                block = engine.layers[index]
                parts.append(
                    (block.layer_input, block.self_attn.attention_output, block.mlp.mlp_output, block.layer_output)
                )
        for index, (x, attn, mlp, out) in enumerate(parts):
            assert gap(x + attn + mlp, out) <= 1e-6, index

    # -- edits --------------------------------------------------------------------------

    def test_an_assignment_moves_the_logits_as_on_transformers(self, engine: Any, hf: StandardizedTransformer) -> None:
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            clean = engine.logits.save()
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            engine.layers[0].self_attn.attention_output = engine.layers[0].self_attn.attention_output * 0
            edited = engine.logits.save()
        with torch.no_grad(), hf.trace(PROMPT):
            hf.layers[0].self_attn.attention_output = hf.layers[0].self_attn.attention_output * 0
            hf_edited = hf.logits[:, -1:].save()
        assert gap(edited, clean) > 1e-3
        assert gap(edited, hf_edited) <= self.tolerance("logits")

    def test_an_in_place_edit_moves_the_logits_as_on_transformers(
        self, engine: Any, hf: StandardizedTransformer
    ) -> None:
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            clean = engine.logits.save()
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            engine.layers[0].layer_output[:, -1] *= 0.5
            edited = engine.logits.save()
        with torch.no_grad(), hf.trace(PROMPT):
            hf.layers[0].layer_output[:, -1] *= 0.5
            hf_edited = hf.logits[:, -1:].save()
        assert gap(edited, clean) > 1e-3
        assert gap(edited, hf_edited) <= self.tolerance("logits")

    def test_steer_moves_the_logits_as_on_transformers(self, engine: Any, hf: StandardizedTransformer) -> None:
        vector = torch.linspace(-1, 1, engine.hidden_size)
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            engine.steer(0, vector, factor=2.0)
            steered = engine.logits.save()
        with torch.no_grad(), hf.trace(PROMPT):
            hf.steer(0, vector, factor=2.0)
            hf_steered = hf.logits[:, -1:].save()
        assert gap(steered, hf_steered) <= self.tolerance("logits")

    def test_a_write_of_another_shape_fails_the_request_and_the_engine_carries_on(self, engine: Any) -> None:
        with pytest.raises(RuntimeError) as error:
            with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
                engine.layers[0].layer_output = engine.layers[0].layer_output[:, :-1]
        first = str(error.value).splitlines()[0]
        tokens = len(engine.tokenizer(PROMPT)["input_ids"])
        path = f"{engine.layers[0].path}.layer_output"
        assert first == (
            f"ValueError: {path} is (1, {tokens}, {engine.hidden_size}) on this request and cannot be replaced by a "
            f"value of shape (1, {tokens - 1}, {engine.hidden_size}); write into the rows you mean instead "
            "(``value[:, positions] = ...``)"
        )
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            logits = engine.logits.save()
        assert logits.shape == (1, 1, engine.vocab_size)

    # -- the pattern, the methods, generation -------------------------------------------------

    def test_the_pattern_is_read_only_and_not_on_a_decode_step(self, engine: Any) -> None:
        from nnterp_vllm.components import DECODE

        attn = engine.layers[0].self_attn
        with pytest.raises(RuntimeError) as error:
            with engine.trace(PROMPT, temperature=0.0, max_tokens=2, ignore_eos=True) as tracer:
                for _ in tracer.iter[1]:
                    attn.attention_probabilities.save()
        assert str(error.value).splitlines()[0] == (
            f"Unavailable: {not_available(attn, 'attention_probabilities', DECODE)}"
        )
        with pytest.raises(RuntimeError) as error:
            with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
                attn.attention_probabilities = attn.attention_probabilities * 0
        assert str(error.value).splitlines()[0] == "AttributeError: attention_probabilities is derived and read-only"

    def test_order_is_refused(self, engine: Any) -> None:
        with pytest.raises(
            NotImplementedError,
            match="^model.order is not supported on the vllm engine; it is measured on a StandardizedTransformer$",
        ):
            engine.order(0)

    def test_the_lens_of_the_last_block_is_the_logits(self, engine: Any) -> None:
        with engine.trace(PROMPT, temperature=0.0, max_tokens=1):
            lens = engine.project_on_vocab(engine.layers[-1].layer_output[:, -1:]).save()
            logits = engine.logits.save()
        assert lens.shape == logits.shape
        assert gap(lens, logits) <= 1e-5

    def test_generation_over_steps(self, engine: Any, hf: StandardizedTransformer) -> None:
        tokens = len(engine.tokenizer(PROMPT)["input_ids"])
        with engine.trace(PROMPT, temperature=0.0, max_tokens=3, ignore_eos=True) as tracer:
            shapes = nnsight.save([])
            for _ in tracer.iter[:3]:
                shapes.append((tuple(engine.layers[-1].layer_output.shape), tuple(engine.logits.shape)))
            result = tracer.result.save()
        hidden, vocab = engine.hidden_size, engine.vocab_size
        assert shapes == [((1, tokens, hidden), (1, 1, vocab))] + [((1, 1, hidden), (1, 1, vocab))] * 2
        ids = hf.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        with torch.no_grad():
            greedy = hf._module.generate(ids, max_new_tokens=3, do_sample=False, min_new_tokens=3)
        assert list(result.outputs[0].token_ids) == greedy[0, tokens:].tolist()
