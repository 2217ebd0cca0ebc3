"""`Entry`, the declaration of one tiny checkpoint, and the settings entries share.

An entry is data (a mapping in ``data/entries.yaml``) or, where it needs code, an
`Entry` in the `ENTRIES` tuple of a module under `nnterp_harness.entries`; the
registry (`nnterp_harness.entries.collect`) gathers both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .tokenizer import VOCAB_SIZE, special_token_ids

# Random init std for every family: large enough that attention scores vary
# visibly between positions at hidden size 64.
INIT_STD = 0.15
MAX_POSITIONS = 256
# GPT-2's learned position table is the one that would push it past 1 MB.
GPT2_POSITIONS = 128

#: Settings every entry gets before its own overrides.
COMMON: dict[str, Any] = {"vocab_size": VOCAB_SIZE, **special_token_ids()}

#: The shape most tiny text models share (width 64, four heads, tied embeddings): a data entry's overrides start
#: from it (less the keys its `without` names), and a module's entry spreads it where it fits.
TEXT_DEFAULTS: dict[str, Any] = {
    "hidden_size": 64,
    "num_attention_heads": 4,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

#: Llama's block with grouped-query attention, shared by the Llama-shaped entries.
GROUPED_LLAMA_SHAPE: dict[str, Any] = {
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

#: DeepSeek's latent attention, shrunk (as many key/value heads as query heads, a query latent), with the
#: settings the latent-attention mixture entries share.
LATENT_ATTENTION_SHAPE: dict[str, Any] = {
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "q_lora_rank": 32,
    "kv_lora_rank": 32,
    "qk_rope_head_dim": 8,
    "qk_nope_head_dim": 16,
    "v_head_dim": 16,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "tie_word_embeddings": True,
}

#: A grouped top-k mixture after one dense block: 2 experts per token from the best 2 of 4 groups, renormalized,
#: then scaled (the expert counts are spelled per family and stay in each entry).
GROUPED_TOP_K_SHAPE: dict[str, Any] = {
    "num_experts_per_tok": 2,
    "n_group": 4,
    "topk_group": 2,
    "norm_topk_prob": True,
    "routed_scaling_factor": 2.5,
    "num_hidden_layers": 2,
    "mlp_layer_types": ["dense", "sparse"],
}


def redraw_by_name(model: Any, legacy: dict[str, str] | None = None) -> None:
    """Draw every parameter again, by sorted name, from one generator: the same weights on every release.

    For an `Entry.prepare` where releases build or initialise the modules in another
    order, which shifts the shared random stream. A norm weight is drawn near one,
    everything else at `INIT_STD`. `legacy` maps a name's ending to the one an older
    release uses, so that both sort alike.
    """
    import torch

    generator = torch.Generator().manual_seed(0)
    params = {}
    for name, param in model.named_parameters():
        for new, old in (legacy or {}).items():
            if name.endswith(new):
                name = name[: -len(new)] + old
        params[name] = param
    for name in sorted(params):
        param = params[name]
        # Drawn in float32 whatever the parameter's dtype: a release that keeps some modules in float32
        # under a float64 build must not change how much of the stream a draw takes.
        noise = torch.randn(param.shape, generator=generator, dtype=torch.float32)
        param.copy_(1 + 0.1 * noise if name.endswith("norm.weight") else INIT_STD * noise)


@dataclass(frozen=True)
class Entry:
    """One tiny checkpoint.

    - `name`: the directory under ``tiny_checkpoints/`` (a model type with ``-``
      written ``_``, as the family module's file name spells it).
    - `model_type`: the transformers model type, as transformers spells it.
    - `overrides`: config keys set over the family's defaults and `COMMON`.
    - `configure`: called on the built config before the model is made, for what
      keyword overrides cannot express (sub-configs, a model type the config class
      does not stamp).
    - `prepare`: called on the initialised model (after the constant parameters are
      perturbed), for weights the random init leaves degenerate.
    - `auto_class`: the transformers auto class that builds the model.
    - `processor`: for a wrapper, called with the shared tokenizer and the built
      config; returns the processor saved beside the model in the tokenizer's place.
    - `cannot_run`: called on a release that has the type; why its transformers code
      cannot run this checkpoint's forward (the error it raises), or `None`.
    - `unserved`: called on a release that has the type and runs its forward; why the
      family cannot serve its values there (its suite file skips with this reason, and
      the coverage record leaves the release out), or `None`.
    - `probe_inputs`: for a model whose forward refuses text alone (Kosmos-2 asks for an
      image), called with the checkpoint's path and the probe prompt; returns the
      keyword inputs of the checkpoint checks' forward in place of the prompt's ids.
    - `init_in_float64`: initialise in float64 and round to float32. An init that runs
      transcendental functions or a factorisation (Mamba's `A_log` and `dt_proj.bias`,
      RWKV's orthogonal matrices) rounds its last float32 bit differently on other CPUs
      and math libraries; computed in float64, the rounding to float32 is the same on
      every machine, so the checkpoint rebuilds bit for bit wherever it is built. The
      float32 transcendental functions an init calls explicitly (Mamba's) run in float64
      too (`checkpoints.Float32TranscendentalsInFloat64`).
    """

    name: str
    model_type: str
    overrides: dict[str, Any] = field(default_factory=dict)
    tokenizer: str = "bpe"
    configure: Callable[[Any], None] | None = None
    prepare: Callable[[Any], None] | None = None
    auto_class: str = "AutoModelForCausalLM"
    processor: Callable[[Any, Any], Any] | None = None
    cannot_run: Callable[[], str | None] | None = None
    unserved: Callable[[], str | None] | None = None
    probe_inputs: Callable[[Any, str], dict[str, Any]] | None = None
    init_in_float64: bool = False
