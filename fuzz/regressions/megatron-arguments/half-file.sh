# Megatron-LM arguments for Tapestry plan "megatron-sp" (llama.ts.stripped.onnx):
# pipeline 2 x data parallel 2 x tensor parallel 2 = 8 GPUs.
# Add the model's own arguments (--hidden-size, --num-attention-heads, --ffn-hidden-size, ...)
# and run: torchrun ... pretrain_gpt.py "${MEGATRON_ARGS[@]}" ...
#
# Not expressible in Megatron-LM:
#   - ZeRO stage 3: Megatron-LM's distributed optimizer keeps whole parameters on every rank (ZeRO 1); recent Me