// `tapestry-cli fold FILE [--json] [--dot OUT.dot]`
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/JsonWriter.h"
#include "fold/FoldedGraph.h"
#include "layout/FoldViews.h"

#include <cstdio>
#include <memory>

namespace tapestry::cli {

namespace {

std::size_t anchorsOutsideFamilies(const CoarseGraph& coarse, const FamilyTable& families)
{
    std::size_t count = 0;
    for (const CoarseNodeId id : families.unfoldedNodes)
        count += isAnchorKind(coarse.node(id).kind) ? 1 : 0;
    return count;
}

double foldRatio(const Graph& graph, const FamilyTable& families)
{
    return families.decisionAnchors == 0 ? 0.0
                                         : static_cast<double>(graph.opCount()) /
                                               static_cast<double>(families.decisionAnchors);
}

void printText(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families)
{
    std::printf("model          %s\n", graph.info().sourcePath.c_str());
    std::printf("ops            %zu\n", graph.opCount());
    std::printf("coarse nodes   %zu (%zu anchors)\n", coarse.nodes.size(), coarse.anchorCount());
    std::printf("\nfamilies\n");
    if (families.families.empty())
        std::printf("  (no repeated blocks found)\n");
    for (const Family& family : families.families) {
        const int indent = family.parent.isValid() ? 4 : 2;
        std::printf("%*s%-44s x%-4zu %3zu anchors  first %s, last %s\n", indent, "", family.name.c_str(),
                    family.multiplicity(), family.anchors.size(), family.representative().scope.c_str(),
                    family.instances.back().scope.c_str());
        for (const FamilyVariant& variant : family.foldedVariants)
            std::printf("%*sfolded, differs only in plan-neutral ops: %s (%s)\n", indent + 4, "",
                        variant.instance.scope.c_str(), variant.difference.c_str());
        for (const FamilyVariant& variant : family.variants)
            std::printf("%*snear-identical, not folded: %s (%s)\n", indent + 4, "", variant.instance.scope.c_str(),
                        variant.difference.c_str());
    }
    std::printf("\nanchors outside families   %zu\n", anchorsOutsideFamilies(coarse, families));
    std::printf("anchors to decide          %zu\n", families.decisionAnchors);
    std::printf("fold ratio                 %.1f (ops per anchor the searcher decides)\n",
                foldRatio(graph, families));
}

void printJson(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families)
{
    JsonWriter json;
    json.beginObject();
    json.key("file").value(graph.info().sourcePath);
    json.key("ops").value(static_cast<std::uint64_t>(graph.opCount()));
    json.key("coarse_nodes").value(static_cast<std::uint64_t>(coarse.nodes.size()));
    json.key("anchors").value(static_cast<std::uint64_t>(coarse.anchorCount()));
    json.key("families").beginArray();
    for (const Family& family : families.families) {
        json.beginObject();
        json.key("name").value(family.name);
        json.key("multiplicity").value(static_cast<std::uint64_t>(family.multiplicity()));
        if (family.parent.isValid())
            json.key("parent").value(families.family(family.parent).name);
        json.key("instances").beginArray();
        for (const BlockInstance& instance : family.instances)
            json.value(instance.scope);
        json.endArray();
        json.key("anchors").beginArray();
        for (const CoarseNodeId id : family.anchors) {
            const CoarseNode& node = coarse.node(id);
            json.beginObject().key("name").value(node.name).key("kind").value(coarseNodeKindName(node.kind)).endObject();
        }
        json.endArray();
        for (const auto& [key, variants] : {std::pair{"variants", &family.variants},
                                            std::pair{"folded_variants", &family.foldedVariants}}) {
            json.key(key).beginArray();
            for (const FamilyVariant& variant : *variants)
                json.beginObject().key("instance").value(variant.instance.scope).key("difference").value(variant.difference).endObject();
            json.endArray();
        }
        json.endObject();
    }
    json.endArray();
    json.key("anchors_outside_families").value(static_cast<std::uint64_t>(anchorsOutsideFamilies(coarse, families)));
    json.key("decision_anchors").value(static_cast<std::uint64_t>(families.decisionAnchors));
    json.key("fold_ratio").value(foldRatio(graph, families));
    json.endObject();
    std::fputs(json.text().c_str(), stdout);
}

void writeDot(const std::string& path, const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families)
{
    writeFileAtomically(path, toDot(foldedLayoutGraph(graph, coarse, families, buildFoldedGraph(coarse, families))));
}

}  // namespace

Command declareFold(CLI::App& app)
{
    struct Options {
        std::string file;
        bool json = false;
        std::string dot;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "fold", "fold the model to its repeated blocks (TAP): families with their multiplicity and anchors, the fold "
                "ratio; --dot writes the folded graph");
    command->add_option("FILE", options->file, "the ONNX model")->required();
    command->add_flag("--json", options->json, "print JSON");
    command->add_option("--dot", options->dot, "write the folded graph in Graphviz DOT")->type_name("OUT.dot");
    return {command, [options] {
                const FoldedModel model = loadAndFold(options->file);
                if (!options->dot.empty())
                    writeDot(options->dot, model.graph(), model.coarse, model.families);
                if (options->json)
                    printJson(model.graph(), model.coarse, model.families);
                else
                    printText(model.graph(), model.coarse, model.families);
                return 0;
            }};
}

}  // namespace tapestry::cli
