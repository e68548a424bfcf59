#include "cost/AttentionKernelNames.h"

#include <algorithm>
#include <iterator>

namespace tapestry {

namespace {

struct AttentionKernelWord {
    const char* name;
    AttentionKernel kernel;
    bool planFiles;  // read by plan files and the command line
    bool runFiles;   // read by the run format
    // Where the word is refused: what to write instead.
    std::string_view elsewhere;
};

// Each kernel's own name first (the one written), then the older words.
constexpr AttentionKernelWord kWords[] = {
    {"flash2", AttentionKernel::FlashAttention2, true, true, {}},
    {"cudnn", AttentionKernel::Cudnn, true, true, {}},
    {"triton", AttentionKernel::Triton, true, true, {}},
    {"flash1", AttentionKernel::FlashAttention1, true, true, {}},
    {"unfused", AttentionKernel::Unfused, true, true, {}},
    {"fused", AttentionKernel::FlashAttention2, true, false,
     "Megatron-LM's fused attention backend is cuDNN's (cudnn); FlashAttention-2 is flash2"},
    {"flash", AttentionKernel::FlashAttention1, false, true,
     "write flash2 for FlashAttention-2 or flash1 for FlashAttention 1.x"},
};

bool reads(const AttentionKernelWord& word, AttentionNameReader reader)
{
    return reader == AttentionNameReader::PlanFile ? word.planFiles : word.runFiles;
}

}  // namespace

const char* attentionKernelName(AttentionKernel kernel)
{
    const auto own = std::find_if(std::begin(kWords), std::end(kWords),
                                  [&](const AttentionKernelWord& word) { return word.kernel == kernel; });
    return own->name;  // every kernel has a word
}

std::optional<AttentionKernel> attentionKernelFromName(std::string_view name, AttentionNameReader reader)
{
    for (const AttentionKernelWord& word : kWords) {
        if (std::string_view(word.name) == name && reads(word, reader))
            return word.kernel;
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, AttentionKernel>> attentionKernelChoices(AttentionNameReader reader)
{
    std::vector<std::pair<std::string, AttentionKernel>> choices;
    for (const AttentionKernelWord& word : kWords) {
        if (reads(word, reader))
            choices.emplace_back(word.name, word.kernel);
    }
    return choices;
}

std::string acceptedAttentionKernelNames(AttentionNameReader reader)
{
    const std::vector<std::pair<std::string, AttentionKernel>> choices = attentionKernelChoices(reader);
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const auto& [name, kernel] = choices[i];
        list += i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ";
        list += name;
        if (name != attentionKernelName(kernel))
            list += std::string(" (read as ") + attentionKernelName(kernel) + ")";
    }
    return list;
}

std::string attentionKernelRefusal(std::string_view name, AttentionNameReader reader)
{
    std::string text = "is '" + std::string(name) + "', not " + acceptedAttentionKernelNames(reader);
    for (const AttentionKernelWord& word : kWords) {
        if (std::string_view(word.name) == name && !reads(word, reader))
            text += ": " + std::string(word.elsewhere);
    }
    return text;
}

}  // namespace tapestry
