"""The wrapper coverage table: every image-text-to-text type of the installed release is served or recorded, and the
recorded transformers failures still happen."""

import os

os.environ["HF_HUB_OFFLINE"] = "1"

from pathlib import Path  # noqa: E402

import nnsight  # noqa: F401,E402  (nnsight must be imported before transformers.models.*)
import pytest  # noqa: E402
import transformers  # noqa: E402
from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES  # noqa: E402

from nnterp.families import has_family  # noqa: E402
from nnterp_harness import matrix, wrappers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "site" / "docs" / "wrappers.md"
TABLE = wrappers.table()
PROBED = sorted(t for t, reason in wrappers.UNSERVED.items() if reason.probe is not None and t in TABLE)


def test_every_wrapper_type_is_served_or_recorded():
    neither = [model_type for model_type, row in TABLE.items() if row is None]
    assert not neither, f"serve these wrapper types or record why not in wrappers.UNSERVED: {neither}"


def test_no_wrapper_type_is_both_served_and_recorded():
    both = [t for t, row in TABLE.items() if isinstance(row, wrappers.Served) and t in wrappers.UNSERVED]
    assert not both, f"these wrapper types are served now: delete their wrappers.UNSERVED entries: {both}"


def test_a_recorded_type_this_release_knows_is_one_of_its_wrapper_types():
    stale = [t for t in wrappers.UNSERVED if t in CONFIG_MAPPING_NAMES and t not in TABLE]
    assert not stale, f"transformers {transformers.__version__} knows these types but not as wrappers: {stale}"


def test_a_served_type_names_its_family_and_suite():
    for model_type, row in TABLE.items():
        if isinstance(row, wrappers.Served):
            assert has_family(row.family), f"{model_type} is served by {row.family!r}, which nnterp does not ship"
            assert (ROOT / row.test_file).is_file()


def test_every_reason_is_a_sentence_and_every_probe_names_its_error():
    for model_type, reason in wrappers.UNSERVED.items():
        assert reason.why[:1].isupper() and reason.why.endswith("."), model_type
        assert (reason.probe is None) == (reason.raises is None) == (not reason.message), model_type


@pytest.mark.parametrize("model_type", PROBED)
def test_a_recorded_failure_still_happens_on_this_release(model_type):
    reason = wrappers.UNSERVED[model_type]
    error = wrappers.probe_error(reason)
    assert error is not None, f"{model_type}: the probe now runs on transformers {transformers.__version__}"
    assert isinstance(error, reason.raises), f"{model_type}: {type(error).__name__}: {error}"
    assert str(error).strip().startswith(reason.message), f"{model_type}: {type(error).__name__}: {error}"


def test_the_wrappers_page_is_the_generated_table():
    newest = matrix.MATRIX[-1]
    if transformers.__version__ != newest:
        pytest.skip(f"the page is generated on transformers {newest}, the newest release of the matrix")
    assert PAGE.read_text(encoding="utf-8") == wrappers.markdown(TABLE), (
        "regenerate: python -m nnterp_harness.wrappers --markdown > site/docs/wrappers.md"
    )


def test_the_command_prints_one_line_per_wrapper_type(capsys):
    assert wrappers.main([]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert len(lines) == len(TABLE) + 1
    assert lines[-1].startswith(f"transformers {transformers.__version__}: {len(TABLE)} wrapper types")
