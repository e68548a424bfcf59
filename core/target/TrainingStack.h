#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapestry {

// The training stack a plan is searched for and written to (targets.md). A plan searched
// for a stack is one that stack runs as is: its exports write exactly that plan.
//   Any         every strategy the cost model prices (ONNX sharding, study); not runnable as is
//   PyTorch     DTensor parallel styles, context_parallel, data parallelism over every data axis
//   Megatron    Megatron-LM's (Megatron-Core's) layout and options
//   TorchTitan  today's torchtitan (its config registry and --section.key overrides)
enum class TrainingStack : std::uint8_t { Any, PyTorch, Megatron, TorchTitan };

// "any", "pytorch", "megatron", "torchtitan": the --target spellings.
[[nodiscard]] const char* trainingStackName(TrainingStack stack);
[[nodiscard]] std::optional<TrainingStack> trainingStackFromName(std::string_view name);
// Every stack, Any first.
[[nodiscard]] const std::vector<TrainingStack>& allTrainingStacks();
// The stack a search targets when nobody says: a runnable one.
inline constexpr TrainingStack kDefaultTrainingStack = TrainingStack::Megatron;

}  // namespace tapestry
