#include "cost/CausalAttention.h"

#include <optional>
#include <variant>
#include <vector>

namespace tapestry {

namespace {

// What a tensor is, as far as a constant causal mask reaches it.
enum class MaskState : std::uint8_t {
    None,     // not known to be any of these
    Masking,  // every value masks (at most kMaskingBias)
    Keep,     // boolean, true only for keys on and below the diagonal
    Hide,     // boolean, true for every key above the diagonal
    Bias,     // float, at most kMaskingBias for every key above the diagonal
};

MaskState stateOf(MaskValues values)
{
    switch (values) {
    case MaskValues::Masking: return MaskState::Masking;
    case MaskValues::CausalKeep: return MaskState::Keep;
    case MaskValues::CausalHide: return MaskState::Hide;
    case MaskValues::CausalBias: return MaskState::Bias;
    case MaskValues::Unknown: break;
    }
    return MaskState::None;
}

std::optional<std::int64_t> intAttribute(const Op& op, const char* name)
{
    const Attribute* a = op.findAttribute(name);
    if (!a || !std::holds_alternative<std::int64_t>(a->value))
        return std::nullopt;
    return std::get<std::int64_t>(a->value);
}

// The values of a constant int64 tensor (an initializer or a Constant's `value`).
std::optional<std::vector<std::int64_t>> constantInt64s(const Graph& graph, TensorId id)
{
    if (!id.isValid())
        return std::nullopt;
    const Tensor& tensor = graph.tensor(id);
    if (tensor.initializer.isValid()) {
        const Initializer& init = graph.initializer(tensor.initializer);
        if (init.dtype != DataType::Int64 || init.int64Values.size() != init.elementCount)
            return std::nullopt;
        return init.int64Values;
    }
    if (!tensor.producer.isValid() || graph.op(tensor.producer).type != "Constant")
        return std::nullopt;
    const Attribute* value = graph.op(tensor.producer).findAttribute("value");
    if (!value || !std::holds_alternative<AttributeTensor>(value->value))
        return std::nullopt;
    const AttributeTensor& t = std::get<AttributeTensor>(value->value);
    if (t.dtype != DataType::Int64)
        return std::nullopt;
    return t.int64Values;
}

// A Slice input's values, or its attribute's before opset 10.
std::optional<std::vector<std::int64_t>> sliceValues(const Graph& graph, const Op& op, std::size_t input,
                                                     const char* attribute)
{
    if (op.inputs.size() > 1)
        return input < op.inputs.size() && op.inputs[input].isValid() ? constantInt64s(graph, op.inputs[input])
                                                                        : std::nullopt;
    const Attribute* a = op.findAttribute(attribute);
    if (!a || !std::holds_alternative<std::vector<std::int64_t>>(a->value))
        return std::nullopt;
    return std::get<std::vector<std::int64_t>>(a->value);
}

bool hasKnownRank(const TensorShape& shape, std::size_t least)
{
    return shape.isRankKnown() && shape.rank() >= least;
}

// Whether the op keeps its input's last two axes (the mask's queries and keys) as its
// output's last two.
bool keepsMatrix(const Graph& graph, const Op& op)
{
    if (op.inputs.empty() || op.outputs.empty() || !op.inputs[0].isValid() || !op.outputs[0].isValid())
        return false;
    const TensorShape& in = graph.tensor(op.inputs[0]).shape;
    const TensorShape& out = graph.tensor(op.outputs[0]).shape;
    if (!hasKnownRank(in, 2) || !hasKnownRank(out, 2))
        return false;
    for (std::size_t k = 1; k <= 2; ++k) {
        const Dimension& a = in.dims()[in.rank() - k];
        const Dimension& b = out.dims()[out.rank() - k];
        if (!(a.isKnown() || a.isSymbolic()) || a != b)
            return false;
    }
    return true;
}

// Whether a Slice keeps "key j visible to query i only when j <= i": rows and columns
// both start at the same known offset r (row i of the result is row i + r, column j is
// column j + r), one step at a time.
bool sliceKeepsDiagonal(const Graph& graph, const Op& op)
{
    if (op.inputs.empty() || !op.inputs[0].isValid() || !hasKnownRank(graph.tensor(op.inputs[0]).shape, 2))
        return false;
    const auto rank = static_cast<std::int64_t>(graph.tensor(op.inputs[0]).shape.rank());
    const auto starts = sliceValues(graph, op, 1, "starts");
    if (!starts)
        return false;
    std::vector<std::int64_t> axes;
    const bool axesListed = op.inputs.size() > 3 ? op.inputs[3].isValid() : op.findAttribute("axes") != nullptr;
    if (axesListed) {
        const auto given = sliceValues(graph, op, 3, "axes");
        if (!given)
            return false;
        axes = *given;
    } else {
        for (std::int64_t a = 0; a < static_cast<std::int64_t>(starts->size()); ++a)
            axes.push_back(a);
    }
    std::optional<std::vector<std::int64_t>> steps;
    if (op.inputs.size() > 4 && op.inputs[4].isValid()) {
        steps = constantInt64s(graph, op.inputs[4]);
        if (!steps)
            return false;
    }
    if (axes.size() != starts->size() || (steps && steps->size() != axes.size()))
        return false;
    std::int64_t rowStart = 0;
    std::int64_t columnStart = 0;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const std::int64_t axis = axes[k] < 0 ? axes[k] + rank : axes[k];
        if (axis < rank - 2)
            continue;
        if ((*starts)[k] < 0 || (steps && (*steps)[k] != 1))
            return false;
        (axis == rank - 1 ? columnStart : rowStart) = (*starts)[k];
    }
    return rowStart == columnStart;
}

// Whether a Softmax normalizes over its input's last axis (the keys).
bool overLastAxis(const Graph& graph, const Op& softmax)
{
    const TensorShape& in = graph.tensor(softmax.inputs[0]).shape;
    if (!in.isRankKnown())
        return false;
    const auto rank = static_cast<std::int64_t>(in.rank());
    std::int64_t opset = 0;
    for (const OpsetImport& imported : graph.info().opsetImports) {
        if (imported.domain.empty() || imported.domain == "ai.onnx")
            opset = imported.version;
    }
    // Before opset 13 the default axis was 1, over the input flattened from it.
    const std::int64_t axis = intAttribute(softmax, "axis").value_or(opset >= 13 ? -1 : 1);
    return axis == -1 || axis == rank - 1;
}

MaskState castState(const Op& op, MaskState in)
{
    const auto to = intAttribute(op, "to");
    if (!to)
        return MaskState::None;
    const DataType type = dataTypeFromOnnx(static_cast<int>(*to));
    const bool boolean = in == MaskState::Keep || in == MaskState::Hide;
    if (boolean ? type == DataType::Bool : isFloatingPoint(type))
        return in;
    return MaskState::None;
}

// The state of `op`'s first output from its inputs' states.
MaskState outputState(const Graph& graph, const Op& op, const std::vector<MaskState>& states)
{
    auto in = [&](std::size_t k) {
        return k < op.inputs.size() && op.inputs[k].isValid() ? states[op.inputs[k].index()] : MaskState::None;
    };
    const std::string& type = op.type;
    if (type == "Identity" || type == "Expand" || type == "Unsqueeze" || type == "Squeeze" || type == "Reshape")
        return keepsMatrix(graph, op) ? in(0) : MaskState::None;
    if (type == "Slice")
        return sliceKeepsDiagonal(graph, op) ? in(0) : MaskState::None;
    if (type == "Cast")
        return castState(op, in(0));
    if (type == "Not")
        return in(0) == MaskState::Keep ? MaskState::Hide : in(0) == MaskState::Hide ? MaskState::Keep : MaskState::None;
    if (type == "And") {
        if (in(0) == MaskState::Keep || in(1) == MaskState::Keep)
            return MaskState::Keep;
        return in(0) == MaskState::Hide && in(1) == MaskState::Hide ? MaskState::Hide : MaskState::None;
    }
    if (type == "Or") {
        if (in(0) == MaskState::Hide || in(1) == MaskState::Hide)
            return MaskState::Hide;
        return in(0) == MaskState::Keep && in(1) == MaskState::Keep ? MaskState::Keep : MaskState::None;
    }
    if (type == "Where") {
        const bool selectsMasking = (in(0) == MaskState::Keep && in(2) == MaskState::Masking) ||
                                    (in(0) == MaskState::Hide && in(1) == MaskState::Masking) ||
                                    (in(1) == MaskState::Bias && in(2) == MaskState::Bias);
        return selectsMasking ? MaskState::Bias : MaskState::None;
    }
    if (type == "Add")
        return in(0) == MaskState::Bias || in(1) == MaskState::Bias ? MaskState::Bias : MaskState::None;
    if (type == "Sub")
        return in(0) == MaskState::Bias ? MaskState::Bias : MaskState::None;
    return MaskState::None;
}

// The state a constant starts in: an initializer's values, a Constant's `value` or
// `value_float`.
MaskState constantState(const Op& op)
{
    if (op.type != "Constant")
        return MaskState::None;
    if (const Attribute* value = op.findAttribute("value"); value && std::holds_alternative<AttributeTensor>(value->value))
        return stateOf(std::get<AttributeTensor>(value->value).maskValues);
    if (const Attribute* value = op.findAttribute("value_float"); value && std::holds_alternative<double>(value->value))
        return std::get<double>(value->value) <= kMaskingBias ? MaskState::Masking : MaskState::None;
    return MaskState::None;
}

bool isCausal(MaskState state)
{
    return state == MaskState::Keep || state == MaskState::Hide || state == MaskState::Bias;
}

}  // namespace

bool attentionIsCausal(const Graph& graph, const std::function<bool(TensorId)>& isScores)
{
    std::vector<MaskState> states(graph.tensors().size(), MaskState::None);
    bool anyCausal = false;
    for (const Initializer& init : graph.initializers()) {
        states[init.tensor.index()] = stateOf(init.maskValues);
        anyCausal = anyCausal || isCausal(states[init.tensor.index()]);
    }
    for (const Op& op : graph.ops()) {
        if (op.type == "Trilu" || op.type == "LessOrEqual")
            return true;
        if (!op.outputs.empty() && op.outputs[0].isValid() && op.type == "Constant") {
            states[op.outputs[0].index()] = constantState(op);
            anyCausal = anyCausal || isCausal(states[op.outputs[0].index()]);
        }
    }
    if (!anyCausal)
        return false;
    for (const OpId id : graph.topologicalOrder()) {
        const Op& op = graph.op(id);
        if (op.outputs.empty() || !op.outputs[0].isValid() || op.inputs.empty() || op.type == "Constant")
            continue;
        if (op.type == "Softmax") {
            if (op.inputs[0].isValid() && states[op.inputs[0].index()] == MaskState::Bias && overLastAxis(graph, op) &&
                isScores(op.inputs[0]))
                return true;
            continue;
        }
        states[op.outputs[0].index()] = outputState(graph, op, states);
    }
    return false;
}

}  // namespace tapestry
