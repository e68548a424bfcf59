#include "target/TrainingStack.h"

namespace tapestry {

const char* trainingStackName(TrainingStack stack)
{
    switch (stack) {
    case TrainingStack::Any: return "any";
    case TrainingStack::PyTorch: return "pytorch";
    case TrainingStack::Megatron: return "megatron";
    case TrainingStack::TorchTitan: return "torchtitan";
    }
    return "any";
}

std::optional<TrainingStack> trainingStackFromName(std::string_view name)
{
    for (const TrainingStack stack : allTrainingStacks())
        if (name == trainingStackName(stack))
            return stack;
    return std::nullopt;
}

const std::vector<TrainingStack>& allTrainingStacks()
{
    static const std::vector<TrainingStack> stacks = {TrainingStack::Any, TrainingStack::PyTorch,
                                                      TrainingStack::Megatron, TrainingStack::TorchTitan};
    return stacks;
}

}  // namespace tapestry
