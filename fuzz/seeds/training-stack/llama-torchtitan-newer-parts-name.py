# Not the plan Tapestry priced: torchtitan does not run it as is (below). This file runs the nearest plan
# torchtitan expresses, priced 0.307 ms and 0.02 GB per GPU against the plan's 0.304 ms and 0.01 GB.
# torchtitan config for Tapestry plan "tap" (llama.ts.stripped.onnx):
# pipeline 2 x data parallel 4 x tensor parallel 1 = 8 GPUs.
# torchtitan (since 2026-02-23) is configured by config-registry functions that return Trainer.Config.
# tapestry_plan(config) puts this plan on the config of your model's own registry function:
#     def llama3_8b_tapestry():
#         return tapestry_plan(llama3_8b())
# and run: python -m torchtitan.train --module YOUR_REGISTRY --config llama3_8b_tapestry
# Pipeline model parts name modules as torchtitan's decoder models do (tok_embeddings, layers.N, norm,
# output). The same settings as command-line overrides (without the model parts):
#
# Not expressible in torchtitan:
#   - ZeRO stage 1: torchtitan's data parallelism replicates (DDP) or shards everything (FSDP); written as DDP
#     --parallelism.data_parallel_replicate_degree 4 \
#     --parallelism.data_parallel_shard_degree 1 \
#     --parallelism.fsdp_reshard_after_forward always \
#     --parallelism.tensor_parallel_degree 1 \
#     --parallelism.no-enable-sequence-parallel \
#     --parallelism.context_parallel_degree 1 \
#     --parallelism.expert_parallel_degree 1 \
#     --parallelism.pipeline_parallel_degree 2 \
#     --parallelism.pipeline_parallel_schedule Interleaved1F1B \
#     --parallelism.num_pp_microbatches 2 \
#     --training.num_tokens_per_microbatch_per_dp_rank 2048 \
#     --training.num_tokens_per_train_step 16384 \
#     --training.max_context_length 1024 \
#     --training.mixed_precision_param bfloat16 \
#     --training.mixed_precision_reduce bfloat16 \

from dataclasses import fields, replace

from torchtitan.distributed.activation_checkpoint import FullAC

PARALLELISM = {
    "data_parallel_replicate_degree": 4,
    "data_parallel_shard_degree": 1,
    "fsdp_reshard_after_forward": "always",
    "tensor_parallel_degree": 1,
    "enable_sequence_parallel": False,
    "context_parallel_degree": 1,
    "expert_parallel_degree": 1,
    "pipeline_parallel_degree": 2,
    "pipeline_parallel_schedule": "Interleaved1F1B",
    "pipeline_parallel_module_fqns_per_model_part": [["tok_embeddings", "layers.0"], ["layers.1"], ["layers.2"], ["layers.3", "norm", "output"]],
    "num_pp_microbatches": 2,
}
TRAINING = {
    "num_tokens_per_microbatch_per_dp_rank": 2048,
    "num_tokens_per_train_step": 16384,
    "max_context_length": 1024,
    "mixed_precision_param": "bfloat16",
    "mixed_precision_reduce": "bfloat16",
}
ACTIVATION_CHECKPOINT = "full"


def tapestry_plan(config):
    """`config` (a Trainer.Config) with this plan's parallelism, batch and checkpointing."""
    config.parallelism = replace(config.parallelism, **PARALLELISM)
    config.training = replace(config.training, **TRAINING)
    if ACTIVATION_CHECKPOINT == "full":
        config.activation_checkpoint = FullAC.Config()
    else:  # the Trainer.Config default: no activation checkpointing
        default = {f.name: f for f in fields(config)}["activation_checkpoint"]
        config.activation_checkpoint = default.default_factory()
    return config
