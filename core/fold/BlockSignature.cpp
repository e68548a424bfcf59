#include "fold/BlockSignature.h"

#include "graph/Graph.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace tapestry {

namespace {

// Appends `value` as std::to_string writes it, without a string of its own (a deep
// model's blocks append a number per dimension of every op's output).
void appendNumber(std::string& out, std::int64_t value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, end);
}

// `withSymbols` false: only known extents count. An op's output follows from its
// inputs; its symbols are labels, and at a graph output they are the exporter's own
// ("LayerNormalizationlast_hidden_state_dim_0" where the layer before says "batch").
void appendShape(std::string& out, const TensorShape& shape, bool withSymbols = true)
{
    if (!shape.isRankKnown()) {
        out += '?';
        return;
    }
    out += '[';
    for (const Dimension& d : shape.dims()) {
        if (d.isKnown())
            appendNumber(out, d.value);
        else if (withSymbols && d.isSymbolic() && d.symbol.rfind("unk__", 0) != 0)
            out += d.symbol;
        else
            out += '?';
        out += ',';
    }
    out += ']';
}

bool isConstantInput(const Graph& graph, const CoarseGraph& coarse, TensorId id)
{
    const Tensor& tensor = graph.tensor(id);
    return tensor.role == TensorRole::Initializer ||
           (tensor.producer.isValid() && coarse.roles[tensor.producer.index()] == OpRole::Auxiliary);
}

// Ops that move or mask activations without changing what a plan can split: copies,
// views and re-layouts (Swin's cyclic shift is Slice + Concat) and elementwise ops
// with a constant operand (an attention mask, a scale).
bool isPlanNeutral(const Graph& graph, const CoarseGraph& coarse, const Op& op)
{
    static const std::set<std::string> layout = {"Slice",   "Concat",  "Reshape", "Transpose", "Squeeze",
                                                 "Unsqueeze", "Flatten", "Identity", "Pad",      "Expand"};
    static const std::set<std::string> binary = {"Add", "Sub", "Mul", "Div", "Where"};
    if (!op.domain.empty())
        return false;
    if (layout.contains(op.type))
        return true;
    return binary.contains(op.type) && std::any_of(op.inputs.begin(), op.inputs.end(), [&](TensorId id) {
               return id.isValid() && isConstantInput(graph, coarse, id);
           });
}

void appendAttribute(std::string& out, const Attribute& attribute)
{
    out += attribute.name;
    out += '=';
    std::visit(
        [&out](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::int64_t>) {
                appendNumber(out, value);
            } else if constexpr (std::is_same_v<T, double>) {
                out += std::to_string(value);
            } else if constexpr (std::is_same_v<T, std::string>) {
                out += value;
            } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
                for (const auto v : value) {
                    appendNumber(out, v);
                    out += ',';
                }
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
                for (const auto v : value)
                    out += std::to_string(v) + ',';
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                for (const auto& v : value)
                    out += v + ',';
            } else if constexpr (std::is_same_v<T, AttributeTensor>) {
                out += "tensor" + std::string(dataTypeName(value.dtype));
                for (const auto d : value.dims) {
                    out += ',';
                    appendNumber(out, d);
                }
                for (const auto v : value.int64Values) {
                    out += ':';
                    appendNumber(out, v);
                }
            } else {
                out += "graph";
            }
        },
        attribute.value);
    out += ';';
}

std::map<std::string, int> opTypeHistogram(const Graph& graph, const CoarseGraph& coarse,
                                           const std::vector<CoarseNodeId>& nodes)
{
    std::map<std::string, int> histogram;
    for (const CoarseNodeId id : nodes) {
        for (const OpId op : coarse.node(id).ops)
            ++histogram[graph.op(op).type];
    }
    return histogram;
}

}  // namespace

std::string blockSignature(const Graph& graph, const CoarseGraph& coarse, const std::vector<CoarseNodeId>& nodes)
{
    // Position of each activation op inside the block, sorted by op: (op, node index,
    // op index).
    std::vector<std::tuple<std::uint32_t, std::size_t, std::size_t>> position;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const CoarseNode& node = coarse.node(nodes[n]);
        for (std::size_t o = 0; o < node.ops.size(); ++o)
            position.emplace_back(node.ops[o].value(), n, o);
    }
    std::sort(position.begin(), position.end());
    // The op's last entry (as a map assigned in that order would keep), or none.
    const auto positionOf = [&](OpId op) -> const std::tuple<std::uint32_t, std::size_t, std::size_t>* {
        auto at = std::upper_bound(position.begin(), position.end(), op.value(),
                                   [](std::uint32_t value, const auto& entry) { return value < std::get<0>(entry); });
        if (at == position.begin() || std::get<0>(*--at) != op.value())
            return nullptr;
        return &*at;
    };
    std::string out;
    for (const CoarseNodeId id : nodes) {
        const CoarseNode& node = coarse.node(id);
        out += '{';
        out += coarseNodeKindName(node.kind);
        for (const OpId opId : node.ops) {
            const Op& op = graph.op(opId);
            out += '|';
            out += op.domain;
            out += op.type;
            out += '(';
            for (const Attribute& attribute : op.attributes)
                appendAttribute(out, attribute);
            out += ")<";
            for (const TensorId input : op.inputs) {
                if (!input.isValid()) {
                    out += "-,";
                    continue;
                }
                const Tensor& tensor = graph.tensor(input);
                const auto* local = tensor.producer.isValid() ? positionOf(tensor.producer) : nullptr;
                if (local) {
                    const Op& producer = graph.op(tensor.producer);
                    std::size_t outputIndex = 0;
                    while (producer.outputs[outputIndex] != input)
                        ++outputIndex;
                    out += 'L';
                    appendNumber(out, static_cast<std::int64_t>(std::get<1>(*local)));
                    out += '.';
                    appendNumber(out, static_cast<std::int64_t>(std::get<2>(*local)));
                    out += '.';
                    appendNumber(out, static_cast<std::int64_t>(outputIndex));
                } else {
                    const bool constant = isConstantInput(graph, coarse, input);
                    // Graph input or another node's output: both are the block's input.
                    out += constant ? 'C' : 'X';
                    appendShape(out, tensor.shape);
                }
                out += ',';
            }
            out += ">";
            for (const TensorId output : op.outputs) {
                if (output.isValid())
                    appendShape(out, graph.tensor(output).shape, false);
            }
        }
        out += '}';
    }
    return out;
}

std::string structuralSignature(const Graph& graph, const CoarseGraph& coarse, const std::vector<CoarseNodeId>& nodes)
{
    std::unordered_map<std::uint32_t, std::size_t> position;
    for (std::size_t n = 0; n < nodes.size(); ++n)
        position[nodes[n].value()] = n;
    std::string out;
    for (const CoarseNodeId id : nodes) {
        const CoarseNode& node = coarse.node(id);
        out += '{';
        out += coarseNodeKindName(node.kind);
        std::set<std::size_t> reads;
        bool readsOutside = false;
        for (const OpId opId : node.ops) {
            const Op& op = graph.op(opId);
            for (const TensorId input : op.inputs) {
                if (!input.isValid() || isConstantInput(graph, coarse, input))
                    continue;
                const OpId producer = graph.tensor(input).producer;
                const auto local = producer.isValid() ? position.find(coarse.nodeOf[producer.index()].value())
                                                      : position.end();
                if (local == position.end())
                    readsOutside = true;
                else if (local->second != position.at(id.value()))
                    reads.insert(local->second);
            }
            if (isPlanNeutral(graph, coarse, op))
                continue;
            out += '|';
            out += op.domain;
            out += op.type;
            out += '(';
            for (const Attribute& attribute : op.attributes)
                appendAttribute(out, attribute);
            out += ')';
            if (opId == node.anchor) {
                for (const TensorId input : op.inputs) {
                    if (input.isValid())
                        appendShape(out, graph.tensor(input).shape, false);
                }
            }
            out += '>';
            for (const TensorId output : op.outputs) {
                if (output.isValid())
                    appendShape(out, graph.tensor(output).shape, false);
            }
        }
        out += '<';
        for (const std::size_t n : reads)
            out += std::to_string(n) + ',';
        out += readsOutside ? "X}" : "}";
    }
    return out;
}

std::string anchorSignature(const Graph& graph, const CoarseGraph& coarse, const std::vector<CoarseNodeId>& nodes)
{
    std::string out;
    for (const CoarseNodeId id : nodes) {
        const CoarseNode& node = coarse.node(id);
        if (!node.anchor.isValid())
            continue;
        const Op& anchor = graph.op(node.anchor);
        out += coarseNodeKindName(node.kind);
        out += ':';
        out += anchor.type;
        for (const TensorId input : anchor.inputs) {
            if (input.isValid())
                appendShape(out, graph.tensor(input).shape);
        }
        out += ';';
    }
    return out;
}

std::string describeBlockDifference(const Graph& graph, const CoarseGraph& coarse,
                                    const std::vector<CoarseNodeId>& block, const std::vector<CoarseNodeId>& reference)
{
    const auto mine = opTypeHistogram(graph, coarse, block);
    const auto theirs = opTypeHistogram(graph, coarse, reference);
    std::string added;
    std::string removed;
    for (const auto& [type, count] : mine) {
        const auto it = theirs.find(type);
        const int delta = count - (it == theirs.end() ? 0 : it->second);
        if (delta > 0)
            added += (added.empty() ? "+" : ", +") + std::to_string(delta) + ' ' + type;
    }
    for (const auto& [type, count] : theirs) {
        const auto it = mine.find(type);
        const int delta = count - (it == mine.end() ? 0 : it->second);
        if (delta > 0)
            removed += (removed.empty() ? "-" : ", -") + std::to_string(delta) + ' ' + type;
    }
    if (added.empty() && removed.empty())
        return "same ops, different shapes, attributes or wiring";
    if (added.empty())
        return removed;
    return removed.empty() ? added : added + ", " + removed;
}

}  // namespace tapestry
