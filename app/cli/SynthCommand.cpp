// `tapestry-cli synth --preset NAME -o FILE [size flags]` and `tapestry-cli synth --list`
#include "cli/Commands.h"
#include "cli/Formatting.h"

#include "base/Error.h"
#include "graph/ParameterCount.h"
#include "onnx/OnnxExporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <array>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>

namespace tapestry::cli {

namespace {

// The families a size flag applies to, one bit per ModelFamily.
using FamilySet = unsigned;
constexpr FamilySet familyBit(ModelFamily family)
{
    return 1u << static_cast<unsigned>(family);
}
constexpr FamilySet kTransformers = familyBit(ModelFamily::Gpt) | familyBit(ModelFamily::Llama) |
                                    familyBit(ModelFamily::Bert) | familyBit(ModelFamily::Vit) |
                                    familyBit(ModelFamily::T5) | familyBit(ModelFamily::Moe);
constexpr FamilySet kEveryFamily = kTransformers | familyBit(ModelFamily::ResNet);
constexpr FamilySet kTokenModels = kTransformers & ~familyBit(ModelFamily::Vit);
constexpr FamilySet kImageModels = familyBit(ModelFamily::Vit) | familyBit(ModelFamily::ResNet);

// A size flag overrides one field of the preset. The limits keep the model within what
// a planner can hold (and every product of sizes within 64 bits).
struct SizeFlag {
    const char* name;
    const char* value;
    std::int64_t ModelSpec::*field;
    std::int64_t max;
    const char* help;
    FamilySet families;  // the builders that read the field (ModelSpec: the others ignore it)
};

constexpr SizeFlag kSizeFlags[] = {
    {"--layers", "N", &ModelSpec::layers, 10'000, "transformer layers (encoder layers for T5)", kTransformers},
    {"--decoder-layers", "N", &ModelSpec::decoderLayers, 10'000, "decoder layers (T5)", familyBit(ModelFamily::T5)},
    {"--hidden", "H", &ModelSpec::hidden, 1 << 20, "hidden size", kEveryFamily},
    {"--heads", "A", &ModelSpec::heads, 1 << 14, "attention heads", kTransformers},
    {"--kv-heads", "K", &ModelSpec::kvHeads, 1 << 14, "key/value heads (grouped-query attention)", kTransformers},
    {"--ffn", "F", &ModelSpec::ffn, 1 << 22, "feed-forward size", kTransformers},
    {"--vocab", "V", &ModelSpec::vocab, 1 << 24, "vocabulary size", kTokenModels},
    {"--max-positions", "P", &ModelSpec::maxPositions, 1 << 24, "the longest sequence (GPT, BERT)",
     familyBit(ModelFamily::Gpt) | familyBit(ModelFamily::Bert)},
    {"--experts", "E", &ModelSpec::experts, 1 << 14, "experts per MoE layer", familyBit(ModelFamily::Moe)},
    {"--top-k", "K", &ModelSpec::topK, 1 << 14, "experts each token is routed to", familyBit(ModelFamily::Moe)},
    {"--image-size", "S", &ModelSpec::imageSize, 1 << 16, "image side in pixels", kImageModels},
    {"--patch-size", "P", &ModelSpec::patchSize, 1 << 16, "patch side in pixels (ViT)", familyBit(ModelFamily::Vit)},
    {"--classes", "C", &ModelSpec::classes, 1 << 24, "output classes", kImageModels},
};
constexpr std::size_t kSizeFlagCount = std::size(kSizeFlags);

struct SynthOptions {
    bool list = false;
    std::string preset;
    std::string output;
    std::array<std::int64_t, kSizeFlagCount> sizes{};  // 0: as the preset says
    std::vector<std::int64_t> stages;
};

std::int64_t sizeGiven(const SynthOptions& options, std::int64_t ModelSpec::*field)
{
    for (std::size_t i = 0; i < kSizeFlagCount; ++i) {
        if (kSizeFlags[i].field == field)
            return options.sizes[i];
    }
    return 0;
}

ModelSpec specFromFlags(const SynthOptions& options, const SynthPreset& preset)
{
    ModelSpec spec = preset.spec;
    const auto refuse = [&](const char* flag) {
        throw Error(ErrorCode::InvalidArgument, {},
                    std::string(flag) + ": preset '" + std::string(preset.name) + "' is a " +
                        std::string(modelFamilyName(preset.spec.family)) +
                        " model, which has no such size (synth --list shows each preset's family)");
    };
    for (std::size_t i = 0; i < kSizeFlagCount; ++i) {
        if (options.sizes[i] == 0)
            continue;
        if ((kSizeFlags[i].families & familyBit(preset.spec.family)) == 0)
            refuse(kSizeFlags[i].name);
        spec.*kSizeFlags[i].field = options.sizes[i];
    }
    if (!options.stages.empty() && preset.spec.family != ModelFamily::ResNet)
        refuse("--stages");
    // Plain multi-head presets stay plain when only --heads changes.
    if (sizeGiven(options, &ModelSpec::heads) > 0 && sizeGiven(options, &ModelSpec::kvHeads) == 0 &&
        preset.spec.kvHeads == preset.spec.heads)
        spec.kvHeads = spec.heads;
    if (!options.stages.empty()) {
        spec.stageBlocks = options.stages;
        spec.layers = 0;
        for (const std::int64_t blocks : spec.stageBlocks)
            spec.layers += blocks;
    }
    return spec;
}

int listPresets()
{
    std::printf("%-14s %-7s %6s %6s %6s %4s %6s %7s %8s  %-10s %s\n", "preset", "family", "layers", "hidden", "heads",
                "kv", "ffn", "vocab", "experts", "params", "description");
    for (const SynthPreset& preset : synthPresets()) {
        const ModelSpec& s = preset.spec;
        const ParameterCount count = countParameters(synthesizeModel(s, std::string(preset.name)));
        const std::string layers = s.family == ModelFamily::T5
                                       ? std::to_string(s.layers) + "+" + std::to_string(s.decoderLayers)
                                       : std::to_string(s.layers);
        std::printf("%-14.*s %-7.*s %6s %6lld %6lld %4lld %6lld %7lld %8s  %-10s %.*s\n",
                    static_cast<int>(preset.name.size()), preset.name.data(),
                    static_cast<int>(modelFamilyName(s.family).size()), modelFamilyName(s.family).data(),
                    layers.c_str(), static_cast<long long>(s.hidden), static_cast<long long>(s.heads),
                    static_cast<long long>(s.kvHeads), static_cast<long long>(s.ffn), static_cast<long long>(s.vocab),
                    s.experts > 0 ? (std::to_string(s.experts) + "/top" + std::to_string(s.topK)).c_str() : "-",
                    humanCount(count.parameters).c_str(), static_cast<int>(preset.description.size()),
                    preset.description.data());
    }
    return 0;
}

int synth(const SynthOptions& options)
{
    if (options.list)
        return listPresets();
    if (options.preset.empty() || options.output.empty())
        throw Error(ErrorCode::InvalidArgument, {}, "--preset and --output are required (or --list)");
    const SynthPreset* preset = findSynthPreset(options.preset);
    if (!preset)
        throw Error(ErrorCode::InvalidArgument, {},
                    "unknown preset '" + options.preset + "' (tapestry-cli synth --list shows them)");

    const ModelSpec spec = specFromFlags(options, *preset);
    const Graph graph = synthesizeModel(spec, std::string(preset->name));
    writeOnnxModel(graph, options.output);
    const ParameterCount count = countParameters(graph);
    std::printf("wrote %s: %.*s with %lld layers, width %lld: %zu ops, %s parameters (%llu) in %llu weights, "
                "%s of external data (not written)\n",
                options.output.c_str(), static_cast<int>(preset->name.size()), preset->name.data(),
                static_cast<long long>(spec.layers), static_cast<long long>(spec.hidden), graph.opCount(),
                humanCount(count.parameters).c_str(),
                static_cast<unsigned long long>(count.parameters), static_cast<unsigned long long>(count.weights),
                humanBytes(count.bytes).c_str());
    return 0;
}

}  // namespace

Command declareSynth(CLI::App& app)
{
    auto options = std::make_shared<SynthOptions>();
    CLI::App* command = app.add_subcommand(
        "synth", "write a reference architecture as ONNX (shapes only, no weights); --list shows the presets; the "
                 "size flags override the preset's sizes");
    command->add_flag("--list", options->list, "list the presets and their sizes");
    command->add_option("--preset", options->preset, "the architecture (see --list)")->type_name("NAME");
    command->add_option("-o,--output", options->output, "the ONNX file to write")->type_name("FILE");
    for (std::size_t i = 0; i < kSizeFlagCount; ++i) {
        const SizeFlag& flag = kSizeFlags[i];
        command->add_option(flag.name, options->sizes[i], flag.help)
            ->type_name(flag.value)
            ->check(wholeNumber(1, flag.max));
    }
    command->add_option("--stages", options->stages, "ResNet bottleneck blocks per stage")
        ->type_name("N,N,...")
        ->delimiter(',')
        ->check(wholeNumber(1, 10'000));
    return {command, [options] { return synth(*options); }};
}

}  // namespace tapestry::cli
