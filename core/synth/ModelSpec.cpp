#include "synth/ModelSpec.h"

#include "base/Error.h"

namespace tapestry {

namespace {

[[noreturn]] void reject(const std::string& message)
{
    throw Error(ErrorCode::InvalidArgument, {}, message);
}

void requirePositive(std::int64_t value, const char* field)
{
    if (value <= 0)
        reject(std::string(field) + " must be positive, got " + std::to_string(value));
}

void validateAttention(const ModelSpec& spec)
{
    requirePositive(spec.hidden, "hidden");
    requirePositive(spec.heads, "heads");
    if (spec.hidden % spec.heads != 0)
        reject("hidden size " + std::to_string(spec.hidden) + " is not divisible by " + std::to_string(spec.heads) +
               " heads");
    requirePositive(spec.ffn, "ffn");
}

void validateRotaryWithGqa(const ModelSpec& spec)
{
    requirePositive(spec.kvHeads, "kv-heads");
    if (spec.kvHeads > spec.heads || spec.heads % spec.kvHeads != 0)
        reject(std::to_string(spec.heads) + " heads cannot be shared evenly by " + std::to_string(spec.kvHeads) +
               " key/value heads");
    if ((spec.hidden / spec.heads) % 2 != 0)
        reject("rotary positions need an even head size, got " + std::to_string(spec.hidden / spec.heads));
}

}  // namespace

std::string_view modelFamilyName(ModelFamily family)
{
    switch (family) {
    case ModelFamily::Gpt: return "gpt";
    case ModelFamily::Llama: return "llama";
    case ModelFamily::Bert: return "bert";
    case ModelFamily::Vit: return "vit";
    case ModelFamily::T5: return "t5";
    case ModelFamily::Moe: return "moe";
    case ModelFamily::ResNet: return "resnet";
    }
    return "unknown";
}

void validateModelSpec(const ModelSpec& spec)
{
    if (spec.family == ModelFamily::ResNet) {
        requirePositive(spec.hidden, "hidden");
        requirePositive(spec.classes, "classes");
        if (spec.stageBlocks.empty())
            reject("a ResNet needs at least one stage");
        for (const std::int64_t blocks : spec.stageBlocks)
            requirePositive(blocks, "blocks per stage");
        // Stem (4) and every stage after the first (2 each) halve the image.
        const std::int64_t stride = std::int64_t{4} << (spec.stageBlocks.size() - 1);
        requirePositive(spec.imageSize, "image-size");
        if (spec.imageSize % stride != 0)
            reject("image size " + std::to_string(spec.imageSize) + " is not divisible by the total stride " +
                   std::to_string(stride));
        return;
    }

    requirePositive(spec.layers, "layers");
    validateAttention(spec);
    switch (spec.family) {
    case ModelFamily::Gpt:
    case ModelFamily::Bert:
        requirePositive(spec.vocab, "vocab");
        requirePositive(spec.maxPositions, "max-positions");
        break;
    case ModelFamily::Llama:
        requirePositive(spec.vocab, "vocab");
        validateRotaryWithGqa(spec);
        break;
    case ModelFamily::Moe:
        requirePositive(spec.vocab, "vocab");
        validateRotaryWithGqa(spec);
        requirePositive(spec.experts, "experts");
        requirePositive(spec.topK, "top-k");
        if (spec.topK > spec.experts)
            reject("top-k " + std::to_string(spec.topK) + " exceeds the " + std::to_string(spec.experts) + " experts");
        break;
    case ModelFamily::T5:
        requirePositive(spec.vocab, "vocab");
        requirePositive(spec.decoderLayers, "decoder-layers");
        break;
    case ModelFamily::Vit:
        requirePositive(spec.classes, "classes");
        requirePositive(spec.patchSize, "patch-size");
        requirePositive(spec.imageSize, "image-size");
        if (spec.imageSize % spec.patchSize != 0)
            reject("image size " + std::to_string(spec.imageSize) + " is not divisible by the patch size " +
                   std::to_string(spec.patchSize));
        break;
    case ModelFamily::ResNet: break;
    }
}

}  // namespace tapestry
