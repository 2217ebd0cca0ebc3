"""The scaffold: what it reads off a type's code, the draft it writes, and a draft that passes the suite unedited."""

import ast
import subprocess
import sys

import pytest

from nnterp_harness.scaffold import analyze, render, scaffold
from nnterp_harness.scaffold.render import family_module, rename


def test_a_llama_shaped_type_is_drafted_passed_and_reported_clean(tmp_path):
    report = scaffold("mistral", tmp_path / "mistral")
    assert report.error is None, report.error
    assert report.failed == [], report.failed
    assert report.clean and report.passed > 30
    assert report.needs_person == []
    for name in ("mistral.py", "entry_mistral.py", "test_mistral.py", "tiny_checkpoints/mistral/config.json"):
        assert (tmp_path / "mistral" / name).is_file(), name


def test_a_sandwich_block_reads_the_contributions_on_the_post_norms():
    analysis = analyze("gemma2")
    assert analysis.attention.post_norm == "post_attention_layernorm"
    assert analysis.mlp.pre_norm == "pre_feedforward_layernorm"
    assert analysis.after_head == "softcap"
    text = family_module(analysis)
    ast.parse(text)
    assert '@EProperty("../post_feedforward_layernorm.output"' in text
    assert '@EProperty("pre_feedforward_layernorm.input"' in text
    assert "def project_on_vocab(model, hidden):" in text


def test_a_post_norm_block_has_no_norm_before_its_sublayers():
    analysis = analyze("olmo2")
    assert analysis.attention.pre_norm is None and analysis.mlp.pre_norm is None
    text = family_module(analysis)
    assert "attention_norm_output = unavailable(POST_NORM_ATTENTION)" in text
    assert "mlp_norm_output = unavailable(POST_NORM_MLP)" in text


def test_a_parallel_block_has_no_stream_between_its_sublayers():
    analysis = analyze("phi")
    assert analysis.parallel
    assert "layer_mid = unavailable(PARALLEL)" in family_module(analysis)


def test_what_it_cannot_place_is_named_with_its_forward_line():
    bloom = analyze("bloom")
    assert any("own arithmetic" in item for item in bloom.needs_person)
    # The residual add inside each sublayer ends it: no parallel block, no post norm.
    assert not bloom.parallel and bloom.attention.post_norm is None
    assert bloom.attention.adds_residual and bloom.mlp.adds_residual
    family, suite = family_module(bloom), render.test_module(bloom)
    assert "def off_interface(self) -> str | None:" in family
    for key in ("self_attn.attention_queries", "self_attn.attention_head_outputs"):
        assert f'{key!r}: "the scaffold\'s draft does not place"' in suite, key
    japanese = analyze("gpt_neox_japanese")  # the residual enters `bias_dropout_add`, which also adds a bias
    assert any(
        "adds the residual inside a function call" in item and "bias_dropout_add(" in item
        for item in japanese.needs_person
    )
    assert not japanese.parallel and japanese.mlp.pre_norm == "post_attention_layernorm"


def test_a_sublayer_that_adds_the_residual_itself_is_read_inside_its_forward():
    bloom = analyze("bloom")
    # `dropout_add(output, residual, ...)`: the contribution is what enters the call beside the residual.
    assert bloom.attention.inside == bloom.mlp.inside == "source.dropout_add_0.input"
    assert not any("adds it itself" in item for item in bloom.needs_person)
    family = family_module(bloom)
    assert '@EProperty("source.dropout_add_0.input"' in family and "unavailable=always" in family
    assert "ADDS_RESIDUAL" not in family and "ADDS_RESIDUAL" not in render.test_module(bloom)
    # `output = F.dropout(down_proj(...)); output = output + residual`: the operation that bound the summand.
    assert analyze("mpt").mlp.inside == "source.F_dropout_0.output"


def test_a_norm_is_a_post_norm_only_on_the_sublayers_output():
    neox = analyze("gpt_neox")  # the MLP's norm reads the block input, after the attention ran
    assert neox.parallel and neox.attention.post_norm is None
    assert neox.mlp.pre_norm == "post_attention_layernorm" and not neox.mlp_norm_first
    assert "MLP_NORM_BEFORE_ATTENTION" not in render.test_module(neox)
    falcon = analyze("falcon")  # one norm for both, run before the attention
    assert falcon.parallel and falcon.mlp_norm_first and falcon.mlp.pre_norm == falcon.attention.pre_norm


def test_an_add_into_a_sublayers_output_reads_a_copy():
    falcon = analyze("falcon")
    assert falcon.mlp.added_into == "mlp_output += attention_output"
    family = family_module(falcon)
    assert "return first_tensor(value).clone()" in family and "@mlp_output.transform" in family


def test_what_the_model_does_to_the_heads_input_is_in_the_logit_lens():
    minicpm = analyze("minicpm3")
    assert minicpm.before_head == "/ model._module.config.logits_scaling" and minicpm.after_head is None
    assert "return model.lm_head(model.norm(hidden) / model._module.config.logits_scaling)" in family_module(minicpm)


def test_an_output_projection_one_module_deeper_is_renamed():
    neo = analyze("gpt_neo")  # the attention wraps the module doing the arithmetic
    assert neo.o_proj == "attention.out_proj"
    assert rename(neo)["attn.attention.out_proj"] == "attn.o_proj"


def test_a_block_multiplier_takes_the_scaled_components():
    granite = analyze("granite")
    assert granite.attention.multiplier == granite.mlp.multiplier == "residual_multiplier"
    # A multiplier left at one would hide a draft that forgets it.
    assert granite.overrides["residual_multiplier"] == 0.5
    assert granite.after_head == "/ model._module.config.logits_scaling"
    text = family_module(granite)
    assert "class Attention(ScaledAttention):" in text and "class Mlp(ScaledMlp):" in text
    assert not any("residual_multiplier" in item for item in granite.needs_person)


def test_a_branch_on_the_config_is_followed_and_named():
    neox = analyze("gpt_neox")
    assert neox.parallel
    assert any("branches on the config" in item and "use_parallel_residual" in item for item in neox.needs_person)


def test_a_feed_forward_path_run_inline_has_no_mlp_module():
    opt = analyze("opt")
    assert opt.inline_mlp == ("fc1", "fc2") and opt.flat and opt.width_key == "ffn_dim"
    table = rename(opt)
    # The final norm shares the block norm's name, so the block's keeps its own.
    assert table["model.decoder.final_layer_norm"] == "norm" and "final_layer_norm" not in table
    text = family_module(opt)
    assert "mlp_input = unavailable(NO_MLP)" in text and "-> FlatResidual:" in text
    assert "mlp=None" in render.test_module(opt)


def test_a_mixture_is_placed_from_its_children_and_forwards():
    qwen = analyze("qwen2_moe")
    mixture = qwen.mixture
    assert (mixture.router, mixture.experts, mixture.scoring, mixture.logits) == (
        "gate",
        "experts",
        "softmax",
        "F_linear_0",
    )
    # The shared expert's output is gated in the forward: its second binding is the contribution.
    assert mixture.shared == "source.shared_expert_output_1.output" and mixture.sourced
    assert qwen.dense_mlp_class == "Qwen2MoeMLP"
    text, suite = family_module(qwen), render.test_module(qwen)
    assert "class Moe(Moe):" in text and 'ROUTER = "gate"' in text and "Qwen2MoeSparseMoeBlock: Moe" in text
    # The mixture checks come from the draft's ENVOYS (a Moe envoy), not from a base the file stacks.
    assert "(FamilySuite):" in suite and "MixtureChecks" not in suite and "ROUTER_EXTRA_CLASSES = (draft.Mlp,)" in suite
    hy = analyze("hy_v3")  # the shared experts summed where they run: their output is added as is
    assert (hy.mixture.shared, hy.mixture.sourced) == ("shared_experts.output", False)
    axk = analyze("axk1")
    assert any("runs post_mlp_layernorm on the experts' sum" in item for item in axk.needs_person)
    deepseek = analyze("deepseek_v3")
    assert deepseek.mixture.scoring == "sigmoid" and deepseek.mixture.shared == "shared_experts.output"
    assert deepseek.latent and "class Attention(LatentAttention):" in family_module(deepseek)
    granite = analyze("granitemoe")
    assert granite.mixture.router == "router" and granite.mixture.scoring == "topk_softmax"
    assert "class Moe(ScaledMoe):" in family_module(granite)
    assert "MOE_UNAVAILABLE" in render.test_module(granite)


def test_the_shrink_follows_what_the_config_spells_its_own_way():
    assert analyze("mpt").overrides["use_cache"] is True  # a default config that does not cache decodes it all again
    xlnet = analyze("xlnet")
    # A size the config refuses to take is left alone; a head width under a name of its own is shrunk with the head.
    assert "max_position_embeddings" not in xlnet.overrides and xlnet.overrides["d_head"] == 16
    gemma = analyze("gemma3n_text")  # the last block reuses an earlier one's keys and values
    assert gemma.overrides["num_kv_shared_layers"] == 1 and len(gemma.overrides["layer_types"]) == 3


def test_blocks_run_in_a_loop_of_the_models_own_are_named_not_drafted(tmp_path):
    report = scaffold("hrm_text", tmp_path / "hrm", run=False)
    assert report.error and "no list of" in report.error
    assert any("runs them in a loop of its own (forward line" in item for item in report.needs_person)
    assert "needs a person, what the draft could not place:" in report.text()


def test_the_report_says_which_failures_need_a_person(tmp_path):
    from nnterp_harness.scaffold import Report

    flagged = Report("a", tmp_path, passed=3, failed=["test_x"], needs_person=["line 3"]).text()
    assert "needs a person, failing suite methods:\n    test_x" in flagged and "    - line 3" in flagged
    unflagged = Report("b", tmp_path, passed=3, failed=["test_x"]).text()
    assert "failed with nothing marked for a person (a gap in the scaffold):\n    test_x" in unflagged


def test_the_shrink_keeps_sizes_that_must_agree():
    assert analyze("gptj").overrides["rotary_dim"] == 8  # a rotated width wider than the head no longer fits
    assert analyze("gpt_neo").overrides["attention_types"] == [[["global", "local"], 1]]
    compass = analyze("cohere_compass_text")
    assert set(compass.overrides["rope_parameters"]) == set(compass.overrides["layer_types"])


def test_gpt2_spellings_become_standard_names():
    table = rename(analyze("gpt2"))
    assert table["transformer.h"] == "layers" and table["ln_1"] == "input_layernorm" and table["attn"] == "self_attn"
    assert table["attn.c_proj"] == "attn.o_proj" and table["mlp.c_proj"] == "mlp.down_proj"


def test_the_command_writes_the_files_without_running(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "nnterp_harness.scaffold", "qwen3", "--out", str(tmp_path / "q"), "--no-run"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "scaffold qwen3" in result.stdout
    assert (tmp_path / "q" / "qwen3.py").is_file() and not (tmp_path / "q" / "tiny_checkpoints").exists()


def test_a_type_that_is_no_causal_lm_is_reported_not_raised(tmp_path):
    report = scaffold("vit", tmp_path / "vit", run=False)
    assert "'vit' is not a causal-LM model_type" in report.error
    assert not report.clean and not (tmp_path / "vit").exists()


def test_the_survey_lists_uncovered_types_and_sums_up_reports(tmp_path):
    from nnterp.families import known
    from nnterp_harness.scaffold import Report
    from nnterp_harness.scaffold.survey import summary, text_type, uncovered

    missing = uncovered()
    assert "llama" not in missing and not set(missing) & set(known())
    assert "rwkv" in missing or "rwkv" in known()
    # A wrapper whose text model has a family is served by it, and is not listed.
    wrapper = "qwen3_5"
    if text_type(wrapper) in known():
        assert wrapper not in missing
    assert text_type("llama") is None
    # The masked-LM map is read too: BERT has a family, and every listed type is one of the map's.
    from transformers.models.auto.modeling_auto import MODEL_FOR_MASKED_LM_MAPPING_NAMES

    masked = uncovered("masked-lm")
    assert "bert" not in masked and set(masked) <= set(MODEL_FOR_MASKED_LM_MAPPING_NAMES)
    assert "bart" in masked, "an encoder-decoder's masked-LM entry has no encoder family"
    with pytest.raises(ValueError, match="the kinds are"):
        uncovered("seq2seq")
    reports = [
        Report("a", tmp_path, passed=40),
        Report("b", tmp_path, passed=30, failed=["test_contribution_identity"], needs_person=["line 3"]),
        Report("c", tmp_path, passed=30, failed=["test_contribution_identity"]),
        Report("d", tmp_path, error="ValueError: no list of 3 blocks"),
    ]
    data = summary(reports)
    assert data["clean"] == ["a"]
    assert data["failing_methods"] == {"test_contribution_identity": 2}
    assert data["failing_unflagged"] == ["c"]
    assert data["not_drafted"] == {"d": "ValueError: no list of 3 blocks"}


def test_an_embedding_edited_in_place_is_named():
    ctrl = analyze("ctrl")
    edits = [item for item in ctrl.needs_person if "embedding output in place" in item]
    assert len(edits) == 1 and "inputs_embeds *= np.sqrt(self.d_model_size)" in edits[0]
    assert (
        ctrl.mlp_generic
        and 'ENVOYS = {EncoderLayer: Layer, MultiHeadAttention: Attention, "mlp": Mlp}' in family_module(ctrl)
    )


def test_queries_are_split_views_only_where_no_fresh_tensor_follows_the_split():
    from transformers.models.codegen.modeling_codegen import CodeGenAttention
    from transformers.models.gpt2.modeling_gpt2 import GPT2Attention

    from nnterp_harness.scaffold.analyze import _queries_split

    assert _queries_split(GPT2Attention)  # split, then only views before the interface
    assert not _queries_split(CodeGenAttention)  # split, then the rotary embedding makes a fresh tensor


def test_what_follows_the_head_and_the_inner_model_is_read_off_their_forwards():
    cohere = analyze("cohere_compass_text")
    assert cohere.after_head == "* model._module.logit_scale"
    assert "return model.lm_head(model.norm(hidden)) * model._module.logit_scale" in family_module(cohere)
    nanochat = analyze("nanochat")
    text = family_module(nanochat)
    assert nanochat.norm_calls == 2 and 'EProperty("model.source.self_norm_1.output")' in text
    assert any("calls its final norm norm 2 times" in item for item in nanochat.needs_person)


def test_the_attention_sizes_and_calls_the_config_does_not_say():
    bigcode = analyze("gpt_bigcode")
    assert bigcode.kv_heads_attribute == "kv_heads" and "num_key_value_heads" not in bigcode.overrides
    assert bigcode.width_key is None  # `n_positions` holds the same number by chance, not the MLP width
    diff = analyze("diffllama")
    assert diff.interface_calls and any("2 times" in item for item in diff.needs_person)
    assert "attention_head_outputs = unavailable(SEVERAL_CALLS)" in family_module(diff)
    gemma = analyze("gemma4_unified_text")
    assert gemma.head_dim_per_block and "def head_dim(model) -> int:" in family_module(gemma)


def test_a_mixer_without_attention_is_named_for_a_person():
    mamba = analyze("mamba")
    assert mamba.mixers == ["mixer"]
    assert any("mixes tokens with mixer (MambaMixer)" in item for item in mamba.needs_person)
    assert not any("post-LN" in item for item in mamba.needs_person)  # the norm before the mixer is a pre-norm
    lfm2 = analyze("lfm2")  # the default config builds attention blocks only
    assert any("the other branch calls conv, which block 0" in item for item in lfm2.needs_person)


def test_a_mixture_that_scales_its_experts_output_takes_the_scaled_routed_component():
    minimax = analyze("minimax_m3_vl_text")
    assert (minimax.mixture.scale, minimax.mixture.scaled) == ("routed_scaling_factor", "hidden_states_2")
    text = family_module(minimax)
    assert "class Moe(ScaledRoutedMoe):" in text and 'SCALED = "hidden_states_2"' in text


def test_what_a_mixture_does_its_own_way_is_named_with_its_line():
    phimoe = analyze("phimoe")  # the sparse mixer: none of softmax, sigmoid or top-k
    assert any("scores its logits by none of" in item and "sparsemixer(" in item for item in phimoe.needs_person)
    llama4 = analyze("llama4_text")  # every expert runs on score-premultiplied tokens
    assert any("take no routing indices or weights" in item and "self.experts(" in item for item in llama4.needs_person)
    dsa = analyze("glm_moe_dsa")  # the indexer's choice passes from block to block
    assert any("hands topk_indices on to the next" in item for item in dsa.needs_person)


def test_heads_multiplied_before_the_output_projection_are_no_premix():
    laguna = analyze("laguna")  # a softplus gate per head
    assert laguna.premix_product and "gate" in laguna.premix_product
    assert "PREMIX_IS_HEAD_OUTPUTS = False" in render.test_module(laguna)
    assert analyze("qwen3").premix_product is None


def test_a_mixer_beside_the_attention_and_a_build_that_fails_are_named(tmp_path):
    falcon_h1 = analyze("falcon_h1")
    assert any("also runs mamba (FalconH1Mixer) beside its attention" in item for item in falcon_h1.needs_person)
    report = scaffold("zamba2", tmp_path / "zamba2", run=False)
    assert report.error and any("zamba2/modeling_zamba2.py line" in item for item in report.needs_person)
