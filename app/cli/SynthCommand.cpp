// `tapestry-cli synth --preset NAME -o FILE [size flags]` and `tapestry-cli synth --list`
#include "cli/CommandLine.h"
#include "cli/Commands.h"
#include "cli/Formatting.h"

#include "base/Error.h"
#include "graph/ParameterCount.h"
#include "onnx/OnnxExporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <cstdio>
#include <string>

namespace tapestry::cli {

namespace {

constexpr const char* kSynthUsage =
    "usage: tapestry-cli synth --preset NAME (-o|--output) FILE [size flags]\n"
    "       tapestry-cli synth --list\n"
    "size flags override the preset: --layers --decoder-layers --hidden --heads --kv-heads\n"
    "  --ffn --vocab --max-positions --experts --top-k --image-size --patch-size --classes\n"
    "  --stages N,N,... (ResNet bottlenecks per stage)\n";

struct SizeFlag {
    std::string_view name;
    std::int64_t ModelSpec::*field;
};

constexpr SizeFlag kSizeFlags[] = {
    {"layers", &ModelSpec::layers},
    {"decoder-layers", &ModelSpec::decoderLayers},
    {"hidden", &ModelSpec::hidden},
    {"heads", &ModelSpec::heads},
    {"kv-heads", &ModelSpec::kvHeads},
    {"ffn", &ModelSpec::ffn},
    {"vocab", &ModelSpec::vocab},
    {"max-positions", &ModelSpec::maxPositions},
    {"experts", &ModelSpec::experts},
    {"top-k", &ModelSpec::topK},
    {"image-size", &ModelSpec::imageSize},
    {"patch-size", &ModelSpec::patchSize},
    {"classes", &ModelSpec::classes},
};

std::vector<std::int64_t> parseStages(const std::string& text)
{
    std::vector<std::int64_t> stages;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::size_t end = comma == std::string::npos ? text.size() : comma;
        stages.push_back(static_cast<std::int64_t>(parseCount(text.substr(start, end - start), "stages")));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return stages;
}

ModelSpec specFromFlags(const CommandLine& line, const SynthPreset& preset)
{
    ModelSpec spec = preset.spec;
    const bool headsGiven = line.option("heads").has_value();
    for (const SizeFlag& flag : kSizeFlags) {
        if (const auto value = line.option(flag.name))
            spec.*flag.field = static_cast<std::int64_t>(parseCount(*value, flag.name));
    }
    // Plain multi-head presets stay plain when only --heads changes.
    if (headsGiven && !line.option("kv-heads") && preset.spec.kvHeads == preset.spec.heads)
        spec.kvHeads = spec.heads;
    if (const auto stages = line.option("stages")) {
        spec.stageBlocks = parseStages(*stages);
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

}  // namespace

int runSynth(const std::vector<std::string>& args)
{
    const CommandLine line(args, {"list", "help"});
    std::vector<std::string_view> known = {"list", "help", "preset", "output", "stages"};
    for (const SizeFlag& flag : kSizeFlags)
        known.push_back(flag.name);
    line.rejectUnknown(known);
    if (line.hasFlag("help")) {
        std::fputs(kSynthUsage, stdout);
        return 0;
    }
    if (line.hasFlag("list"))
        return listPresets();
    if (!line.positionals().empty())
        throw Error(ErrorCode::InvalidArgument, {}, "unexpected argument '" + line.positionals().front() + "'");

    const auto presetName = line.option("preset");
    const auto output = line.option("output");
    if (!presetName || !output)
        throw Error(ErrorCode::InvalidArgument, {}, std::string("--preset and --output are required\n") + kSynthUsage);
    const SynthPreset* preset = findSynthPreset(*presetName);
    if (!preset)
        throw Error(ErrorCode::InvalidArgument, {},
                    "unknown preset '" + *presetName + "' (tapestry-cli synth --list shows them)");

    const ModelSpec spec = specFromFlags(line, *preset);
    const Graph graph = synthesizeModel(spec, std::string(preset->name));
    writeOnnxModel(graph, *output);
    const ParameterCount count = countParameters(graph);
    std::printf("wrote %s: %.*s with %lld layers, width %lld: %zu ops, %s parameters (%llu) in %llu weights, "
                "%s of external data (not written)\n",
                output->c_str(), static_cast<int>(preset->name.size()), preset->name.data(),
                static_cast<long long>(spec.layers), static_cast<long long>(spec.hidden), graph.opCount(),
                humanCount(count.parameters).c_str(),
                static_cast<unsigned long long>(count.parameters), static_cast<unsigned long long>(count.weights),
                humanBytes(count.bytes).c_str());
    return 0;
}

}  // namespace tapestry::cli
