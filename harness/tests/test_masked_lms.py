"""The masked-LM coverage table: every masked-LM type of the installed release is served or recorded."""

import os

os.environ["HF_HUB_OFFLINE"] = "1"

from pathlib import Path  # noqa: E402

import nnsight  # noqa: F401,E402  (nnsight must be imported before transformers.models.*)
import pytest  # noqa: E402
import transformers  # noqa: E402
from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES  # noqa: E402

from nnterp.families import has_family, lookup  # noqa: E402
from nnterp_harness import masked_lms, matrix, wrappers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "site" / "docs" / "encoders-table.md"
TABLE = masked_lms.table()
PROBED = sorted(t for t, reason in masked_lms.UNSERVED.items() if reason.probe is not None and t in TABLE)


def test_every_masked_lm_type_is_served_or_recorded():
    neither = [model_type for model_type, row in TABLE.items() if row is None]
    assert not neither, f"serve these masked-LM types or record why not in masked_lms.UNSERVED: {neither}"


def test_no_masked_lm_type_is_both_served_and_recorded():
    both = [t for t, row in TABLE.items() if isinstance(row, wrappers.Served) and t in masked_lms.UNSERVED]
    assert not both, f"these masked-LM types are served now: delete their masked_lms.UNSERVED entries: {both}"


def test_a_recorded_type_this_release_knows_is_a_masked_lm_type():
    stale = [t for t in masked_lms.UNSERVED if t in CONFIG_MAPPING_NAMES and t not in TABLE]
    assert not stale, f"transformers {transformers.__version__} knows these types but not as masked LMs: {stale}"


def test_a_served_type_is_an_encoder_family_with_a_suite():
    for model_type, row in TABLE.items():
        if isinstance(row, wrappers.Served):
            assert has_family(row.family), f"{model_type} is served by {row.family!r}, which nnterp does not ship"
            assert (ROOT / row.test_file).is_file()
            # XLM's one class serves both its causal and its masked-LM entries; every other type is an encoder.
            if model_type != "xlm":
                assert getattr(lookup(model_type), "ENCODER", False), f"{model_type}: its family is no encoder"


def test_every_reason_is_a_sentence_and_every_probe_names_its_error():
    for model_type, reason in masked_lms.UNSERVED.items():
        assert reason.why[:1].isupper() and reason.why.endswith("."), model_type
        assert (reason.probe is None) == (reason.raises is None) == (not reason.message), model_type


@pytest.mark.parametrize("model_type", PROBED)
def test_a_recorded_failure_still_happens_on_this_release(model_type):
    reason = masked_lms.UNSERVED[model_type]
    error = wrappers.probe_error(reason)
    assert error is not None, f"{model_type}: the probe now runs on transformers {transformers.__version__}"
    assert isinstance(error, reason.raises), f"{model_type}: {type(error).__name__}: {error}"
    assert str(error).strip().startswith(reason.message), f"{model_type}: {type(error).__name__}: {error}"


def test_the_page_is_the_generated_table():
    newest = matrix.MATRIX[-1]
    if transformers.__version__ != newest:
        pytest.skip(f"the page is generated on transformers {newest}, the newest release of the matrix")
    assert PAGE.read_text(encoding="utf-8") == masked_lms.markdown(TABLE), (
        "regenerate: python -m nnterp_harness.masked_lms --markdown > site/docs/encoders-table.md"
    )
