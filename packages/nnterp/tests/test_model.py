"""The root: loading, the whole-model values and their write rules, support() in its three forms."""

import pytest
import torch

import nnterp
from nnterp import StandardizedTransformer

PROMPT = "The Eiffel Tower is in"
OTHER = "Paris is the capital of"


def test_construction_runs_nothing_and_answers_from_the_config(path):
    model = StandardizedTransformer(path("gpt2"))
    assert next(model._module.parameters()).device.type == "meta"
    assert model.config.model_type == "gpt2" and model.family.__name__ == "nnterp.families.gpt2"
    assert (model.num_layers, model.hidden_size, model.num_heads) == (
        model.config.n_layer,
        model.config.n_embd,
        model.config.n_head,
    )
    reason = model.support(layer=0)["self_attn.attention_probabilities"]
    assert (
        reason
        == "read inside the eager attention forward, but this model runs 'sdpa'; load with attn_implementation='eager'"
    )
    assert model.support()["self_attn.attention_output"] is None
    assert model.support()["self_attn.attention_premix"] is None
    with pytest.raises(
        nnterp.Unavailable,
        match=r"^layers\[0\]\.self_attn\.attention_probabilities \(on model\.transformer\.h\.0\.attn\) is not available: "
        r"read inside the eager",
    ):
        with model.trace(PROMPT):
            model.layers[0].self_attn.attention_probabilities.save()


def test_support_three_forms(gpt2):
    support = gpt2.support()
    assert support["layer_output"] is None and support["logits"] is None
    assert gpt2.support(layer=0)["self_attn.attention_scores"] is None
    assert gpt2.layers[0].mlp.support() == {"mlp_output": None, "mlp_activation": None, "mlp_neurons": None}
    assert all(reason is None for reason in support.values())
    assert "mask_token_probs" not in support, "an encoder's own values are no decoder's"


def test_support_dict_names_the_blocks_that_lack_a_value(path):
    model = StandardizedTransformer(path("gpt2"))
    entry = model.support()["self_attn.attention_probabilities"]
    assert sorted(entry) == list(range(model.num_layers))
    model.config.reorder_and_upcast_attn = True
    assert "reorder_and_upcast_attn" in model.support()["self_attn.attention_scores"][0]


def test_a_module_no_block_has_keeps_its_keys_with_the_reason(path):
    model = StandardizedTransformer(path("opt"))
    support = model.support()
    nowhere = "no mlp module on this block: no block of this model has one"
    for name in nnterp.Mlp.values():
        assert support[f"mlp.{name}"] == dict.fromkeys(range(model.num_layers), nowhere), name
        assert model.support(layer=0)[f"mlp.{name}"] == nowhere
    assert "FlatResidual" not in support  # keys are value names
    assert getattr(model.layers[0], "mlp", None) is None
    with pytest.raises(AttributeError, match=r"^layers\[0\]\.mlp: no mlp module on this block"):
        model.layers[0].mlp  # noqa: B018


def test_names_alias_the_native_envoys(gpt2):
    assert gpt2.layers[5 % gpt2.num_layers] is gpt2.transformer.h[5 % gpt2.num_layers]
    assert gpt2.layers[0].self_attn is gpt2.transformer.h[0].attn
    assert gpt2.layers[0].self_attn.path == "model.transformer.h.0.attn"
    assert gpt2.get("layers.0.self_attn").path == "model.transformer.h.0.attn"
    assert gpt2.layers[0].self_attn.o_proj is gpt2.transformer.h[0].attn.c_proj
    assert gpt2.layers[0].mlp.down_proj is gpt2.transformer.h[0].mlp.c_proj
    assert "(o_proj/c_proj)" in repr(gpt2.layers[0].self_attn)


def test_root_values_in_forward_order(gpt2):
    with gpt2.trace(PROMPT):
        ids = gpt2.input_ids.save()
        mask = gpt2.attention_mask.save()
        size = torch.tensor(gpt2.input_size).save()
        emb = gpt2.token_embeddings.save()
        pos = gpt2.transformer.wpe.output.save()
        first = gpt2.layers[0].layer_input.save()
        normed = gpt2.final_norm_output.save()
        head = gpt2.lm_head_output.save()
        logits = gpt2.logits.save()
        probs = gpt2.next_token_probs.save()
    n = len(gpt2.tokenizer(PROMPT)["input_ids"])
    assert ids.shape == (1, n) and torch.equal(mask, torch.ones_like(ids)) and size.tolist() == [1, n]
    assert emb.shape == (1, n, gpt2.hidden_size) and torch.equal(emb + pos, first) and not torch.equal(emb, first)
    assert torch.equal(head, logits) and normed.shape == emb.shape
    assert torch.allclose(probs, logits[:, -1].softmax(-1))


def test_write_rules_of_the_root(gpt2):
    with pytest.raises(
        AttributeError,
        match="next_token_probs is derived from the logits and cannot be assigned; assign model.logits instead",
    ):
        with gpt2.trace(PROMPT):
            gpt2.next_token_probs = torch.zeros(1)
    with pytest.raises(AttributeError, match="input_size"):
        with gpt2.trace(PROMPT):
            gpt2.input_size = torch.Size([1, 1])
    with gpt2.trace(PROMPT) as tracer:
        gpt2.logits = torch.zeros_like(gpt2.logits)
        result = tracer.result.save()
    assert torch.equal(result.logits, torch.zeros_like(result.logits))


def test_assigning_input_ids_runs_other_ids(gpt2):
    with gpt2.trace(OTHER):
        other_ids = gpt2.input_ids.save()
        other = gpt2.logits.save()
    with gpt2.trace(PROMPT):
        gpt2.input_ids = other_ids
        gpt2.attention_mask = torch.ones_like(other_ids)
        swapped = gpt2.logits.save()
    assert torch.equal(swapped, other)


def test_tokenizer_kwargs_set_the_padding(path):
    model = StandardizedTransformer(path("gpt2"), dispatch=True, tokenizer_kwargs={"padding_side": "right"})
    with model.trace(["Hello", PROMPT]):
        mask = model.attention_mask.save()
    assert mask[0, 0] == 1 and mask[0, -1] == 0
    left = StandardizedTransformer(path("gpt2"), dispatch=True)
    with left.trace(["Hello", PROMPT]):
        mask = left.attention_mask.save()
    assert mask[0, 0] == 0 and mask[0, -1] == 1


def test_legacy_keywords_reach_transformers_and_fail(path):
    with pytest.raises((TypeError, ValueError), match="enable_attention_probs"):
        StandardizedTransformer(path("gpt2"), dispatch=True, enable_attention_probs=True)


def test_a_multimodal_config_is_looked_up_by_its_text_config():
    from types import SimpleNamespace

    from nnterp.standardized import family_model_type

    # A wrapper type with no family of its own.
    config = SimpleNamespace(model_type="unshipped_wrapper", text_config=SimpleNamespace(model_type="gemma3_text"))
    assert family_model_type(config) == "gemma3_text"


def test_repr_lists_each_value_with_layout_and_description(gpt2):
    text = repr(gpt2.layers[0])
    assert "(layer_output) -> Residual [batch seq hidden_size]: The residual stream leaving the block" in text
    assert "(attention_probabilities) -> Pattern [batch num_heads query key]:" in text
    assert "(self_attn/attn)" in text


def test_attention_window_says_how_far_back_each_block_sees(path):
    # Gemma 2 alternates sliding and full blocks; the window bounds the pattern, a full block sees every key.
    model = StandardizedTransformer(path("gemma2"), dispatch=True, attn_implementation="eager")
    windows = [layer.self_attn.attention_window for layer in model.layers]
    assert windows == [128, None, 128]
    assert [layer.self_attn.attention_window for layer in StandardizedTransformer(path("llama")).layers] == [None] * 3
    narrow = StandardizedTransformer(path("mistral"), dispatch=True, attn_implementation="eager")
    window = narrow.layers[0].self_attn.attention_window
    with narrow.trace("The Eiffel Tower is in Paris, and the Colosseum is in Rome."):
        pattern = narrow.layers[0].self_attn.attention_probabilities.save()
    n = pattern.shape[-1]
    assert n > window
    offsets = torch.arange(n)[:, None] - torch.arange(n)[None, :]
    assert float(pattern[..., offsets >= window].abs().max()) == 0.0
    assert float(pattern[..., (offsets >= 0) & (offsets < window)].min()) > 0.0
