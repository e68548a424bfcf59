#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \
  --data-path 0.5 "a b" 0.5 c --micro-batch-size 1 --global-batch-size 16 2>&1 | tee log.txt
