"""The values under `model.generate`: served once per forward call, on every reference family."""

import pytest
import torch

from nnterp import StandardizedTransformer

FAMILIES = ["gpt2", "llama", "gpt_neox", "qwen2", "gemma2", "bloom", "opt"]
PROMPT = "The Eiffel Tower is in the city of"


@pytest.fixture(scope="module", params=FAMILIES)
def model(request, path):
    return StandardizedTransformer(path(request.param), dispatch=True, attn_implementation="eager")


def prompt_length(model):
    return len(model.tokenizer(PROMPT)["input_ids"])


def test_values_are_served_once_per_call(model):
    n = prompt_length(model)
    resid, probs, ids_in, masks = [], [], [], []
    with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
        for _ in tracer.iter[:3]:
            ids_in.append(model.input_ids.save())
            masks.append(model.attention_mask.save())
            resid.append(model.layers[1].layer_output.save())
            probs.append(model.next_token_probs.save())
        ids = tracer.result.save()
    assert [tuple(r.shape) for r in resid] == [
        (1, n, model.hidden_size),
        (1, 1, model.hidden_size),
        (1, 1, model.hidden_size),
    ]
    assert [tuple(i.shape) for i in ids_in] == [(1, n), (1, 1), (1, 1)]
    # generate calls without a mask when nothing is padded; the value stands for the all-ones mask over the cache
    assert [tuple(m.shape) for m in masks] == [(1, n), (1, n + 1), (1, n + 2)]
    assert all(bool((m == 1).all()) for m in masks)
    # greedy decoding appends each call's argmax, and the next call reads it; min_new_tokens
    # bars the end-of-text token from the choice, so it is left out of the argmax here
    eos = model.tokenizer.eos_token_id
    chosen = [int(p.index_fill(-1, torch.tensor([eos]), 0).argmax(-1)) for p in probs]
    assert chosen == ids[0, -3:].tolist()
    assert ids_in[1][0, 0] == ids[0, n] and ids_in[2][0, 0] == ids[0, n + 1]


def test_interior_grows_with_the_cache(model):
    n = prompt_length(model)
    attn = model.layers[1].self_attn
    with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
        for _ in tracer.iter[1:2]:
            keys = attn.attention_keys.save()
    with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
        for _ in tracer.iter[1:2]:
            queries = attn.attention_queries.save()
    with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False) as tracer:
        for _ in tracer.iter[1:2]:
            pattern = attn.attention_probabilities.save()
    assert keys.shape[2] == n + 1 and keys.shape[1] == attn.num_kv_heads
    assert queries.shape[2] == 1
    assert tuple(pattern.shape) == (1, attn.num_heads, 1, n + 1)


def test_a_write_at_a_step_reaches_it_and_later_steps(model):
    with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
        clean = tracer.result.save()
    with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
        for _ in tracer.iter[1]:
            model.logits[:] = 0
            model.logits[..., 7] = 1.0  # the distribution this step samples from: token 7 wins
        edited = tracer.result.save()
    n = prompt_length(model)
    assert edited[0, n] == clean[0, n], "step 0 is untouched"
    assert int(edited[0, n + 1]) == 7, "the write decides its own step"


def test_a_read_outside_the_loop_binds_the_prompt_call(model):
    n = prompt_length(model)
    with model.generate(PROMPT, max_new_tokens=2, min_new_tokens=2, do_sample=False):
        out = model.layers[0].layer_output.save()
    assert out.shape[1] == n


def test_an_out_of_order_read_inside_iter_binds_the_next_step(model):
    """On the shared interface a misplaced read shifts the list by a step; BLOOM's module-level pattern raises."""
    from nnsight.intervention.interleaver import OutOfOrderError

    n = prompt_length(model)
    attn = model.layers[1].self_attn
    outs, patterns = [], []

    def run():
        with model.generate(PROMPT, max_new_tokens=3, min_new_tokens=3, do_sample=False) as tracer:
            for _ in tracer.iter[:3]:
                outs.append(attn.attention_output.save())
                patterns.append(attn.attention_probabilities.save())  # after attention_output: out of order

    if model.family.__name__.endswith("bloom"):
        with pytest.raises(OutOfOrderError, match="attention_dropout.output"):
            run()
        return
    run()
    assert len(outs) == 3 and len(patterns) == 2
    assert [p.shape[-1] for p in patterns] == [n + 1, n + 2]
