"""A suite class runs the checks its family's envoys and its `CHECKS` choose, and no family file stacks them by hand."""

import ast
from pathlib import Path
from types import SimpleNamespace

import nnsight  # noqa: F401  (nnsight must be imported before transformers.models.*)

import nnterp_harness
from nnterp.components import Layer, Moe, PostLNLayer, RecurrentMixer
from nnterp_harness.call_state import CallStateChecks
from nnterp_harness.mixture import MixtureChecks
from nnterp_harness.post_ln import PostLNChecks
from nnterp_harness.recurrent import RecurrentChecks
from nnterp_harness.sliding import SlidingWindowChecks
from nnterp_harness.suite import FamilySuite
from nnterp_harness.vision import VisionSuite

FAMILIES = Path(__file__).resolve().parents[1] / "families"
HARNESS = Path(nnterp_harness.__file__).parent


def family(*envoys: type) -> SimpleNamespace:
    """A stand-in family module whose `ENVOYS` map a module name to each of `envoys`."""
    return SimpleNamespace(ENVOYS={f"module_{i}": envoy for i, envoy in enumerate(envoys)})


class FamilyMoe(Moe):
    pass


class FamilyMixer(RecurrentMixer):
    pass


class OwnChecks:
    def test_own(self):
        pass


def test_the_envoys_choose_the_checks():
    class TestMixture(FamilySuite):
        FAMILY = family(Layer, FamilyMoe)

    class TestPlain(FamilySuite):
        FAMILY = family(Layer)

    class TestHybrid(FamilySuite):
        FAMILY = family(PostLNLayer, FamilyMixer, FamilyMoe)

    assert TestMixture.__bases__ == (MixtureChecks, FamilySuite)
    assert TestPlain.__bases__ == (FamilySuite,)
    assert TestHybrid.__bases__ == (PostLNChecks, RecurrentChecks, MixtureChecks, FamilySuite)
    assert TestHybrid.test_contribution_identity is PostLNChecks.test_contribution_identity


def test_declared_checks_come_first_and_stand_in_for_what_they_extend():
    class TestDeclared(FamilySuite):
        FAMILY = family(FamilyMixer)
        CHECKS = (SlidingWindowChecks, CallStateChecks)

    assert TestDeclared.__bases__ == (SlidingWindowChecks, CallStateChecks, FamilySuite)
    assert issubclass(TestDeclared, RecurrentChecks)


def test_a_hand_written_base_stays_ahead_and_a_subclass_adds_nothing_twice():
    class TestOwn(OwnChecks, FamilySuite):
        FAMILY = family(FamilyMoe)

    class TestVariant(TestOwn):
        CHECKPOINT = "variant"

    assert TestOwn.__bases__ == (OwnChecks, MixtureChecks, FamilySuite)
    assert TestVariant.__bases__ == (TestOwn,)
    assert TestVariant.__mro__.count(MixtureChecks) == 1


def test_a_vision_suite_runs_only_what_it_declares():
    class TestTower(VisionSuite):
        FAMILY = family(FamilyMoe)
        CHECKS = (OwnChecks,)

    assert TestTower.__bases__ == (OwnChecks, VisionSuite)


def check_classes() -> set[str]:
    """The names of the check classes the harness's modules and the family files define."""
    found = set()
    for path in [*HARNESS.rglob("*.py"), *FAMILIES.glob("test_*.py")]:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Checks"):
                found.add(node.name)
    return found


def test_no_family_file_stacks_a_check_class_by_hand():
    checks = check_classes()
    assert {"MixtureChecks", "RecurrentChecks", "SlidingWindowChecks", "ChameleonChecks"} <= checks
    stacked = []
    for path in sorted(FAMILIES.glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                names = [base.id for base in node.bases if isinstance(base, ast.Name)]
                stacked += [f"{path.name}::{node.name}({name})" for name in names if name in checks]
    assert not stacked, f"declare these in the class's CHECKS, or let its family's envoys choose them: {stacked}"
