#include "layout/LayoutGraph.h"

#include <cstdio>

namespace tapestry {

namespace {

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + '"';
}

std::string nodeLine(const LayoutGraph& graph, std::size_t index, const char* indent)
{
    const LayoutNode& node = graph.nodes[index];
    std::string line = std::string(indent) + "n" + std::to_string(index) + " [label=" + quoted(node.label) +
                       ", fillcolor=" + quoted(node.fillColor);
    if (!node.tooltip.empty())
        line += ", tooltip=" + quoted(node.tooltip);
    if (node.emphasized)
        line += ", peripheries=2";
    if (node.widthPoints > 0 && node.heightPoints > 0) {
        char size[64];
        std::snprintf(size, sizeof size, ", width=%.3f, height=%.3f, fixedsize=true", node.widthPoints / 72.0,
                      node.heightPoints / 72.0);
        line += size;
    }
    return line + "];\n";
}

}  // namespace

std::string toDot(const LayoutGraph& graph)
{
    std::string dot = "digraph " + quoted(graph.name) + " {\n";
    dot += "  rankdir=TB;\n  nodesep=0.25;\n  ranksep=0.35;\n";
    dot += "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans\", fontsize=10];\n";
    dot += "  edge [arrowsize=0.6, color=\"#666666\"];\n";
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (graph.nodes[i].cluster < 0)
            dot += nodeLine(graph, i, "  ");
    }
    for (std::size_t c = 0; c < graph.clusters.size(); ++c) {
        dot += "  subgraph cluster_" + std::to_string(c) + " {\n";
        dot += "    label=" + quoted(graph.clusters[c].label) + ";\n    style=\"rounded,dashed\";\n    color=\"#888888\";\n";
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            if (graph.nodes[i].cluster == static_cast<int>(c))
                dot += nodeLine(graph, i, "    ");
        }
        dot += "  }\n";
    }
    for (const LayoutEdge& edge : graph.edges)
        dot += "  n" + std::to_string(edge.from) + " -> n" + std::to_string(edge.to) + ";\n";
    dot += "}\n";
    return dot;
}

}  // namespace tapestry
