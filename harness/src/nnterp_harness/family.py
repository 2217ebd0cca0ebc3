"""`FamilyContract`: the core contract every family's checkpoint is held to.

`nnterp_harness.suite.FamilySuite` is this class plus the contract checks its
family's envoys and its declarations choose (`nnterp_harness.contracts`); a family's
test file subclasses `FamilySuite`, never this.

Two class-scoped fixtures load the checkpoint once per class: `model`, a
`StandardizedTransformer` (`dispatch=True`, `attn_implementation="eager"`, then
`LOAD_KWARGS`), and `raw_model`, the same checkpoint as a plain nnsight
`TransformersModel`. Every test is a statement about the standardized model that can
fail; none is timed.

nnsight rules the tests keep: reads in one trace follow the forward, and families
bind the interior values at different points, so the interior and layout tests read
one value per trace (one value on several blocks in ascending block order is in
forward order). Containers that a trace fills are created before the trace.

A value listed in `EXPECTED_UNAVAILABLE` is skipped by every test that would read
it, and its reason is asserted instead. A module no block has (OPT's `mlp`) keeps
its keys in `support()`, each reading `no <module> module on this block: ...` on
every block, and the tests that read it skip it.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import nnsight  # noqa: F401  - before any transformers modeling module
import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer, Unavailable, axis_size
from nnterp.components import EProperty, Standard
from nnterp.components.standard import NOWHERE
from nnterp.components.vision import tower_rows

from . import locate
from .helpers import (
    ATTENTION_INTERIOR,
    NNTERP_ONLY_KWARGS,
    OTHER_PROMPT,
    PROMPT,
    ROUTED_EXPERTS,
    child_names,
    first_tensor,
    host_of,
    hosts,
    is_attention,
    lacking_child,
    model_dtype,
    moved,
    on_no_block,
    perturbed,
    root_values,
    run,
    scale_of,
    split_key,
    ulp_close,
)
from .mixture import MixtureChecks
from .recurrent import RecurrentChecks


class FamilyContract:
    """The core contract every family's checkpoint is held to; `FamilySuite` is this plus its chosen checks.

    Class attributes (a family's file sets the first three and its quirks):

    - `CHECKPOINT`: the pinned tiny checkpoint's name under ``tiny_checkpoints/``.
    - `FAMILY`: the family module the checkpoint must resolve to.
    - `NATIVE`: standard path -> native path, relative to the root (`rows()` builds it).
    - `KIND_UNAVAILABLE`: the root values every model of the kind lacks (an encoder's
      `next_token_probs`), merged under `EXPECTED_UNAVAILABLE` on every subclass. A
      decoder's `support()` does not list an encoder's mask values at all.
    - `EXPECTED_UNAVAILABLE`: `support()` key -> a substring of its reason, for the
      values this checkpoint lacks; every other key must report `None`. A module no
      block has is reported on every block and is not listed here.
    - `REFUSES_IN_PLACE_QKV`: the queries are views out of one `split`, and torch
      refuses an in-place edit of them (a `RuntimeError` mentioning ``view``).
    - `REFUSES_IN_PLACE`: other interior values torch refuses to edit in place for
      the same reason (latent attention's values, a `split` of the decompressed latent).
    - `ATTENTION_NORM`, `MLP_NORM`: the block's own module whose output enters the
      attention / the MLP; `None` when no norm does (the block input enters the
      attention, the stream after the attention add, or the block input on a
      parallel block, enters the MLP).
    - `MLP_NORM_BEFORE_ATTENTION`: the MLP's norm runs before the attention (a
      parallel block with two norms).
    - `ATTENTION_SINK`: the pattern's rows sum below one (a sink column was dropped);
      a family then overrides `pattern_from_scores`.
    - `KV_HEADS_EXPANDED`: the keys and values are served already repeated to
      `num_heads`, so their head axis is `num_heads` wide.
    - `QUERY_GATED`: the query projection is twice as wide (queries and a gate).
    - `MLP_WIDTH_KEY`: the config key holding the MLP width, when it is not
      ``intermediate_size`` (a key whose value is `None` is not checked).
    - `EMBEDDING_WIDTH_KEY`: the config key holding the token table's width, where the
      table is narrower than the stream and projected onto it (ALBERT's factorized
      `embedding_size`); `None` where the table is `hidden_size` wide.
    - `HEAD_SIDE_PATH`: the output projection also reads vectors that no softmax head
      makes, after the heads' (ConvBERT's span-based convolution heads), so zeroed
      `attention_head_outputs` reach it as zeros beside those.
    - `LOAD_KWARGS`: extra load arguments for both fixtures.
    - `MOE_UNAVAILABLE`: mixture value name (``"shared_expert_output"``) -> a
      substring of its reason, for the mixture values the mixture lacks.
    - `ROUTER_EXTRA_CLASSES`: `Standard` envoy classes a mixture may hold beneath
      it besides itself (a router envoy).
    - `VOCAB_PROJECTION`: the root's module that projects onto the vocabulary, where it
      is not `lm_head` (ModernBERT decoder's `decoder`, after its native `lm_head`), a
      dotted path where it sits inside the head (BERT's `lm_head.predictions.decoder`).
    - `KEEPS_CACHE`: the model keeps a cache, so a decode step runs the new token only
      (`False` on GPT-1, whose every step runs the whole sequence again).
    - `DECODE_MASK_COVERS_CACHE`: a decode step's `attention_mask` is as long as the
      cache plus the new token (`False` on a pure state-space model).
    - `MID_IDENTITY`: `layer_mid == layer_input + attention_output` (`False` on a
      block that gates the stream before the add).
    - `PREMIX_IS_HEAD_OUTPUTS`: `attention_premix` equals `attention_head_outputs`
      (`False` where a norm sits between the heads and the output projection).
    - `NEURONS_FROM_ACTIVATION`: `mlp_neurons` follows from `mlp_activation`: it is
      `mlp_activation` itself on a plain MLP, and `mlp_activation * up_proj.output`
      on a gated MLP with an `up_proj` module (Llama). `False` where the neurons
      cannot be rebuilt from the modules' outputs (a fused `gate_up_proj`); the
      neurons are then held to `down_proj.input` only.
    - `PLAIN_UP_PROJ`: the MLP's `up_proj` is a plain MLP's up projection, with no gate
      beside it (MPT), so the neurons are `mlp_activation` itself.
    - `CAUSAL`: a position attends to itself and earlier positions only (`False` on
      CPM-Ant, whose forward lets every position attend to every other).
    - `KEY_PREFIX`: positions the key axis holds ahead of the user's tokens (CPM-Ant's
      prompt segment), on the keys, the values, the scores and the pattern.
    - `PAIRED`: the model's modules return `(tensor, scaling factor)` pairs from their
      forward and their call (I-BERT's quantizable modules; its attention returns
      `((output, ...), (scale, ...))`), so the checks that meet a module's own output or
      call compare the pair's tensor (`unpair`, which `native` applies) with the value;
      on every other family they compare the output itself.
    - `STANDARD_EMBEDDINGS`: the token table's output is in the standard layout while
      the blocks hold the stream in another one, so `native` maps what is read at a
      block's boundaries but not `embed_tokens.output` (SqueezeBERT's stack permutes
      the stream to channels-first after the embedding; XLNet's embeds ids already
      transposed, so its table's output is mapped like its blocks').
    """

    CHECKPOINT: str | None = None
    FAMILY: Any = None
    NATIVE: dict[str, str] = {}
    EXPECTED_UNAVAILABLE: dict[str, str] = {}
    #: The root values a model of this kind lacks whatever its family (`EncoderChecks`: an encoder's next token),
    #: merged under `EXPECTED_UNAVAILABLE` on every suite class.
    KIND_UNAVAILABLE: dict[str, str] = {}
    REFUSES_IN_PLACE_QKV = False
    REFUSES_IN_PLACE: tuple[str, ...] = ()
    ATTENTION_NORM: str | None = "input_layernorm"
    MLP_NORM: str | None = "post_attention_layernorm"
    MLP_NORM_BEFORE_ATTENTION = False
    ATTENTION_SINK = False
    KV_HEADS_EXPANDED = False
    QUERY_GATED = False
    MLP_WIDTH_KEY: str | None = None
    EMBEDDING_WIDTH_KEY: str | None = None
    HEAD_SIDE_PATH = False
    LOAD_KWARGS: dict[str, Any] = {}
    MOE_UNAVAILABLE: dict[str, str] = {}
    ROUTER_EXTRA_CLASSES: tuple[type, ...] = ()
    DECODE_MASK_COVERS_CACHE = True
    KEEPS_CACHE = True
    VOCAB_PROJECTION = "lm_head"
    MID_IDENTITY = True
    PREMIX_IS_HEAD_OUTPUTS = True
    NEURONS_FROM_ACTIVATION = True
    PLAIN_UP_PROJ = False
    CAUSAL = True
    KEY_PREFIX = 0
    PAIRED = False
    STANDARD_EMBEDDINGS = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # What the class itself declares, or what its nearest base declared: the merged dict a base holds
        # carries that base's kind, which is not this class's when a check class changes the kind.
        # The nearest class that states the attribute: a suite class (its own declaration is kept as `_DECLARED`,
        # beside the merge) or a check class mixed in (`ParallelChecks`), whose statement is the declaration.
        owner = next((klass for klass in cls.__mro__ if "EXPECTED_UNAVAILABLE" in vars(klass)), None)
        if owner is None or owner is cls:
            declared = cls.__dict__.get("EXPECTED_UNAVAILABLE", {})
        else:
            declared = vars(owner).get("_DECLARED", vars(owner)["EXPECTED_UNAVAILABLE"])
        cls._DECLARED = dict(declared)
        cls.EXPECTED_UNAVAILABLE = {**cls.KIND_UNAVAILABLE, **declared}

    # -- fixtures and hooks ------------------------------------------------------------

    @classmethod
    def checkpoint_dir(cls, tmp_path_factory: pytest.TempPathFactory) -> Path:
        """The directory both fixtures load; override to load a rewritten copy (`with_config`)."""
        if not cls.CHECKPOINT:
            raise ValueError(f"{cls.__name__} sets no CHECKPOINT")
        return locate.checkpoint_path(cls.CHECKPOINT)

    @pytest.fixture(scope="class")
    @classmethod
    def checkpoint(cls, tmp_path_factory: pytest.TempPathFactory) -> Path:
        return cls.checkpoint_dir(tmp_path_factory)

    @pytest.fixture(scope="class")
    @classmethod
    def model(cls, checkpoint: Path) -> Any:
        kwargs = {"dispatch": True, "attn_implementation": "eager", **cls.LOAD_KWARGS}
        return StandardizedTransformer(str(checkpoint), **kwargs)

    @pytest.fixture(scope="class")
    @classmethod
    def raw_model(cls, checkpoint: Path) -> Any:
        from transformers import AutoProcessor, AutoTokenizer

        kwargs = {"dispatch": True, "attn_implementation": "eager", "task": "text-generation", **cls.LOAD_KWARGS}
        for own in NNTERP_ONLY_KWARGS:  # arguments only StandardizedTransformer takes
            kwargs.pop(own, None)
        # nnsight cannot guess the tokenizer of a local checkpoint offline.
        if kwargs["task"] == "image-text-to-text":
            if "processor" not in kwargs:  # a given processor spares loading one (a checkpoint's may not load whole)
                kwargs["processor"] = AutoProcessor.from_pretrained(str(checkpoint))
        else:
            kwargs.setdefault("tokenizer", AutoTokenizer.from_pretrained(str(checkpoint)))
        return nnsight.TransformersModel(str(checkpoint), **kwargs)

    @pytest.fixture(scope="class")
    @classmethod
    def block_reads(cls, model: Any) -> dict[str, dict[int, torch.Tensor]]:
        """The clean prompt's block values by key, filled by `read_available` and shared by the tests that inspect them."""
        return {}

    @pytest.fixture(scope="class")
    @classmethod
    def clean(cls, model: Any) -> dict[str, torch.Tensor]:
        """One unedited run of `PROMPT`: its ids and logits."""

        def body(m):
            return {"input_ids": m.input_ids, "logits": m.logits}

        return run(model, body)

    def attention_feed(self, model: Any, normed: torch.Tensor) -> torch.Tensor:
        """What the attention reads, given the normed stream; a family that scales it first (Falcon-H1) overrides it."""
        return normed

    def pattern_from_scores(self, scores: torch.Tensor) -> torch.Tensor:
        """The pattern the scores give; a family with a sink or another normalization overrides it."""
        return torch.softmax(scores.float(), dim=-1).to(scores.dtype)

    def unpair(self, value: Any) -> Any:
        """The tensor of a module's `(tensor, scaling factor)` pair where `PAIRED`; anything else as it is.

        On a `PAIRED` family a tensor passes through (an input is no pair), and a tuple
        must be a pair: an attention's `((output, ...), (scale, ...))` gives `output`.
        """
        if not self.PAIRED or not isinstance(value, tuple):
            return value
        assert len(value) == 2, f"PAIRED is set, and a module gave a {len(value)}-tuple, not a (tensor, scale) pair"
        first, scale = value
        if isinstance(first, tuple):
            assert isinstance(scale, tuple) and len(first) == len(scale), "an attention's pair is (outputs, scales)"
            first = first[0]
        assert isinstance(first, torch.Tensor), f"PAIRED is set, and a pair holds a {type(first).__name__} first"
        return first

    def native(self, value: torch.Tensor) -> torch.Tensor:
        """A tensor read at a module boundary, in the standard layout; a family whose forward holds the stream in
        another layout (XLNet's sequence-first blocks) maps it here, the way its values do. A `PAIRED` family's
        pair gives its tensor (`unpair`)."""
        return self.unpair(value)

    def contribution_sources(self, block: Any) -> list[tuple[Any, str]]:
        """(host, value name) of what the block adds to the stream, in forward order.

        Default: the attention's (or the mixer's) `attention_output`, then the MLP's
        `mlp_output`, or the block's own `mlp_output` where it has no `mlp` module.
        """
        found = []
        children = child_names(block)
        for name in ("self_attn", "linear_attn"):
            if name in children:
                found.append((children[name], "attention_output"))
                break
        if "mlp" in children:
            found.append((children["mlp"], "mlp_output"))
        elif "mlp_output" in type(block).values():
            found.append((block, "mlp_output"))
        return found

    # -- helpers -----------------------------------------------------------------------

    def available(self, model: Any, key: str) -> bool:
        """Whether the value `key` reads on this checkpoint; an expected-unavailable one has its reason asserted."""
        expected = self.EXPECTED_UNAVAILABLE.get(key)
        if expected is None:
            return not on_no_block(model, key)
        entry = model.support().get(key)
        assert entry is not None, f"{key} is in EXPECTED_UNAVAILABLE, but support() reports it available"
        reasons = list(entry.values()) if isinstance(entry, dict) else [entry]
        for reason in reasons:
            assert expected in reason, f"{key}: expected a reason containing {expected!r}, got {reason!r}"
        return False

    def require(self, model: Any, *keys: str) -> None:
        """Skip the test when one of `keys` is expected unavailable (after asserting its reason)."""
        for key in keys:
            if not self.available(model, key):
                reason = self.EXPECTED_UNAVAILABLE.get(key) or f"no block has its {split_key(key)[0]} module"
                pytest.skip(f"{key} is unavailable on this checkpoint: {reason}")

    def blocks_with(self, model: Any, prefix: str) -> list[int]:
        """The blocks that carry the module with standard name `prefix` (every block for ``""``)."""
        return [i for i, block in enumerate(model.layers) if host_of(block, prefix) is not None]

    def attention_blocks(self, model: Any) -> list[int]:
        found = [i for i in self.blocks_with(model, "self_attn") if is_attention(model.layers[i].self_attn)]
        if not found:
            pytest.skip("no block has a softmax attention")
        return found

    def first_attention(self, model: Any) -> tuple[int, Any]:
        index = self.attention_blocks(model)[0]
        return index, model.layers[index].self_attn

    def regroups_tokens(self, model: Any) -> bool:
        """Whether a block runs a mixture of experts, whose expert matmuls take the rows the routing groups."""
        moe_class = getattr(nnterp.components, "Moe", None)
        blocks = [getattr(block, "mlp", None) for block in model.layers]
        return moe_class is not None and any(isinstance(mlp, moe_class) and mlp.no_mixture() is None for mlp in blocks)

    def mlp_blocks(self, model: Any) -> list[int]:
        found = self.blocks_with(model, "mlp")
        if not found:
            pytest.skip("no block has an mlp module")
        return found

    def read_on_blocks(self, model: Any, key: str, blocks: list[int], prompt: Any = PROMPT) -> list[torch.Tensor]:
        """One value on several blocks, in one trace, in ascending block order."""
        prefix, name = split_key(key)

        def body(m):
            return [getattr(host_of(m.layers[i], prefix), name) for i in blocks]

        return run(model, body, prompt)

    def read_one(self, model: Any, key: str, block: int, prompt: Any = PROMPT) -> torch.Tensor:
        return self.read_on_blocks(model, key, [block], prompt)[0]

    def read_available(
        self, model: Any, key: str, reads: dict[str, dict[int, torch.Tensor]]
    ) -> dict[int, torch.Tensor]:
        """`key` on every block `support()` says has it, by block: one trace of `PROMPT`, the first time it is asked.

        The tests that only inspect what a read returns (its type, its layout) share the
        one read through the class's `block_reads`, rather than tracing once each.
        """
        if key not in reads:
            blocks = self.available_blocks(model, key)
            reads[key] = dict(zip(blocks, self.read_on_blocks(model, key, blocks)))
        return reads[key]

    def block_keys(self, model: Any) -> list[str]:
        """Every block value's support key, in the order `support()` lists them."""
        root = set(root_values(model)) | set(tower_rows(model))
        return [key for key in model.support() if key not in root]

    def available_blocks(self, model: Any, key: str) -> list[int]:
        """The blocks on which `key` is available, by `support()`."""
        entry = model.support().get(key)
        count = len(model.layers)
        if entry is None:
            return list(range(count))
        return [i for i in range(count) if i not in entry]

    def source_key(self, block: Any, host: Any) -> str:
        """The support-key prefix of `host` on `block` (``""`` for the block itself)."""
        for prefix, envoy in hosts(block).items():
            if envoy is host:
                return prefix
        raise AssertionError(f"{host.path} carries no standard values on {block.path}")

    def expected_kv_heads(self, attn: Any) -> int:
        return axis_size(attn, "num_heads") if self.KV_HEADS_EXPANDED else axis_size(attn, "num_kv_heads")

    def final_norm(self) -> bool:
        """Whether the model has a final norm: `final_norm_output` is not expected unavailable (a post-LN model)."""
        return "final_norm_output" not in self.EXPECTED_UNAVAILABLE

    def vocab_projection(self, model: Any) -> Any:
        """The envoy of the module that projects onto the vocabulary (`VOCAB_PROJECTION`, dotted from the root)."""
        return functools.reduce(getattr, self.VOCAB_PROJECTION.split("."), model)

    def n_tokens(self, clean: dict) -> int:
        return clean["input_ids"].shape[1]

    # == names ==========================================================================

    def test_family_resolved(self, model):
        assert self.FAMILY is not None, f"{type(self).__name__} sets no FAMILY"
        assert model.family is self.FAMILY

    def test_standard_names_alias_native_envoys(self, model):
        assert self.NATIVE, f"{type(self).__name__} sets no NATIVE rows"
        for standard, native in self.NATIVE.items():
            via_standard = model.get(standard)
            via_native = model.get(native)
            assert via_standard is via_native, f"{standard} is not the envoy at {native}"
            assert via_standard.path == f"{model.path}.{native}", f"{standard} has path {via_standard.path}"

    def test_no_inner_model_alias(self, model):
        assert "model" not in model._aliases, "an alias is bound at model.model"
        inner = getattr(model, "model", None)
        if inner is not None:
            # Only the native inner module may answer at model.model, under its own path.
            assert model._module._modules.get("model") is inner._module
            assert inner.path == f"{model.path}.model"
        for name in ["embed_tokens", "layers", "lm_head"] + (["norm"] if self.final_norm() else []):
            envoy = getattr(model, name)
            assert envoy.path.startswith(f"{model.path}."), name
            assert name in model.__dict__, f"{name} is not bound on the root"

    def test_every_layer_is_renamed(self, model):
        native_layers = self.NATIVE["layers"]
        assert model.get("layers") is model.get(native_layers)
        assert len(model.layers) == model.config.get_text_config().num_hidden_layers
        block_rows = {
            standard[len("layers.0.") :]: native[len(f"{native_layers}.0.") :]
            for standard, native in self.NATIVE.items()
            if standard.startswith("layers.0.")
        }
        for index, block in enumerate(model.layers):
            assert block is model.get(f"{native_layers}.{index}")
            assert block.path == f"{model.path}.{native_layers}.{index}"
            for standard, native in block_rows.items():
                envoy = getattr(block, standard)
                assert envoy is block.get(native), f"layers.{index}.{standard} is not {native}"
                assert envoy.path == f"{block.path}.{native}"

    def _envoy_class(self, module: Any, standard: str) -> type | None:
        """The class the family's `ENVOYS` gives `module`: by type along its MRO, else by standard name."""
        envoys = self.FAMILY.ENVOYS
        for klass in type(module).__mro__:
            if klass in envoys:
                return envoys[klass]
        for key, cls in envoys.items():
            if isinstance(key, str) and (key == standard or (key.endswith(".*") and standard == "block")):
                return cls
        return None

    def test_envoy_classes(self, model):
        bases = {"self_attn": nnterp.Attention, "mlp": nnterp.Mlp}
        moe_class = getattr(nnterp.components, "Moe", None)
        for index, block in enumerate(model.layers):
            expected = self._envoy_class(block._module, "block")
            assert expected is not None, f"the family's ENVOYS has no class for {type(block._module).__name__}"
            assert type(block) is expected, f"block {index} is a {type(block).__name__}"
            # A family maps a module class straight to a component where the component holds as it is.
            assert issubclass(expected, nnterp.Layer), f"block {index} maps to {expected.__name__}, not a Layer"
            for name, child in child_names(block).items():
                expected = self._envoy_class(child._module, name)
                assert expected is not None, f"the family's ENVOYS has no class for {type(child._module).__name__}"
                assert type(child) is expected, f"layers.{index}.{name} is a {type(child).__name__}"
                base = bases.get(name, Standard)
                assert issubclass(expected, base), (
                    f"layers.{index}.{name} maps to {expected.__name__}, not a {base.__name__}"
                )
                if moe_class is not None and isinstance(child, moe_class):
                    for _, inner in child.modules(names=True):
                        if inner is not child and isinstance(inner, Standard):
                            assert isinstance(inner, tuple(self.ROUTER_EXTRA_CLASSES)), inner.path
            for name in ("self_attn", "mlp"):
                child = getattr(block, name, None)
                if child is not None:
                    assert isinstance(child, bases[name]), f"layers.{index}.{name} is a {type(child).__name__}"

    def test_mixture_blocks_run_the_mixture_contract(self, model):
        moe_class = getattr(nnterp.components, "Moe", None)
        mixtures = [
            i
            for i, block in enumerate(model.layers)
            if moe_class and isinstance(getattr(block, "mlp", None), moe_class)
        ]
        if mixtures:
            assert isinstance(self, MixtureChecks), (
                f"blocks {mixtures} hold a mixture, but {type(self).__name__} does not run `MixtureChecks`: "
                "its family's ENVOYS choose them (`nnterp_harness.contracts`)"
            )

    def test_mixer_blocks_run_the_recurrent_contract(self, model):
        mixer_class = getattr(nnterp.components, "RecurrentMixer", None)
        mixers = [
            i
            for i, block in enumerate(model.layers)
            if mixer_class and isinstance(getattr(block, "linear_attn", None), mixer_class)
        ]
        if mixers:
            assert isinstance(self, RecurrentChecks), (
                f"blocks {mixers} hold a recurrent mixer, but {type(self).__name__} does not run `RecurrentChecks`: "
                "its family's ENVOYS choose them (`nnterp_harness.contracts`)"
            )

    def test_trace_through_standard_names(self, model):
        def body(m):
            out = {"embed": self.unpair(m.embed_tokens.output)}
            block = m.layers[0]
            if getattr(block, "self_attn", None) is not None:
                out["attn"] = block.self_attn.output
            if getattr(block, "mlp", None) is not None:
                out["mlp"] = block.mlp.output
            out["last"] = m.layers[-1].output
            if self.final_norm():
                out["norm"] = m.norm.output
            out["head"] = self.vocab_projection(m).output
            return out

        out = run(model, body)
        # A module boundary in the standard layout (`native`): the stream's width is the last axis. A sublayer's
        # output may be a `PAIRED` family's pair; a block's is its own tuple.
        for name in ("attn", "mlp"):
            if name in out:
                out[name] = self.native(first_tensor(self.unpair(out[name])))
        out["last"] = self.native(first_tensor(out["last"]))
        hidden, vocab = model.hidden_size, model.vocab_size
        config = model.config.get_text_config()
        widths = {"embed": getattr(config, self.EMBEDDING_WIDTH_KEY) if self.EMBEDDING_WIDTH_KEY else hidden}
        for name in ("embed", "attn", "mlp", "last", "norm"):
            if name in out:
                assert out[name].shape[-1] == widths.get(name, hidden), f"{name}: {tuple(out[name].shape)}"
        assert out["head"].shape[-1] == vocab

    # == availability =====================================================================

    def test_support_lists_every_standard_value(self, model):
        support = model.support()
        expected = list(root_values(model)) + list(tower_rows(model))
        for block in model.layers:
            for prefix, host in hosts(block).items():
                for name in type(host).values():
                    key = f"{prefix}.{name}" if prefix else name
                    if key not in expected:
                        expected.append(key)
        # The base components' values are there on every family, under their standard names.
        for name in nnterp.Layer.values():
            assert name in support, name
        # So are the standard modules' values where no block has the module (OPT's `mlp`), with the reason.
        for prefix, base in (("self_attn", nnterp.Attention), ("mlp", nnterp.Mlp)):
            present = self.blocks_with(model, prefix)
            for name in base.values():
                key = f"{prefix}.{name}"
                if not present:
                    expected.append(key)
                    assert support[key] == {i: NOWHERE.format(prefix) for i in range(len(model.layers))}, key
                assert key in support, key
        assert sorted(support) == sorted(expected)
        for key in self.EXPECTED_UNAVAILABLE:
            assert key in support, f"EXPECTED_UNAVAILABLE names {key}, which support() does not list"

    def test_support_is_what_this_family_expects(self, model):
        support = model.support()
        count = len(model.layers)
        root = set(root_values(model))
        tower = set(tower_rows(model))  # a wrapper's tower rows: VisionSuite holds them
        for key, entry in support.items():
            if key in tower:
                continue
            expected = self.EXPECTED_UNAVAILABLE.get(key)
            if key not in root:
                # A block whose module is of a kind without this value (a dense MLP beside
                # mixtures) reports so, and the expectation holds on the other blocks.
                prefix, name = split_key(key)
                lacking = [
                    i
                    for i in (self.blocks_with(model, prefix) if prefix else [])
                    if name not in type(host_of(model.layers[i], prefix)).values()
                ]
                for index in lacking:
                    assert isinstance(entry, dict) and "has no" in entry.get(index, ""), f"{key} on block {index}"
                    del entry[index]
                # A hybrid's block without the module (a mixer block's `self_attn`) says so.
                absent = [i for i in range(count) if prefix and host_of(model.layers[i], prefix) is None]
                # A block value read at a child that this block of a hybrid lacks (Nemotron-H's MLP
                # block has no norm before an attention) says so too, where the family serves it elsewhere.
                lacks = [] if prefix or key in self.EXPECTED_UNAVAILABLE else lacking_child(entry, model.layers)
                for index in lacks:
                    del entry[index]
                for index in absent:
                    reason = entry.get(index, "") if isinstance(entry, dict) else ""
                    assert reason in (f"no {prefix} module on this block", NOWHERE.format(prefix)), (
                        f"{key} on block {index}: {reason!r}"
                    )
                    del entry[index]
                if (lacking or absent or lacks) and not entry:
                    entry = None
            if expected is None:
                assert entry is None, f"{key} is unavailable: {entry}"
                continue
            assert entry is not None, f"{key} is expected unavailable ({expected!r}) but support() says None"
            if key in root:
                assert isinstance(entry, str) and expected in entry, f"{key}: {entry!r}"
                continue
            prefix, name = split_key(key)
            blocks = self.blocks_with(model, prefix) if prefix else list(range(count))
            blocks = [
                i
                for i in blocks
                if name in type(host_of(model.layers[i], prefix) if prefix else model.layers[i]).values()
            ]
            if key in ROUTED_EXPERTS:  # the dense MLPs of a mixed schedule have their neurons
                moe_class = nnterp.components.Moe
                blocks = [i for i in blocks if isinstance(model.layers[i].mlp, moe_class)]
            assert isinstance(entry, dict), f"{key}: {entry!r}"
            for index in blocks:
                assert index in entry, f"{key} is available on block {index}"
                assert expected in entry[index], f"{key} on block {index}: {entry[index]!r}"

    def test_support_matches_what_reads(self, model):
        block = model.layers[0]
        block_hosts = hosts(block)
        checks = []
        for key, reason in model.support(layer=0).items():
            prefix, name = split_key(key)
            host = block_hosts.get(prefix)
            if host is None or name not in type(host).values():
                # A module this block lacks, or one of a kind without the value: the key stays, with why.
                assert reason is not None and (f"no {prefix} module on this block" in reason or "has no" in reason), key
                if host is None and getattr(block, prefix, None) is None:
                    with pytest.raises(AttributeError, match=re.escape(f"no {prefix} module on this block")):
                        getattr(block, prefix)
                continue
            checks.append((key, host, name, reason))
        for name, attr in root_values(model).items():
            checks.append((name, model, name, attr.reason(model)))
        for key, host, name, reason in checks:
            attr = type(host).values()[name] if host is not model else root_values(model)[name]
            assert isinstance(attr, EProperty), key
            assert attr.reason(host) == reason, key
            if reason is None:
                continue
            expected = self.EXPECTED_UNAVAILABLE.get(key, reason)
            assert expected in reason, f"{key}: {reason!r}"
            with pytest.raises(Unavailable, match=re.escape(expected)):
                with model.trace(PROMPT):
                    getattr(host, name)
            with pytest.raises(Unavailable, match=re.escape(expected)):
                getattr(host, name)

    def test_order_holds_on_every_load(self, model, checkpoint):
        """`order()` and `rank()` agree on a lazy load, a fresh dispatched load and a model that has traced."""
        kwargs = {"attn_implementation": "eager", **self.LOAD_KWARGS}
        lazy = StandardizedTransformer(str(checkpoint), **kwargs)
        fresh = StandardizedTransformer(str(checkpoint), dispatch=True, **kwargs)
        run(model, lambda m: m.logits)
        model._order_cache.clear()
        for index, block in enumerate(model.layers):
            served = {
                name
                for name, host, attr in nnterp.components.block_values(block)
                if attr.reason(host) is None and not isinstance(attr, nnterp.components.DerivedEProperty)
            }
            orders = {"lazy": lazy.order(index), "dispatched": fresh.order(index), "traced": model.order(index)}
            for load, order in orders.items():
                assert set(order) == served, f"block {index}, {load} load: {sorted(served ^ set(order))}"
                assert order == orders["traced"], f"block {index}: the {load} load orders differently"
            for name in served:
                assert lazy.rank(name, index) == fresh.rank(name, index) == model.rank(name, index), name

    # == boundaries ========================================================================

    def test_layer_output_is_the_tensor(self, model):
        count = len(model.layers)

        def body(m):
            return [(m.layers[i].output, m.layers[i].layer_output) for i in range(count)]

        for index, (raw, out) in enumerate(run(model, body)):
            assert isinstance(out, torch.Tensor), f"block {index}: layer_output is a {type(out).__name__}"
            packed = isinstance(raw, (tuple, list))
            assert torch.equal(self.native(raw[0] if packed else raw), out), f"block {index}"
            assert bool(type(model.layers[index]).returns_tuple) == packed, (
                f"block {index} returns a {type(raw).__name__}, but its Layer sets returns_tuple="
                f"{type(model.layers[index]).returns_tuple}"
            )

    def test_layer_input_is_the_block_input(self, model):
        count = len(model.layers)

        def body(m):
            found = []
            for i in range(count):
                block = m.layers[i]
                found.append((block.input, block.layer_input, block.layer_output))
            return found

        read = run(model, body)
        for index, (raw, value, _) in enumerate(read):
            assert isinstance(value, torch.Tensor)
            assert torch.equal(self.native(raw), value), f"block {index}: layer_input is not the block's input"
            assert value.shape[-1] == model.hidden_size
            if index:
                assert torch.equal(value, read[index - 1][2]), f"block {index} does not take block {index - 1}'s output"

    def test_every_value_reads_a_tensor_on_every_layer(self, model, block_reads):
        for key in self.block_keys(model):
            if not self.available(model, key):
                continue
            values = self.read_available(model, key, block_reads)
            assert values, f"{key} is available on no block"
            for index, value in values.items():
                assert isinstance(value, torch.Tensor), f"{key} on block {index} is a {type(value).__name__}"
                assert value.numel() > 0, f"{key} on block {index} is empty"

    def test_contribution_identity(self, model):
        count = len(model.layers)
        sources = [self.contribution_sources(block) for block in model.layers]
        for block, found in zip(model.layers, sources):
            assert found, f"{block.path} has no contribution to add"
            for host, name in found:
                prefix = self.source_key(block, host)
                self.require(model, f"{prefix}.{name}" if prefix else name)

        def body(m):
            read = []
            for i in range(count):
                block = m.layers[i]
                x = block.layer_input
                terms = [getattr(host, name) for host, name in sources[i]]
                read.append((x, terms, block.layer_output))
            return read

        for index, (x, terms, out) in enumerate(run(model, body)):
            total = x
            for term in terms:
                total = total + term
            atol = 8 * torch.finfo(out.dtype).eps * scale_of(out, x, *terms)
            gap = float((total - out).detach().abs().max())
            assert gap <= atol, f"block {index}: layer_input + contributions is {gap} from layer_output (8 ulp: {atol})"

    def test_sublayer_inputs_are_the_normed_stream(self, model):
        for index, block in enumerate(model.layers):
            attn = getattr(block, "self_attn", None)
            mlp = getattr(block, "mlp", None)

            def body(m, i=index, attn=attn is not None, mlp=mlp is not None):
                b = m.layers[i]
                got = {"input": b.input}
                if self.MLP_NORM_BEFORE_ATTENTION:
                    if attn and self.ATTENTION_NORM:
                        got["attn_norm"] = getattr(b, self.ATTENTION_NORM).output
                    if mlp and self.MLP_NORM:
                        got["mlp_norm"] = getattr(b, self.MLP_NORM).output
                    if attn:
                        got["attn_in"] = b.self_attn.input
                else:
                    if attn and self.ATTENTION_NORM:
                        got["attn_norm"] = getattr(b, self.ATTENTION_NORM).output
                    if attn:
                        got["attn_in"] = b.self_attn.input
                    if mlp and self.MLP_NORM:
                        got["mlp_norm"] = getattr(b, self.MLP_NORM).output
                if mlp:
                    got["mlp_in"] = b.mlp.input
                return got

            got = run(model, body)
            if attn is not None:
                feed = self.attention_feed(model, got["attn_norm"] if self.ATTENTION_NORM else got["input"])
                assert torch.equal(got["attn_in"], feed), (
                    f"block {index}: the attention does not read {self.ATTENTION_NORM or 'the block input'}"
                )
            if mlp is not None:
                if self.MLP_NORM:
                    feed = self.native(got["mlp_norm"])
                elif self.available(model, "layer_mid") and model.support(layer=index).get("layer_mid") is None:
                    feed = self.read_one(model, "layer_mid", index)
                else:
                    feed = self.native(got["input"])
                assert torch.equal(self.native(got["mlp_in"]), feed), (
                    f"block {index}: the MLP does not read {self.MLP_NORM or 'its stream'}"
                )

    def _write_moves_logits(self, model, clean, key: str, block: int) -> None:
        prefix, name = split_key(key)

        def body(m):
            host = host_of(m.layers[block], prefix)
            setattr(host, name, perturbed(getattr(host, name)))
            return m.logits

        assert moved(run(model, body), clean["logits"]), f"writing {key} on block {block} did not move the logits"

    def test_module_boundaries(self, model, clean):
        checked = 0
        blocks = sorted({0, len(model.layers) - 1})
        for index in blocks:
            block = model.layers[index]
            support = model.support(layer=index)
            has_attn = getattr(block, "self_attn", None) is not None
            has_mlp = getattr(block, "mlp", None) is not None
            if has_attn and self.ATTENTION_NORM and self.available(model, "attention_norm_output"):
                norm, value, attn_in = run(
                    model,
                    lambda m: (
                        getattr(m.layers[index], self.ATTENTION_NORM).output,
                        m.layers[index].attention_norm_output,
                        m.layers[index].self_attn.input,
                    ),
                )
                assert torch.equal(value, self.native(norm)), (
                    f"block {index}: attention_norm_output is not {self.ATTENTION_NORM}.output"
                )
                assert torch.equal(self.attention_feed(model, value), self.native(attn_in)), (
                    f"block {index}: attention_norm_output is not what the attention reads"
                )
                self._write_moves_logits(model, clean, "attention_norm_output", index)
                checked += 1
            if has_mlp and self.MLP_NORM and self.available(model, "mlp_norm_output"):
                norm, value, mlp_in, mlp_input = run(
                    model,
                    lambda m: (
                        getattr(m.layers[index], self.MLP_NORM).output,
                        m.layers[index].mlp_norm_output,
                        m.layers[index].mlp.input,
                        m.layers[index].mlp_input,
                    ),
                )
                norm, mlp_in = self.native(norm), self.native(mlp_in)
                assert torch.equal(value, norm), f"block {index}: mlp_norm_output is not {self.MLP_NORM}.output"
                assert torch.equal(value, mlp_in), f"block {index}: mlp_norm_output is not what the MLP reads"
                assert torch.equal(mlp_input, mlp_in), f"block {index}: mlp_input is not mlp.input"
                self._write_moves_logits(model, clean, "mlp_norm_output", index)
                checked += 1
            if has_attn and self.available(model, "layer_mid") and support.get("layer_mid") is None:
                x, attn_out, mid = run(
                    model,
                    lambda m: (
                        m.layers[index].layer_input,
                        m.layers[index].self_attn.attention_output,
                        m.layers[index].layer_mid,
                    ),
                )
                if mid.shape != x.shape:  # a layout that flattens the stream (OPT's FlatResidual)
                    assert mid.numel() == x.numel(), f"block {index}: layer_mid is {tuple(mid.shape)}"
                    mid = mid.reshape(x.shape)
                if self.MID_IDENTITY:
                    assert ulp_close(mid, x + attn_out), (
                        f"block {index}: layer_mid is not layer_input + attention_output"
                    )
                self._write_moves_logits(model, clean, "layer_mid", index)
                checked += 1
        assert checked, "no module boundary was checked"

    def test_sublayer_interiors(self, model, clean):
        checked = 0
        blocks = sorted({0, len(model.layers) - 1})
        for index in blocks:
            block = model.layers[index]
            support = model.support(layer=index)
            if getattr(block, "self_attn", None) is not None and self.available(model, "self_attn.attention_premix"):
                assert support.get("self_attn.attention_premix") is None, support.get("self_attn.attention_premix")
                attn = block.self_attn
                if getattr(attn, "o_proj", None) is not None:
                    premix, raw = run(
                        model,
                        lambda m: (m.layers[index].self_attn.attention_premix, m.layers[index].self_attn.o_proj.input),
                    )
                    raw = self.native(raw)
                    assert torch.equal(premix.flatten(-2), raw), f"block {index}: attention_premix is not o_proj.input"
                else:  # heads merged by a parameter, not a module (XLNet's einsum with `o`): held to the head outputs
                    premix = self.read_one(model, "self_attn.attention_premix", index)
                assert premix.dim() == 4 and premix.shape[2] == axis_size(attn, "num_heads")
                if self.PREMIX_IS_HEAD_OUTPUTS and self.available(model, "self_attn.attention_head_outputs"):
                    heads = self.read_one(model, "self_attn.attention_head_outputs", index)
                    assert torch.equal(premix, heads), f"block {index}: attention_premix is not the head outputs"
                self._write_moves_logits(model, clean, "self_attn.attention_premix", index)
                checked += 1
            mlp = getattr(block, "mlp", None)
            if mlp is None:
                continue
            activation = None
            if self.available(model, "mlp.mlp_activation") and support.get("mlp.mlp_activation") is None:
                if getattr(mlp, "act_fn", None) is not None:
                    activation, raw = run(
                        model, lambda m: (m.layers[index].mlp.mlp_activation, m.layers[index].mlp.act_fn.output)
                    )
                    assert torch.equal(activation, self.native(raw)), (
                        f"block {index}: mlp_activation is not act_fn.output"
                    )
                else:  # an activation function the forward calls, not a module: held to the neurons below
                    activation = self.read_one(model, "mlp.mlp_activation", index)
                assert activation.shape[-1] == mlp.intermediate_size
                self._write_moves_logits(model, clean, "mlp.mlp_activation", index)
                checked += 1
            if self.available(model, "mlp.mlp_neurons") and support.get("mlp.mlp_neurons") is None:
                neurons, raw = run(
                    model, lambda m: (m.layers[index].mlp.mlp_neurons, m.layers[index].mlp.down_proj.input)
                )
                assert torch.equal(neurons, self.native(raw)), f"block {index}: mlp_neurons is not down_proj.input"
                assert neurons.shape[-1] == mlp.intermediate_size
                if self.NEURONS_FROM_ACTIVATION and activation is not None:
                    if getattr(mlp, "up_proj", None) is not None and not self.PLAIN_UP_PROJ:
                        up = self.native(run(model, lambda m: m.layers[index].mlp.up_proj.output))
                        assert ulp_close(neurons, activation * up), f"block {index}: mlp_neurons is not act * up_proj"
                    else:
                        assert torch.equal(neurons, activation), f"block {index}: mlp_neurons is not mlp_activation"
                self._write_moves_logits(model, clean, "mlp.mlp_neurons", index)
                checked += 1
        assert checked, "no sublayer interior was checked"

    def test_renamed_model_equals_raw_model(self, model, raw_model):
        count = len(model.layers)
        native = self.NATIVE["layers"]

        def standard(m):
            return [m.input_ids] + [m.layers[i].layer_output for i in range(count)] + [m.logits]

        def raw(m):
            layers = m.get(native)
            return (
                [m.inputs[1]["input_ids"]]
                + [self.native(first_tensor(layers[i].output)) for i in range(count)]
                + [m.output.logits]
            )

        ours = run(model, standard)
        theirs = run(raw_model, raw)
        assert torch.equal(ours[0], theirs[0]), "the two models tokenized the prompt differently"
        for index, (a, b) in enumerate(zip(ours[1:-1], theirs[1:-1])):
            assert torch.equal(a, b), f"block {index}'s output differs from the raw model's"
        assert torch.equal(ours[-1], theirs[-1]), "the logits differ from the raw model's"

    def test_boundary_writes_land(self, model, clean):
        index = 0
        block = model.layers[index]
        sources = [(host, name, self.source_key(block, host)) for host, name in self.contribution_sources(block)]
        keys = [f"{prefix}.{name}" if prefix else name for _, name, prefix in sources] + ["layer_output"]
        for key in keys:
            if not self.available(model, key):
                continue
            prefix, name = split_key(key)

            def assign(m, prefix=prefix, name=name):
                host = host_of(m.layers[index], prefix)
                setattr(host, name, getattr(host, name) * 2)
                return m.logits

            def zero(m, prefix=prefix, name=name):
                getattr(host_of(m.layers[index], prefix), name)[:] = 0
                return m.logits

            assert moved(run(model, assign), clean["logits"]), f"assigning {key} did not move the logits"
            assert moved(run(model, zero), clean["logits"]), f"zeroing {key} in place did not move the logits"

        # Where the writes land: the next block receives an assigned layer_output,
        # and a contribution zeroed in place drops out of the block's output.
        if len(model.layers) > 1:

            def landed(m):
                out = m.layers[index].layer_output * 2
                m.layers[index].layer_output = out
                return out, m.layers[index + 1].layer_input

            written, received = run(model, landed)
            assert torch.equal(written, received), "the next block did not receive the assigned layer_output"
        if not all(self.available(model, f"{prefix}.{name}" if prefix else name) for _, name, prefix in sources):
            return
        for position, (_, _, _) in enumerate(sources):

            def zeroed(m, position=position):
                b = m.layers[index]
                x = b.layer_input
                terms = []
                for j, (host, name, _) in enumerate(sources):
                    value = getattr(host, name)
                    if j == position:
                        value[:] = 0
                    terms.append(value)
                return x, terms, b.layer_output

            x, terms, out = run(model, zeroed)
            total = x
            for term in terms:
                total = total + term
            assert float(terms[position].detach().abs().max()) == 0.0
            atol = 8 * torch.finfo(out.dtype).eps * scale_of(out, x, *terms)
            assert float((total - out).detach().abs().max()) <= atol, (
                f"a zeroed {sources[position][1]} did not drop out of block {index}'s output"
            )

    # == the pattern ========================================================================

    def test_probabilities_are_a_pattern(self, model, clean):
        self.require(model, "self_attn.attention_probabilities")
        blocks = self.attention_blocks(model)
        n = self.n_tokens(clean)
        dtype = model_dtype(model)
        for index, pattern in zip(blocks, self.read_on_blocks(model, "self_attn.attention_probabilities", blocks)):
            attn = model.layers[index].self_attn
            assert tuple(pattern.shape) == (1, axis_size(attn, "num_heads"), n, n + self.KEY_PREFIX), (
                f"block {index}: {tuple(pattern.shape)}"
            )
            assert pattern.dtype == dtype
            sums = pattern.float().sum(-1)
            tol = 16 * torch.finfo(dtype).eps * n
            if self.ATTENTION_SINK and attn.SINK:  # a family may have sinks on some blocks only
                assert bool((sums <= 1 + tol).all()), f"block {index}: a row sums above one"
                assert bool((sums < 1 - tol).any()), f"block {index}: no row lost mass to the sink"
            else:
                assert torch.allclose(sums, torch.ones_like(sums), atol=tol), f"block {index}: rows do not sum to one"
            assert bool((pattern >= 0).all())
            later = float(pattern.detach().triu(1 + self.KEY_PREFIX).abs().max())
            if self.CAUSAL:
                assert later == 0.0, f"block {index}: the pattern attends to later tokens"
            else:
                assert later > 0.0, f"block {index}: a bidirectional pattern attends to no later token"

    def test_attention_interior_under_generate(self, model, clean):
        self.require(
            model, "self_attn.attention_probabilities", "self_attn.attention_keys", "self_attn.attention_queries"
        )
        index, attn = self.first_attention(model)
        n = self.n_tokens(clean)
        found = {}
        for name in ("attention_probabilities", "attention_queries", "attention_keys"):
            box: list[Any] = []
            with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
                for _ in tracer.iter[1:2]:
                    box.append(getattr(model.layers[index].self_attn, name))
            assert len(box) == 1, f"{name} was not read on the decode step"
            found[name] = box[0]
        pattern, queries, keys = found["attention_probabilities"], found["attention_queries"], found["attention_keys"]
        heads = axis_size(attn, "num_heads")
        queried = 1 if self.KEEPS_CACHE else n + 1  # without a cache the step runs the whole sequence again
        keyed = n + 1 + self.KEY_PREFIX
        assert tuple(pattern.shape) == (1, heads, queried, keyed), f"decode pattern: {tuple(pattern.shape)}"
        sums = pattern.float().sum(-1)
        if not self.ATTENTION_SINK:
            assert torch.allclose(sums, torch.ones_like(sums), atol=1e-3)
        assert queries.shape[2] == queried, f"decode queries: {tuple(queries.shape)}"
        assert keys.shape[2] == pattern.shape[-1], "the keys are not as long as the pattern's key axis"

    def test_pattern_across_layers_and_traces(self, model):
        self.require(model, "self_attn.attention_probabilities")
        blocks = self.attention_blocks(model)
        first = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks)
        second = self.read_on_blocks(model, "self_attn.attention_probabilities", blocks)
        for index, a, b in zip(blocks, first, second):
            assert torch.equal(a, b), f"block {index}: two traces read two patterns"
        for (i, a), (j, b) in zip(zip(blocks, first), zip(blocks[1:], first[1:])):
            if a.shape == b.shape:
                assert not torch.equal(a, b), f"blocks {i} and {j} read the same pattern"

    def test_written_pattern_moves_the_logits(self, model, clean):
        self.require(model, "self_attn.attention_probabilities")
        index, attn = self.first_attention(model)

        def uniform(m):
            a = m.layers[index].self_attn
            pattern = a.attention_probabilities
            causal = torch.ones_like(pattern).tril()
            a.attention_probabilities = causal / causal.sum(-1, keepdim=True)
            return m.logits

        assert moved(run(model, uniform), clean["logits"]), "a written pattern did not move the logits"
        if self.available(model, "self_attn.attention_head_outputs"):

            def zero_head(m):
                m.layers[index].self_attn.attention_head_outputs[:, :, 0] = 0
                return m.logits

            assert moved(run(model, zero_head), clean["logits"]), "a zeroed head did not move the logits"

    def test_every_source_value_resolves_on_every_layer(self, model, block_reads):
        checked = 0
        for key in self.block_keys(model):
            prefix, name = split_key(key)
            blocks = self.available_blocks(model, key)
            if not blocks:
                continue
            host = host_of(model.layers[blocks[0]], prefix)
            attr = type(host).values()[name]
            if not attr.inside_forward() or not self.available(model, key):
                continue
            for index, value in self.read_available(model, key, block_reads).items():
                assert isinstance(value, torch.Tensor), f"{key} on block {index}"
            checked += 1
        if not checked:
            pytest.skip("no value on this checkpoint is read inside a forward")

    # == the interior ========================================================================

    def test_interior_shapes(self, model, clean):
        index, attn = self.first_attention(model)
        n = self.n_tokens(clean)
        heads, kv, qk, hd = (
            axis_size(attn, "num_heads"),
            self.expected_kv_heads(attn),
            axis_size(attn, "qk_head_dim"),
            axis_size(attn, "head_dim"),
        )
        shapes = {
            "attention_queries": (1, heads, n, qk),
            "attention_keys": (1, kv, n + self.KEY_PREFIX, qk),
            "attention_values": (1, kv, n + self.KEY_PREFIX, hd),
            "attention_scores": (1, heads, n, n + self.KEY_PREFIX),
            "attention_probabilities": (1, heads, n, n + self.KEY_PREFIX),
            "attention_head_outputs": (1, n, heads, hd),
        }
        read = {}
        for name, shape in shapes.items():
            key = f"self_attn.{name}"
            if not self.available(model, key):
                continue
            value = self.read_one(model, key, index)
            layout = type(attn).values()[name].layout
            assert tuple(value.shape) == shape, f"{name}: {tuple(value.shape)}, expected {shape}"
            assert isinstance(value, layout), f"{name} is not a {getattr(layout, '__name__', layout)}"
            read[name] = value
        if not read:
            pytest.skip("the attention interior is unavailable on this checkpoint")
        if "attention_scores" in read and "attention_probabilities" in read:
            from_scores = self.pattern_from_scores(read["attention_scores"])
            pattern = read["attention_probabilities"]
            atol = 16 * torch.finfo(pattern.dtype).eps
            assert torch.allclose(from_scores.float(), pattern.float(), atol=atol), "softmax(scores) is not the pattern"

    def test_interior_writes_are_causal(self, model, clean):
        index, attn = self.first_attention(model)
        checked = 0
        for name in ATTENTION_INTERIOR:
            key = f"self_attn.{name}"
            if name == "attention_probabilities" or not self.available(model, key):
                continue

            def zero(m, name=name):
                a = m.layers[index].self_attn
                setattr(a, name, getattr(a, name) * 0)
                return m.logits

            assert moved(run(model, zero), clean["logits"]), f"zeroing {name} did not move the logits"
            checked += 1
        if not checked:
            pytest.skip("the attention interior is unavailable on this checkpoint")

        if self.available(model, "self_attn.attention_head_outputs") and self.available(
            model, "self_attn.attention_output"
        ):

            def silent(m):
                a = m.layers[index].self_attn
                a.attention_head_outputs = a.attention_head_outputs * 0
                return a.o_proj.input if self.HEAD_SIDE_PATH else a.attention_output

            out = run(model, silent)
            if self.HEAD_SIDE_PATH:
                attn = model.layers[index].self_attn
                width = axis_size(attn, "num_heads") * axis_size(attn, "head_dim")
                assert float(out[..., :width].detach().abs().max()) == 0.0, "zeroed heads reached o_proj as non-zeros"
                assert float(out[..., width:].detach().abs().max()) > 0.0, "the side path is silent too"
            else:
                assert float((out - out[:, :1]).detach().abs().max()) == 0.0, (
                    "zeroed heads left a position-dependent contribution"
                )

        if self.available(model, "self_attn.attention_queries"):

            def last_query(m):
                a = m.layers[index].self_attn
                queries = a.attention_queries.clone()
                queries[:, :, -1] = 0
                a.attention_queries = queries
                return m.logits

            edited = run(model, last_query)
            if self.CAUSAL and self.regroups_tokens(model) and self.available(model, "self_attn.attention_output"):
                # The edit reroutes the last token in the mixtures after this block, which regroups the rows
                # each expert's matmul takes, and the earlier tokens' logits move by rounding. The attention's
                # own output is where causality is exact: its matmuls keep their shapes, one row per token.
                def attention_out(m, edit):
                    a = m.layers[index].self_attn
                    if edit:
                        queries = a.attention_queries.clone()
                        queries[:, :, -1] = 0
                        a.attention_queries = queries
                    return a.attention_output

                ours, theirs = (
                    run(model, lambda m: attention_out(m, True)),
                    run(model, lambda m: attention_out(m, False)),
                )
                assert torch.equal(ours[..., :-1, :], theirs[..., :-1, :]), (
                    "an edit of the last query moved an earlier position"
                )
                # Downstream, the regrouped expert matmuls round each earlier token differently, by a few float32
                # ulps per block (1.4e-6 measured on OLMoE, whose logits' scale is 5); 1e-5 of the scale bounds
                # that rounding and stays far below a leak of the edit, which moves a position by O(scale).
                assert torch.allclose(
                    edited[:, :-1], clean["logits"][:, :-1], rtol=0, atol=1e-5 * scale_of(clean["logits"])
                ), "an edit of the last query moved an earlier position's logits past rounding"
            elif self.CAUSAL:
                assert torch.allclose(
                    edited[:, :-1], clean["logits"][:, :-1], rtol=0, atol=1e-6 * scale_of(clean["logits"])
                ), "an edit of the last query moved an earlier position"
            else:  # the edited position's output reaches every position through the next block's attention
                assert moved(edited[:, :-1], clean["logits"][:, :-1]), (
                    "an edit of the last query moved no other position"
                )
            assert moved(edited[:, -1], clean["logits"][:, -1]), "an edit of the last query did not move its position"

    def test_interior_in_place_edits(self, model, clean):
        index, attn = self.first_attention(model)
        checked = 0
        for name in ("attention_queries", "attention_keys", "attention_values", "attention_head_outputs"):
            key = f"self_attn.{name}"
            if not self.available(model, key):
                continue

            def zero(m, name=name):
                getattr(m.layers[index].self_attn, name)[:] = 0
                return m.logits

            if (name == "attention_queries" and self.REFUSES_IN_PLACE_QKV) or name in self.REFUSES_IN_PLACE:
                with pytest.raises(RuntimeError, match="view"):
                    run(model, zero)
            else:
                assert moved(run(model, zero), clean["logits"]), f"an in-place edit of {name} did not land"
            checked += 1
        if self.available(model, "self_attn.attention_scores") and self.available(
            model, "self_attn.attention_probabilities"
        ):
            before = self.read_one(model, "self_attn.attention_probabilities", index)

            def boost(m):
                a = m.layers[index].self_attn
                a.attention_scores[:, :, :, 0] += 5.0
                return a.attention_probabilities

            after = run(model, boost)
            assert bool((after[:, :, 1:, 0] > before[:, :, 1:, 0]).all()), "an in-place add to the scores did not land"
            checked += 1
        if not checked:
            pytest.skip("the attention interior is unavailable on this checkpoint")

    # == methods =============================================================================

    def test_skip_layers_hands_the_stream_straight_through(self, model):
        last = len(model.layers) - 1
        if last < 1:
            pytest.skip("one block: nothing to skip to")

        def body(m):
            before = m.layers[0].layer_output
            m.skip_layers(1, last)
            return before, m.layers[last].layer_output, (m.norm if self.final_norm() else m.lm_head).input

        before, after, final = run(model, body)
        assert torch.equal(before, after), "the last block's output is not block 0's"
        # A final norm runs in the trunk's layout; a head reads what the trunk returns, in the standard one.
        final = self.native(final) if self.final_norm() else final
        assert torch.equal(before, final), "the final norm (the head, without one) did not receive block 0's stream"

    def test_skip_layers_with_a_given_stream(self, model, clean):
        if len(model.layers) < 2:
            pytest.skip("one block: no next block")
        zeros = torch.zeros(1, self.n_tokens(clean), model.hidden_size, dtype=model_dtype(model))

        def body(m):
            m.skip_layers(0, 0, skip_with=zeros)
            return m.layers[1].layer_input, m.logits

        received, logits = run(model, body)
        assert torch.equal(received, zeros), "block 1 did not receive skip_with"
        assert moved(logits, clean["logits"])

    def test_steer(self, model, clean):
        index = len(model.layers) // 2
        generator = torch.Generator().manual_seed(0)
        vector = torch.randn(model.hidden_size, generator=generator)
        before = self.read_one(model, "layer_output", index)

        def body(m):
            m.steer(index, vector, factor=2.0, token_positions=-1)
            return m.layers[index].layer_output, m.logits

        after, logits = run(model, body)
        delta = (after[:, -1] - before[:, -1]).float()
        assert torch.allclose(delta, 2 * vector, atol=8 * torch.finfo(after.dtype).eps * scale_of(after, before)), (
            "steer did not move the last position by 2 * vector"
        )
        assert torch.equal(after[:, :-1], before[:, :-1]), "steer moved a position it was not given"
        assert moved(logits, clean["logits"])

    def test_project_on_vocab_is_the_logit_lens(self, model):
        def body(m):
            last = m.layers[-1].layer_output
            lens = m.project_on_vocab(last)
            return last, lens, m.logits

        last, inside, logits = run(model, body)
        assert torch.equal(model.project_on_vocab(last), logits), "project_on_vocab(last layer_output) is not logits"
        assert torch.equal(inside, logits), "project_on_vocab inside the trace is not logits"

    # == layouts =============================================================================

    def test_values_match_their_annotations(self, model, block_reads):
        checked = 0
        for name, attr in root_values(model).items():
            layout = attr.layout
            if layout is None or not self.available(model, name):
                continue
            value = run(model, lambda m, name=name: getattr(m, name))
            self._check_layout(model, name, value, attr)
            checked += 1
        seen = set()
        for index, block in enumerate(model.layers):
            support = model.support(layer=index)
            for prefix, host in hosts(block).items():
                for name, attr in type(host).values().items():
                    key = f"{prefix}.{name}" if prefix else name
                    if attr.layout is None or (type(host), name) in seen:
                        continue
                    if not self.available(model, key) or support.get(key) is not None:
                        continue
                    seen.add((type(host), name))
                    value = self.read_available(model, key, block_reads)[index]
                    self._check_layout(host, f"layers.{index}.{key}", value, attr)
                    checked += 1
        assert checked, "no value with a layout was read"

    def _check_layout(self, host: Any, label: str, value: Any, attr: EProperty) -> None:
        layout = attr.layout
        assert isinstance(value, layout), (
            f"{label} ({value.dtype if hasattr(value, 'dtype') else type(value).__name__}, "
            f"{tuple(getattr(value, 'shape', ()))}) is not a {getattr(layout, '__name__', layout)}"
        )
        for axis, dim in enumerate(attr.dims):
            try:
                size = axis_size(host, dim)
            except ValueError:
                continue
            if dim == "num_kv_heads" and self.KV_HEADS_EXPANDED:
                size = axis_size(host, "num_heads")
            assert value.shape[axis] == size, f"{label}: axis {dim} is {value.shape[axis]}, the model says {size}"

    # == the input ===========================================================================

    def test_input_accessors(self, model):
        def body(m):
            return m.input_ids, torch.tensor(m.input_size), m.attention_mask

        ids, size, mask = run(model, body)
        expected = model.tokenizer(PROMPT, return_tensors="pt")["input_ids"]
        assert ids.dim() == 2 and ids.shape[0] == 1
        assert torch.equal(ids.cpu(), expected), "input_ids are not the prompt's tokens"
        assert tuple(size.tolist()) == tuple(ids.shape)
        assert tuple(mask.shape) == tuple(ids.shape)
        assert bool((mask == 1).all())

    def test_attention_mask_under_generate(self, model, clean):
        n = self.n_tokens(clean)
        box: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[1:2]:
                box.append((model.input_ids, model.attention_mask, model.logits))
        plain: list[Any] = []
        with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2) as tracer:
            for _ in tracer.iter[1:2]:
                plain.append(model.logits)
        assert len(box) == 1 and len(plain) == 1, "the decode step was not reached"
        ids, mask, logits = box[0]
        assert tuple(ids.shape) == (1, 1 if self.KEEPS_CACHE else n + 1), f"decode ids: {tuple(ids.shape)}"
        assert mask.dim() == 2 and mask.shape[0] == 1 and bool((mask == 1).all())
        if self.DECODE_MASK_COVERS_CACHE:
            assert mask.shape[1] == n + 1, (
                f"the decode step's mask is {tuple(mask.shape)}, the cache holds {n + 1} tokens"
            )
        assert torch.equal(logits, plain[0]), "reading the attention mask changed the decode step"

    def test_assigning_input_ids_runs_other_ids(self, model):
        other_ids, other_logits = run(model, lambda m: (m.input_ids, m.logits), OTHER_PROMPT)
        prompt_ids = run(model, lambda m: m.input_ids)
        assert not torch.equal(prompt_ids, other_ids) or prompt_ids.shape != other_ids.shape

        def body(m):
            m.input_ids = other_ids
            m.attention_mask = torch.ones_like(other_ids)
            return m.logits

        assert torch.equal(run(model, body), other_logits), "the model did not run the assigned ids"
        with pytest.raises(AttributeError, match="input_size"):
            with model.trace(PROMPT):
                model.input_size = torch.Size([1, 3])

    # == the root ============================================================================

    def test_logits_are_the_models_output(self, model, clean):
        logits, output = run(model, lambda m: (m.logits, m.output))
        assert torch.equal(logits, output.logits)
        assert tuple(logits.shape) == (1, self.n_tokens(clean), model.vocab_size)
        assert torch.equal(logits, clean["logits"])

    def test_assigning_logits_replaces_the_result(self, model):
        box: list[Any] = []
        with model.trace(PROMPT) as tracer:
            model.logits = torch.zeros_like(model.logits)
            box.append(tracer.result)
        result = box[0]
        assert result.logits.shape[-1] == model.vocab_size
        assert float(result.logits.detach().abs().max()) == 0.0, "tracer.result.logits is not what was assigned"

    def test_token_embeddings_are_the_embedding_output(self, model, clean):
        self.require(model, "token_embeddings")
        ids, value, raw = run(model, lambda m: (m.input_ids, m.token_embeddings, m.embed_tokens.output))
        raw = raw if self.STANDARD_EMBEDDINGS else self.native(raw)
        assert torch.equal(value, raw), "token_embeddings is not embed_tokens.output"
        assert tuple(value.shape) == (1, ids.shape[1], model.hidden_size)
        embedded = self.unpair(model.embed_tokens(ids))
        assert torch.equal(embedded, value), "token_embeddings is not the embedding of the ids"

        def body(m):
            m.token_embeddings = m.token_embeddings * 0
            return m.logits

        assert moved(run(model, body), clean["logits"]), "assigning token_embeddings did not move the logits"

    def test_next_token_probs(self, model, clean):
        logits, probs = run(model, lambda m: (m.logits, m.next_token_probs))
        assert tuple(probs.shape) == (1, model.vocab_size)
        assert torch.allclose(probs, logits[:, -1].softmax(-1))
        assert torch.allclose(probs.float().sum(-1), torch.ones(1), atol=1e-3)
        with pytest.raises(AttributeError, match="assign model.logits"):
            with model.trace(PROMPT):
                model.next_token_probs = torch.zeros(1, model.vocab_size)

    def test_sizes_match_the_model(self, model):
        config = model.config.get_text_config()
        assert model.num_layers == len(model.layers) == config.num_hidden_layers
        stream, logits = run(model, lambda m: (m.layers[0].layer_output, m.logits))
        assert stream.shape[-1] == model.hidden_size
        assert logits.shape[-1] == model.vocab_size
        head = self.vocab_projection(model)._module
        assert head.weight.shape[0] == model.vocab_size
        table = getattr(config, self.EMBEDDING_WIDTH_KEY) if self.EMBEDDING_WIDTH_KEY else model.hidden_size
        assert model.embed_tokens._module.weight.shape[-1] == table
        width = getattr(config, self.MLP_WIDTH_KEY or "intermediate_size", None)
        if width is not None:
            assert model.intermediate_size == width
        for name in (
            "hidden_size",
            "vocab_size",
            "num_heads",
            "num_kv_heads",
            "head_dim",
            "qk_head_dim",
            "intermediate_size",
        ):
            with pytest.raises(AttributeError):
                setattr(model, name, 5)
        blocks = [i for i in self.blocks_with(model, "self_attn") if is_attention(model.layers[i].self_attn)]
        if not blocks:
            return
        index = blocks[0]
        attn = model.layers[index].self_attn
        if self.available(model, "self_attn.attention_probabilities"):
            pattern = self.read_one(model, "self_attn.attention_probabilities", index)
            assert pattern.shape[1] == model.num_heads
        if self.available(model, "self_attn.attention_queries"):
            assert self.read_one(model, "self_attn.attention_queries", index).shape[-1] == model.qk_head_dim
        if self.available(model, "self_attn.attention_keys"):
            keys = self.read_one(model, "self_attn.attention_keys", index)
            assert keys.shape[1] == (model.num_heads if self.KV_HEADS_EXPANDED else model.num_kv_heads)
        if self.available(model, "self_attn.attention_values"):
            assert self.read_one(model, "self_attn.attention_values", index).shape[-1] == model.head_dim
        gate = 2 if self.QUERY_GATED else 1
        for proj, width in (
            ("q_proj", gate * model.num_heads * model.qk_head_dim),
            ("k_proj", model.num_kv_heads * model.qk_head_dim),
            ("v_proj", model.num_kv_heads * model.head_dim),
        ):
            module = getattr(attn._module, proj, None)
            if isinstance(module, torch.nn.Linear):
                assert module.out_features == width, f"{proj} is {module.out_features} wide, the sizes say {width}"
        o_proj = getattr(attn._module, "o_proj", None)
        if isinstance(o_proj, torch.nn.Linear):
            assert o_proj.in_features == model.num_heads * model.head_dim

    def test_per_module_sizes_match_each_block(self, model):
        blocks = [i for i in self.blocks_with(model, "self_attn") if is_attention(model.layers[i].self_attn)]
        checks = {
            "attention_queries": lambda a: {1: axis_size(a, "num_heads"), 3: axis_size(a, "qk_head_dim")},
            "attention_keys": lambda a: {1: self.expected_kv_heads(a), 3: axis_size(a, "qk_head_dim")},
            "attention_values": lambda a: {1: self.expected_kv_heads(a), 3: axis_size(a, "head_dim")},
            "attention_head_outputs": lambda a: {2: axis_size(a, "num_heads"), 3: axis_size(a, "head_dim")},
            "attention_premix": lambda a: {2: axis_size(a, "num_heads"), 3: axis_size(a, "head_dim")},
        }
        checked = 0
        for name, sizes in checks.items():
            key = f"self_attn.{name}"
            here = [i for i in blocks if i in self.available_blocks(model, key)]
            if not here or not self.available(model, key):
                continue
            for index, value in zip(here, self.read_on_blocks(model, key, here)):
                attn = model.layers[index].self_attn
                for axis, size in sizes(attn).items():
                    assert value.shape[axis] == size, (
                        f"block {index}: {name} axis {axis} is {value.shape[axis]}, the block says {size}"
                    )
            checked += 1
        moe_class = getattr(nnterp.components, "Moe", None)
        dense = [
            i
            for i in self.blocks_with(model, "mlp")
            if moe_class is None or not isinstance(model.layers[i].mlp, moe_class)
        ]
        dense = [i for i in dense if i in self.available_blocks(model, "mlp.mlp_neurons")]
        if dense and self.available(model, "mlp.mlp_neurons"):
            for index, value in zip(dense, self.read_on_blocks(model, "mlp.mlp_neurons", dense)):
                assert value.shape[-1] == model.layers[index].mlp.intermediate_size, f"block {index}: mlp width"
            checked += 1
        if not checked:
            pytest.skip("no per-module size can be read on this checkpoint")

    def test_repr_lists_the_values(self, model):
        block = model.layers[0]
        text = repr(block)
        for prefix, host in hosts(block).items():
            for name, attr in type(host).values().items():
                assert str(attr) in text, f"the repr of block 0 does not list {prefix + '.' if prefix else ''}{name}"
        for alias, native in block._aliases.items():
            if alias != native and isinstance(getattr(block, alias, None), Standard):
                # A direct child's line carries its alias; a module from deeper down gets a line of its own.
                label = f"({alias}): " if "." in native else f"({alias}/{native})"
                assert label in text, f"the repr does not show {alias}/{native}"
