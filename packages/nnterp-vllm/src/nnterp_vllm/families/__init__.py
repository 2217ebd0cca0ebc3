"""The vLLM families: one module per `model_type`, `nnterp_vllm.families.<model_type>`, named after its type.

nnterp finds this package through the ``vllm`` entry point of the ``nnterp.engines``
group that this distribution declares, so `nnterp.families.known("vllm")` lists its
modules and `nnterp.families.lookup(model_type, engine="vllm")` imports one.
Importing the package, or a family module, needs neither vLLM nor a GPU.
"""
