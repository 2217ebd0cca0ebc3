"""The root and the helpers on an encoder: sentence vectors, steering, skipping, and what an encoder refuses."""

import pytest
import torch

from nnterp import StandardizedTransformer
from nnterp.nnsight_utils import MEAN, collect_token_activations_batched, get_token_activations

SENTENCES = ["The Eiffel Tower is in [MASK].", "Paris is the capital of France.", "Rome."]


@pytest.fixture(scope="module")
def bert(path):
    return StandardizedTransformer(path("bert"), dispatch=True, attn_implementation="eager")


def _streams(model, prompts):
    outs = []
    with model.trace(prompts):
        mask = model.attention_mask.save()
        for block in model.layers:
            outs.append(block.layer_output.save())
    return mask, outs


def test_the_default_position_of_an_encoder_is_its_first_token(bert):
    mask, outs = _streams(bert, SENTENCES)
    acts = get_token_activations(bert, SENTENCES)
    assert acts.shape == (bert.num_layers, len(SENTENCES), bert.hidden_size)
    for layer, out in enumerate(outs):
        assert torch.equal(acts[layer], out[:, 0]), "the default reads [CLS], position 0"
    assert bool((mask[:, 0] == 1).all()) and bool((mask == 0).any()), "a right-padded batch"


def test_the_mean_leaves_out_the_padding(bert):
    mask, outs = _streams(bert, SENTENCES)
    acts = get_token_activations(bert, SENTENCES, idx=MEAN)
    for layer, out in enumerate(outs):
        for row in range(len(SENTENCES)):
            real = int(mask[row].sum())
            expected = out[row, :real].mean(0)
            assert torch.allclose(acts[layer, row], expected, atol=1e-6), (layer, row)
    # The short prompt alone gives the same vector: padding changes nothing.
    alone = get_token_activations(bert, [SENTENCES[-1]], idx=MEAN)
    assert torch.allclose(alone[:, 0], acts[:, -1], atol=1e-5)


def test_the_batched_collection_matches_one_batch(bert):
    whole = get_token_activations(bert, SENTENCES, idx=MEAN)
    batched = collect_token_activations_batched(bert, SENTENCES, batch_size=2, idx=MEAN)
    assert torch.allclose(whole, batched, atol=1e-5)
    first = collect_token_activations_batched(bert, SENTENCES, batch_size=2)
    assert torch.allclose(first, get_token_activations(bert, SENTENCES), atol=1e-5)


def test_a_last_token_index_under_right_padding_is_refused(bert):
    with pytest.raises(ValueError, match="negative token index needs left padding"):
        get_token_activations(bert, SENTENCES, idx=-1)
    with pytest.raises(TypeError, match="'mean' for the mean"):
        get_token_activations(bert, SENTENCES, idx="average")


def test_the_mean_reads_a_decoder_too(llama):
    prompts = ["The Eiffel Tower is in", "Rome"]
    acts = get_token_activations(llama, prompts, layers=[0], idx=MEAN)
    with llama.trace(prompts):
        mask = llama.attention_mask.save()
        out = llama.layers[0].layer_output.save()
    real = mask[1].bool()
    assert torch.allclose(acts[0, 1], out[1][real].mean(0), atol=1e-6), "left padding is left out too"


def test_steering_moves_the_distribution_at_the_mask(bert):
    prompt = SENTENCES[0]
    with bert.trace(prompt):
        clean = bert.mask_token_probs.save()
    direction = torch.randn(bert.hidden_size, generator=torch.Generator().manual_seed(0))
    with bert.trace(prompt):
        bert.steer(layers=0, vector=direction, factor=4.0)
        steered = bert.mask_token_probs.save()
    assert clean.shape == steered.shape == (1, bert.vocab_size)
    assert not torch.allclose(clean, steered), "steering block 0 did not move the distribution at the mask"


def test_skip_layers_hands_the_stream_on(bert):
    with bert.trace(SENTENCES[0]):
        entering = bert.layers[0].layer_input.save()
        bert.skip_layers(0, bert.num_layers - 1)
        leaving = bert.layers[-1].layer_output.save()
        probs = bert.mask_token_probs.save()
    assert torch.equal(entering, leaving)
    assert probs.shape == (1, bert.vocab_size)


def test_an_encoder_type_registered_as_a_causal_lm_resolves_to_its_encoder_family():
    from transformers.models.auto import modeling_auto

    from nnterp.families import has_family, lookup

    both = set(modeling_auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES) & set(modeling_auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES)
    served = sorted(t for t in both if has_family(t) and t != "xlm")  # XLM's one class is both its heads
    assert "bert" in served and "roberta" in served
    assert [t for t in served if not getattr(lookup(t), "ENCODER", False)] == []


def test_a_checkpoint_saved_as_the_causal_lm_class_loads_under_the_masked_lm_head(path, tmp_path):
    import shutil

    from transformers import BertLMHeadModel

    source = path("bert")
    causal = BertLMHeadModel.from_pretrained(source, attn_implementation="eager").eval()
    assert not causal.config.is_decoder, "transformers' causal-LM entry for BERT, bidirectional as saved"
    causal.save_pretrained(tmp_path)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(f"{source}/{name}", tmp_path / name)
    model = StandardizedTransformer(str(tmp_path), dispatch=True, attn_implementation="eager")
    assert model.family.__name__ == "nnterp.families.bert" and model.task == "fill-mask"
    ids = model.tokenizer(SENTENCES[0], return_tensors="pt")["input_ids"]
    with model.trace(SENTENCES[0]):
        logits = model.logits.save()
    with torch.no_grad():
        expected = causal(input_ids=ids).logits
    assert torch.equal(logits, expected), "the masked-LM load of the causal-LM checkpoint computes other logits"


def test_the_vllm_engine_says_why_it_serves_no_encoder():
    from nnterp.families import UnsupportedFamily, lookup

    with pytest.raises(UnsupportedFamily, match="'bert' on vllm: it is an encoder.*StandardizedTransformer"):
        lookup("bert", engine="vllm")
    with pytest.raises(UnsupportedFamily, match="no standardization for model_type 'reformer' on vllm; known"):
        lookup("reformer", engine="vllm")


def test_a_decoder_lists_no_mask_values_and_refuses_a_read_with_the_reason(llama, bert):
    from nnterp import Unavailable

    assert not {"mask_token_mask", "mask_token_probs"} & set(llama.support())
    assert {"mask_token_mask", "mask_token_probs"} <= set(bert.support())
    with pytest.raises(Unavailable, match="a causal LM predicts the next token.*read next_token_probs"):
        with llama.trace("The Eiffel Tower is in"):
            llama.mask_token_probs.save()
