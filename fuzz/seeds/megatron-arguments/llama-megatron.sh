# Megatron-LM arguments for Tapestry plan "megatron-sp" (llama.ts.stripped.onnx):
# pipeline 2 x data parallel 2 x tensor parallel 2 = 8 GPUs.
# Add the model's own arguments (--hidden-size, --num-attention-heads, --ffn-hidden-size, ...)
# and run: torchrun ... pretrain_gpt.py "${MEGATRON_ARGS[@]}" ...
#
# Not expressible in Megatron-LM:
#   - ZeRO stage 3: Megatron-LM's distributed optimizer keeps whole parameters on every rank (ZeRO 1); recent Megatron-Core versions shard them with --use-torch-fsdp2 instead
MEGATRON_ARGS=(
    --tensor-model-parallel-size 2
    --pipeline-model-parallel-size 2
    --num-layers 4
    --sequence-parallel
    --seq-length 512
    --micro-batch-size 1
    --global-batch-size 16
    --recompute-granularity full
    --recompute-method uniform
    --recompute-num-layers 1
    --use-distributed-optimizer
    --bf16
    --use-flash-attn
    --overlap-grad-reduce
)
