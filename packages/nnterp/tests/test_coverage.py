"""The coverage table: read off the family modules, its release record, and the generated families page."""

import ast
from pathlib import Path

import pytest
import transformers

from nnterp import coverage, families
from nnterp.families import bloom, gpt_neox, opt
from nnterp.inspect import main
from nnterp_harness import matrix

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "site" / "docs" / "families.md"


def test_the_record_covers_exactly_the_matrix_of_the_noxfile():
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    assigned = [
        node
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "TRANSFORMERS"
    ]
    assert tuple(ast.literal_eval(assigned[0].value)) == matrix.MATRIX
    assert tuple(coverage.matrix_releases()) == matrix.MATRIX


def test_this_release_row_lists_the_families_its_run_holds_to_the_suite():
    release = transformers.__version__
    if release not in matrix.MATRIX:
        pytest.skip(f"transformers {release} is not a release of the matrix {matrix.MATRIX}")
    recorded = coverage.matrix_releases()[release]
    assert recorded == matrix.expected_row(), "run `python -m nnterp_harness.matrix record` under this release"
    assert set(recorded) <= set(families.known())


def test_a_row_reads_traits_and_reasons_off_the_module():
    neox = coverage.family_row("gpt_neox", gpt_neox)
    assert neox.conditional["parallel_reason"] == ["layer_mid"]
    assert neox.summary.startswith("GPT-NeoX")
    assert "mlp_input" in coverage.family_row("opt", opt).unavailable
    bloom_row = coverage.family_row("bloom", bloom)
    assert "tuple block" in bloom_row.traits
    assert "own sizes: intermediate_size" in bloom_row.traits
    assert any("attention" in trait.lower() for trait in bloom_row.traits)
    from nnterp.families import bert

    encoder_trait = "encoder, no vLLM family (vLLM runs an encoder as a pooling model)"
    assert encoder_trait in coverage.family_row("bert", bert).traits
    assert encoder_trait not in bloom_row.traits


def test_the_families_page_is_the_generated_table():
    shipped = coverage.shipped_types()
    if len(families.known()) != len(shipped):
        missing = sorted(set(shipped) - set(families.known()))
        pytest.skip(f"this transformers release lacks {missing}: the page is checked where every family imports")
    expected = coverage.markdown(coverage.rows())
    assert PAGE.read_text(encoding="utf-8") == expected, (
        "regenerate: python -m nnterp families --markdown > site/docs/families.md"
    )


def test_the_families_command_prints_one_block_per_family(capsys):
    # In this process: the command's `main`, which `python -m nnterp families` calls (test_cli runs that path).
    assert main(["families"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(f"{len(families.known())} families")
    assert "\ngpt_neox: GPT-NeoX" in "\n" + out


def test_a_release_that_cannot_run_or_serve_a_family_leaves_it_out_of_the_record(monkeypatch):
    from dataclasses import replace

    from nnterp_harness import checkpoints

    assert "llama" in matrix.expected_row()
    entries = dict(checkpoints.ENTRIES)
    entries["llama"] = replace(entries["llama"], unserved=lambda: "the values cannot be read here")
    entries["opt"] = replace(entries["opt"], cannot_run=lambda: "the forward raises here")
    monkeypatch.setattr(checkpoints, "ENTRIES", entries)
    row = matrix.expected_row()
    assert "llama" not in row and "opt" not in row and "gpt2" in row
