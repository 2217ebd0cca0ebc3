"""X-MOD (`XmodForMaskedLM`, model type `xmod`): RoBERTa's post-LN encoder with a per-language adapter in each block.

`h = post_attention_layernorm(x + self_attn(x)); a = LN(h + mlp(h)); out = LN(a + adapter[lang](a))`

where `LN` is one module, the block's `mlp.ffn_output.LayerNorm`, run twice. An encoder
(`ENCODER`): it loads under `XmodForMaskedLM` by default, or bare (`XmodModel`,
`task="feature-extraction"`), and the same names serve both (the trunk sits under
`roberta` in the first and is the root in the second). A checkpoint saved as
`XmodForCausalLM` loads the same way. Every position attends to every other one;
padding is masked. The embeddings, the attention and the head are RoBERTa's
(`nnterp.families.roberta`): positions counted from `pad_token_id + 1`, and the head
(`lm_head`) a transform then the projection onto the vocabulary, so the logit lens is
`lm_head` alone on a stream, and the last `layer_output` through it is the logits.

Each block holds one small adapter per language (`mlp.ffn_output.adapter_modules`), and
a forward picks one per prompt by its `lang_ids`, one adapter index (the position of
the language in `config.languages`) per prompt: pass them as a trace keyword with the
prompt as token ids (`model.trace(ids, lang_ids=torch.tensor([1]))`), or let the model
take the config's `default_language`; transformers refuses a forward with neither.

The attention is regrouped as BERT's (`nnterp.components.bert_block`): `self_attn` is
the attention, its interior read at the attention interface, and
`post_attention_layernorm` its norm after the add. The block calls its feed-forward
output module itself, with the language ids, where BERT's calls `feed_forward_chunk`,
so the feed-forward path is regrouped here: `mlp` holds `intermediate` and `ffn_output`
(the down projection, its dropout, the add, the norm, the adapter and its add), the
block calls `mlp` in place of its output module, and `feed_forward_chunk` passes the
normed stream through to it. Every number is the model's own; the parameter names move
(`...layer.0.mlp.ffn_output.adapter_modules...`), so a model saved from an nnterp load no
longer loads in transformers.

On that block `mlp_output` is the MLP's own term, the down projection's dropout
entering the first add (`mlp.ffn_output.dropout`'s first call; its second is the
adapter's), and `layer_output` the block's output, the norm's second call. The post-LN
values hold where they hold on BERT (`layer_mid == layer_input + attention_output`, the
norm's first call reads `mlp_norm_output + mlp_output`), but `layer_output` is not the
norm of that sum: the adapter's add and the second norm come between, so the block's
identity is X-MOD's own chain (the norm of `mlp_norm_output + mlp_output`, plus the
adapter's term, normed again). The mlp container's output is the stream after the
adapter's add, before the second norm.

A config with `pre_norm` set (no released checkpoint) norms before each sublayer with
the same modules, which the names above do not describe: it is refused at load.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers.models.xmod.modeling_xmod import XmodAttention, XmodEncoder, XmodLayer, XmodModel

from nnterp.components import PostLNLayer
from nnterp.components.bert_block import BertAttention, BertMlp, BertStack, regroup_attention
from nnterp.families import UnsupportedFamily
from nnterp.families.roberta import ENCODER, RENAME, final_norm_output, project_on_vocab

__all__ = ["ENCODER", "RENAME", "final_norm_output", "project_on_vocab"]


class LanguageFeedForward(torch.nn.Module):
    """An X-MOD block's feed-forward path as one module: `intermediate`, then `ffn_output` with its adds and norm.

    It computes what the block computes from `feed_forward_chunk` to its call of the
    output module, with the same two modules and the same language ids.
    """

    def __init__(self, intermediate: torch.nn.Module, ffn_output: torch.nn.Module) -> None:
        super().__init__()
        self.intermediate = intermediate
        self.ffn_output = ffn_output

    def forward(self, hidden_states: torch.Tensor, residual: torch.Tensor, lang_ids: torch.Tensor) -> torch.Tensor:
        return self.ffn_output(self.intermediate(hidden_states), residual, lang_ids)


class _OutputThroughMlp:
    """What a regrouped block reaches as `self.output`: a call goes through `mlp`, an attribute is `ffn_output`'s."""

    def __init__(self, mlp: LanguageFeedForward) -> None:
        self._mlp = mlp

    def __call__(self, hidden_states: torch.Tensor, residual: torch.Tensor, lang_ids: torch.Tensor) -> torch.Tensor:
        return self._mlp(hidden_states, residual, lang_ids)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mlp.ffn_output, name)


def _passes_through(attention_output: torch.Tensor) -> torch.Tensor:
    """The block's `feed_forward_chunk` once regrouped: `mlp` runs `intermediate` itself."""
    return attention_output


def _regroup_block(block: torch.nn.Module) -> None:
    """Move the attention's `output` to `self_output`, and `intermediate` and the block's `output` under `mlp`.

    Idempotent: a block already regrouped is left as it is.
    """
    regroup_attention(block.attention)
    if "mlp" in block._modules:
        return
    intermediate = block._modules.pop("intermediate")
    mlp = LanguageFeedForward(intermediate, block._modules.pop("output"))
    block.mlp = mlp
    # The forward reaches both by their old names; the instance dict answers before torch's registry.
    object.__setattr__(block, "intermediate", intermediate)
    object.__setattr__(block, "output", _OutputThroughMlp(mlp))
    object.__setattr__(block, "feed_forward_chunk", _passes_through)


def _regroup(trunk: Any) -> None:
    """Refuse a pre-norm stack, then regroup every block under `trunk` (the model, or its encoder)."""
    stack = trunk if "layer" in trunk._modules else trunk.encoder
    if getattr(stack, "is_pre_norm", False):
        raise UnsupportedFamily(
            "this X-MOD norms before each sublayer (pre_norm=True), with the modules a post-LN X-MOD norms after "
            "them: post_attention_layernorm and the block's output norm would name norms that do not follow the "
            "adds, so nnterp does not serve it. Load a post-LN X-MOD (pre_norm=False, as every released one), "
            "or this one with nnsight's LanguageModel under its native names."
        )
    for block in stack.layer:
        _regroup_block(block)


class Stack(BertStack):
    """X-MOD's trunk and encoder envoy: refuses a pre-norm stack, regroups every block before mirroring."""

    regroup = staticmethod(_regroup)


ENVOYS = {
    XmodModel: Stack,
    XmodEncoder: Stack,
    XmodLayer: PostLNLayer,
    XmodAttention: BertAttention,
    LanguageFeedForward: BertMlp,
}
