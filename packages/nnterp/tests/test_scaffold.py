"""The scaffold: what it reads off a type's code, the draft it writes, and a draft that passes the suite unedited."""

import ast
import subprocess
import sys

from nnterp.scaffold import analyze, scaffold
from nnterp.scaffold.render import family_module, rename


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
    granite = analyze("granite")
    assert any("residual_multiplier" in item for item in granite.needs_person)
    assert granite.after_head == "logits_scaling"
    bloom = analyze("bloom")
    assert any("own arithmetic" in item for item in bloom.needs_person)
    assert any("adds it itself" in item for item in bloom.needs_person)


def test_gpt2_spellings_become_standard_names():
    table = rename(analyze("gpt2"))
    assert table["transformer.h"] == "layers" and table["ln_1"] == "input_layernorm" and table["attn"] == "self_attn"
    assert table["attn.c_proj"] == "attn.o_proj" and table["mlp.c_proj"] == "mlp.down_proj"


def test_the_command_writes_the_files_without_running(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "nnterp", "scaffold", "qwen3", "--out", str(tmp_path / "q"), "--no-run"],
        capture_output=True, text=True,
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
    from nnterp.scaffold import Report
    from nnterp.scaffold.survey import summary, uncovered

    missing = uncovered()
    assert "llama" not in missing and not set(missing) & set(known())
    assert "rwkv" in missing or "rwkv" in known()
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
