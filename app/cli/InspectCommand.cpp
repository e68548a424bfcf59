// `tapestry-cli inspect FILE [--json] [--scope-depth N]`
#include "cli/Commands.h"
#include "cli/Formatting.h"

#include "base/JsonWriter.h"
#include "graph/ModelSummary.h"
#include "onnx/OnnxImporter.h"

#include <cstdio>
#include <memory>
#include <string>

namespace tapestry::cli {

namespace {

std::string opsetText(const ModelInfo& info)
{
    std::string text;
    for (const OpsetImport& opset : info.opsetImports) {
        if (!text.empty())
            text += ", ";
        text += (opset.domain.empty() ? std::string("ai.onnx") : opset.domain) + " " + std::to_string(opset.version);
    }
    return text;
}

void printText(const ModelSummary& s)
{
    const ModelInfo& info = s.info;
    std::printf("model        %s\n", info.sourcePath.c_str());
    std::printf("producer     %s %s\n", info.producerName.c_str(), info.producerVersion.c_str());
    std::printf("ONNX IR      %lld   opsets: %s\n", static_cast<long long>(info.irVersion), opsetText(info).c_str());
    std::printf("shapes       %s\n", info.shapesInferred ? "inferred by ONNX shape inference" : "from the file");
    if (!info.unsizedOps.empty()) {
        std::printf("not priced   %zu op(s) whose operand shapes could not be inferred:\n", info.unsizedOps.size());
        for (const std::string& op : info.unsizedOps)
            std::printf("               %s\n", op.c_str());
    }
    std::printf("ops          %zu   tensors: %zu   initializers: %zu\n", s.opCount, s.tensorCount,
                s.initializerCount);
    std::printf("parameters   %s (%llu)   %s in %llu weights\n", humanCount(s.parameters.parameters).c_str(),
                static_cast<unsigned long long>(s.parameters.parameters), humanBytes(s.parameters.bytes).c_str(),
                static_cast<unsigned long long>(s.parameters.weights));

    std::printf("\ninputs\n");
    for (const ValueSummary& v : s.inputs)
        std::printf("  %-32s %-9s %s\n", v.name.c_str(), std::string(dataTypeName(v.dtype)).c_str(),
                    v.shape.toString().c_str());
    std::printf("outputs\n");
    for (const ValueSummary& v : s.outputs)
        std::printf("  %-32s %-9s %s\n", v.name.c_str(), std::string(dataTypeName(v.dtype)).c_str(),
                    v.shape.toString().c_str());

    std::printf("\nop histogram\n");
    for (const OpTypeCount& entry : s.opHistogram)
        std::printf("  %-24s %6llu\n", entry.type.c_str(), static_cast<unsigned long long>(entry.count));

    std::printf("\nscopes (ops, including nested scopes)\n");
    if (s.scopes.empty())
        std::printf("  (the model carries no module scopes)\n");
    for (const ScopeSummary& scope : s.scopes) {
        const std::size_t slash = scope.path.rfind('/');
        const std::string name = slash == std::string::npos ? scope.path : scope.path.substr(slash + 1);
        std::printf("  %*s%-*s %6u\n", static_cast<int>(2 * (scope.depth - 1)), "",
                    static_cast<int>(40 - 2 * (scope.depth - 1)), name.c_str(), scope.opCount);
    }
}

void writeValues(JsonWriter& json, const std::vector<ValueSummary>& values)
{
    json.beginArray();
    for (const ValueSummary& v : values) {
        json.beginObject().key("name").value(v.name).key("dtype").value(dataTypeName(v.dtype)).key("shape");
        if (!v.shape.isRankKnown()) {
            json.null();
        } else {
            json.beginArray();
            for (const Dimension& d : v.shape.dims()) {
                if (d.isKnown())
                    json.value(d.value);
                else if (d.isSymbolic())
                    json.value(d.symbol);
                else
                    json.null();
            }
            json.endArray();
        }
        json.endObject();
    }
    json.endArray();
}

void printJson(const ModelSummary& s)
{
    JsonWriter json;
    json.beginObject();
    json.key("file").value(s.info.sourcePath);
    json.key("producer").value(s.info.producerName);
    json.key("producer_version").value(s.info.producerVersion);
    json.key("ir_version").value(s.info.irVersion);
    json.key("opsets").beginObject();
    for (const OpsetImport& opset : s.info.opsetImports)
        json.key(opset.domain.empty() ? std::string("ai.onnx") : opset.domain).value(opset.version);
    json.endObject();
    json.key("shapes_inferred").value(s.info.shapesInferred);
    json.key("unsized_ops").beginArray();
    for (const std::string& op : s.info.unsizedOps)
        json.value(op);
    json.endArray();
    json.key("ops").value(static_cast<std::uint64_t>(s.opCount));
    json.key("tensors").value(static_cast<std::uint64_t>(s.tensorCount));
    json.key("initializers").value(static_cast<std::uint64_t>(s.initializerCount));
    json.key("parameters").value(s.parameters.parameters);
    json.key("parameter_bytes").value(s.parameters.bytes);
    json.key("inputs");
    writeValues(json, s.inputs);
    json.key("outputs");
    writeValues(json, s.outputs);
    json.key("op_histogram").beginObject();
    for (const OpTypeCount& entry : s.opHistogram)
        json.key(entry.type).value(entry.count);
    json.endObject();
    json.key("scopes").beginArray();
    for (const ScopeSummary& scope : s.scopes)
        json.beginObject()
            .key("path")
            .value(scope.path)
            .key("depth")
            .value(static_cast<std::uint64_t>(scope.depth))
            .key("ops")
            .value(static_cast<std::uint64_t>(scope.opCount))
            .endObject();
    json.endArray();
    json.endObject();
    std::fputs(json.text().c_str(), stdout);
}

}  // namespace

Command declareInspect(CLI::App& app)
{
    struct Options {
        std::string file;
        bool json = false;
        std::size_t scopeDepth = 2;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "inspect", "describe an ONNX model: producer, IR and opsets, op histogram, parameters, inputs and outputs, "
                   "the top of its module scope tree");
    command->add_option("FILE", options->file, "the ONNX model")->required();
    command->add_flag("--json", options->json, "print JSON");
    command->add_option("--scope-depth", options->scopeDepth, "levels of the scope tree shown (default 2)")
        ->type_name("N")
        ->check(wholeNumber(1, 1000));
    return {command, [options] {
                const Graph graph = importOnnxModel(options->file);
                const ModelSummary summary = summarizeModel(graph, options->scopeDepth);
                if (options->json)
                    printJson(summary);
                else
                    printText(summary);
                return 0;
            }};
}

}  // namespace tapestry::cli
