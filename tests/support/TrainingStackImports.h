#pragma once

// What the training-stack export tests share: text checks and the import of a file they
// know to be Megatron-LM arguments or a torchtitan config.
#include "export/TrainingStackImport.h"

#include <stdexcept>
#include <string>

namespace tapestry::test {

inline bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// importTrainingStackPlan's result; throws when `fileName` was not recognized as either stack's.
inline TrainingStackImport imported(const std::string& text, const std::string& fileName, const FoldedModel& m,
                                    int gpus)
{
    std::optional<TrainingStackImport> result = importTrainingStackPlan(text, fileName, m, gpus);
    if (!result)
        throw std::runtime_error(fileName + " was not recognized");
    return std::move(*result);
}

}  // namespace tapestry::test
