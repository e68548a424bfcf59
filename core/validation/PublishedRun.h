#pragma once

#include "cost/Workload.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// One measured training run from a public source (../shared/validation/README.md): the
// model, the hardware, the parallel configuration and what was measured.
struct PublishedRun {
    std::string name;
    std::string source;
    struct Model {
        std::string architecture;  // "gpt": a GPT-style decoder; "llama": RMSNorm, SwiGLU, RoPE, GQA
        std::int64_t layers = 0;
        std::int64_t hidden = 0;
        std::int64_t heads = 0;
        std::int64_t kvHeads = 0;  // key-value heads (grouped-query attention); the heads when absent
        std::int64_t ffnHidden = 0;
        std::int64_t vocab = 0;
        std::int64_t sequence = 0;
        // The kernel by its name in the run format's vocabulary (cost/AttentionKernelNames.h,
        // AttentionNameReader::RunFile): "flash1" FlashAttention (flash-attn 1.x, Dao et al.
        // 2022: what the format's README calls MosaicML's kernel, run before FlashAttention-2
        // was released), "flash2" FlashAttention-2 (flash-attn 2.x, PyTorch's
        // scaled_dot_product_attention on its flash backend since PyTorch 2.2), "cudnn"
        // cuDNN's fused attention (Transformer Engine on Hopper and later), "triton" the
        // Triton FlashAttention (llm-foundry's attn_impl: triton), "unfused" separate kernels
        // that write the scores out. Unlike plan files, a run file may say plain "flash",
        // read as "flash1" (the shared file's MosaicML runs pinned flash-attn 1.0.3) with a
        // note (plainFlashNote), and may not say "fused", which plan files read as
        // FlashAttention-2 but a recipe's Megatron-LM --attention-backend fused means cuDNN.
        std::string attention;
    } model;
    struct Hardware {
        // "A100-SXM4-80GB", "A100-SXM4-40GB", "H100-SXM5-80GB", "H200-SXM5-141GB",
        // "B200-SXM-180GB", "GB200-NVL72"
        std::string gpu;
        double peakTflops = 0;
        int gpusPerNode = 0;
        int nodes = 0;
        double interNodeGbitPerGpu = 0;
        int gpusPerNvlinkDomain = 0;  // 0: the GPU's preset's
        // The run's HBM bandwidth where its GPUs differ from the preset's (TB/s); 0: the preset's.
        double hbmTbPerSecond = 0;
    } hardware;
    struct Training {
        std::string precision;  // "fp16", "bf16", "fp8" (bf16 with per-tensor FP8 GEMMs) or "mxfp8"
        // Under fp8 or mxfp8: the FP8 layers' weights are kept in FP8 only (Workload::fp8Parameters).
        bool fp8Parameters = false;
        // Megatron-Core keeps and reduces its gradient buffers in fp32 (grad_reduce_in_fp32,
        // Workload::fp32MainGradients): true for a run whose source names Megatron unless its
        // training.grad_reduce_in_fp32 says false; false for other stacks, which refuse the field.
        bool gradReduceInFp32 = false;
        std::int64_t globalBatch = 0;
        std::int64_t microBatch = 0;
        std::int64_t gradientAccumulation = 1;
        int dataParallel = 1;
        int tensorParallel = 1;
        int pipelineParallel = 1;
        int virtualStages = 1;
        bool sequenceParallel = false;
        int contextParallel = 1;
        int zeroStage = 0;
        std::string zeroImplementation = "fsdp";  // "fsdp", "deepspeed" or "megatron-fsdp" (how ZeRO 3 gathers)
        std::string recompute;  // "none", "selective", "full"
        // Blocks whose saved activations the stack moves to host memory in forward and back
        // in backward (Megatron-LM's --cpu-offloading-num-layers); 0: none.
        std::int64_t activationOffloadLayers = 0;
        std::string optimizer;  // "adam"
    } training;
    struct Measured {
        double stepSeconds = 0;
        std::optional<double> memoryGibParametersAndOptimizer;
        std::optional<double> memoryGibActivationsFirstStage;
    } measured;
};

// Whether `run` was trained by a Megatron stack (Megatron-LM, NeMo or Megatron-Bridge on
// Megatron-Core): its source names Megatron.
[[nodiscard]] bool fromMegatron(const PublishedRun& run);

// Whether `run` names its kernel plain "flash", which older documentation of the format
// called FlashAttention-2.
[[nodiscard]] bool namesPlainFlash(const PublishedRun& run);
// The note printed once for a file with such runs: how the word is read and what a
// FlashAttention-2 run should say instead.
[[nodiscard]] std::string plainFlashNote(const std::string& fileName);

// Reads text in the format of ../shared/validation/published-runs.json, calling `each`
// with every case in order as soon as it is read; the cases are not kept, so memory stays
// that of the text and one case. Throws Error(InvalidPublishedRun, fileName,
// "cases[3] (NAME).training.micro_batch: ...") for a missing or ill-typed field, a value
// out of range or a workload that contradicts itself (checkWorkload), after the cases
// before it were handed over, and the JSON errors of parseJson.
void forEachPublishedRun(std::string_view json, const std::string& fileName,
                         const std::function<void(const PublishedRun&)>& each);
// Every case at once.
[[nodiscard]] std::vector<PublishedRun> parsePublishedRuns(std::string_view json, const std::string& fileName);

}  // namespace tapestry
