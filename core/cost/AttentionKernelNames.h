#pragma once

#include "cost/Workload.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tapestry {

// One vocabulary for the attention kernels (AttentionKernel), read by plan files and the
// command line (`--attention`) and by the run format of `validate` and `calibrate`
// (../shared/validation). Each kernel has one name, written everywhere: flash2
// (FlashAttention-2), cudnn, triton, flash1 (FlashAttention 1.x), unfused. Two older
// words are read where they always were and refused elsewhere, with what to write:
// "fused", FlashAttention-2 in plan files and on the command line before session 15 (a run
// file, transcribed from a recipe, may mean Megatron-LM's --attention-backend fused, which
// is cuDNN's), and "flash", FlashAttention 1.x in run files (with a note: plainFlashNote;
// a plan file never wrote it, and a hand-written one may mean either generation).
enum class AttentionNameReader : std::uint8_t {
    PlanFile,  // plan files, the history's workload column and the command line
    RunFile,   // validate's and calibrate's measured runs
};

// The name written for `kernel`: "flash2", "cudnn", "triton", "flash1" or "unfused".
[[nodiscard]] const char* attentionKernelName(AttentionKernel kernel);

// The kernel `name` is read as where `reader` reads it; nullopt for a name it refuses
// (attentionKernelRefusal says why).
[[nodiscard]] std::optional<AttentionKernel> attentionKernelFromName(std::string_view name,
                                                                     AttentionNameReader reader);

// Every name `reader` accepts, each with its kernel, the kernels' own names first: what the
// command line offers as `--attention`'s choices.
[[nodiscard]] std::vector<std::pair<std::string, AttentionKernel>> attentionKernelChoices(AttentionNameReader reader);

// The names `reader` accepts, as an error lists them: "flash2, cudnn, triton, flash1,
// unfused or fused (read as flash2)".
[[nodiscard]] std::string acceptedAttentionKernelNames(AttentionNameReader reader);

// Why `name` is refused where `reader` reads it: "is 'X', not <the accepted names>", and
// for a word the other reader takes, what to write instead.
[[nodiscard]] std::string attentionKernelRefusal(std::string_view name, AttentionNameReader reader);

}  // namespace tapestry
