#include "cost/ShapeBinder.h"

#include "graph/Graph.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace tapestry {

namespace {

std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Whether `text` contains `word` (lower case) in any case, without copying it: a
// pricing binds every dimension of every tensor it reads.
bool mentions(std::string_view text, std::string_view word)
{
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(text.begin(), text.end(), word.begin(), word.end(),
                       [&](char a, char b) { return lower(a) == b; }) != text.end();
}

bool isIntegerType(DataType type)
{
    return type == DataType::Int64 || type == DataType::Int32;
}

// Rows of a learned position-embedding table (a Gather from a weight whose name says
// "position" or GPT-2's "wpe"), or 0: sequences longer than it cannot be run.
std::int64_t learnedPositionRows(const Graph& graph)
{
    for (const Op& op : graph.ops()) {
        if (op.type != "Gather" || op.inputs.empty() || !op.inputs[0].isValid())
            continue;
        const Tensor& table = graph.tensor(op.inputs[0]);
        if (table.role != TensorRole::Initializer)
            continue;
        const std::string name = lowercase(table.name);
        const Initializer& init = graph.initializer(table.initializer);
        if ((name.find("position") != std::string::npos || name.find("wpe") != std::string::npos) &&
            init.dims.size() == 2)
            return init.dims[0];
    }
    return 0;
}

}  // namespace

ShapeBinder::ShapeBinder(const Graph& graph, const Workload& workload, std::int64_t defaultBatch)
{
    const Tensor* reference = nullptr;
    for (const TensorId id : graph.inputs()) {
        const Tensor& input = graph.tensor(id);
        if (input.shape.rank() >= 2 && isIntegerType(input.dtype)) {
            reference = &input;
            break;
        }
    }
    bool hasSequence = reference != nullptr;
    if (!reference && !graph.inputs().empty() && graph.tensor(graph.inputs().front()).shape.rank() >= 1)
        reference = &graph.tensor(graph.inputs().front());
    if (reference) {
        const Dimension& b = reference->shape.dim(0);
        modelBatch_ = b.isKnown() ? b.value : 0;
        if (hasSequence) {
            const Dimension& s = reference->shape.dim(1);
            modelSequence_ = s.isKnown() ? s.value : 0;
        }
    }
    const bool traceDummy = hasSequence && modelSequence_ > 0 && modelSequence_ < kShortestTrainingSequence;
    if (workload.batch > 0) {
        batch_ = workload.batch;
        batchSource_ = Source::Workload;
    } else if (modelBatch_ > 0 && !traceDummy) {
        batch_ = modelBatch_;
        batchSource_ = Source::Model;
    } else {
        batch_ = defaultBatch;
    }
    if (workload.sequence > 0) {
        sequence_ = workload.sequence;
        sequenceSource_ = Source::Workload;
    } else if (modelSequence_ > 0 && !traceDummy) {
        sequence_ = modelSequence_;
        sequenceSource_ = Source::Model;
    } else if (hasSequence) {
        const std::int64_t rows = learnedPositionRows(graph);
        sequence_ = rows > 0 ? std::min(rows, kDefaultSequence) : kDefaultSequence;
    } else {
        sequence_ = 1;
        sequenceSource_ = Source::Model;
    }
    rebindStatic_ = (modelBatch_ > 0 && batch_ != modelBatch_) || (modelSequence_ > 0 && sequence_ != modelSequence_);
}

std::int64_t ShapeBinder::bind(const Dimension& dim, std::size_t axis) const
{
    if (dim.isKnown()) {
        if (!rebindStatic_)
            return dim.value;
        if (axis == 0 && modelBatch_ > 0 && modelSequence_ > 0 && dim.value == modelBatch_ * modelSequence_ &&
            modelSequence_ > 1)
            return batch_ * sequence_;
        if (axis == 0 && dim.value == modelBatch_)
            return batch_;
        if (axis > 0 && modelSequence_ > 1 && dim.value == modelSequence_)
            return sequence_;
        return dim.value;
    }
    if (dim.isSymbolic()) {
        if (mentions(dim.symbol, "batch"))
            return batch_;
        if (mentions(dim.symbol, "seq") || mentions(dim.symbol, "length"))
            return sequence_;
    }
    return axis == 0 ? batch_ : 1;
}

std::int64_t ShapeBinder::bindAt(const TensorShape& shape, std::size_t axis) const
{
    const Dimension& dim = shape.dim(axis);
    // [batch, heads, sequence, ...] with as many heads as the export had tokens: the
    // heads axis keeps its extent (either reading of the two axes gives the same size).
    if (rebindStatic_ && axis == 1 && shape.rank() == 4 && dim.isKnown() && dim.value == modelSequence_ &&
        shape.dim(2).isKnown() && shape.dim(2).value == modelSequence_)
        return dim.value;
    return bind(dim, axis);
}

bool ShapeBinder::isSequenceAxis(const TensorShape& shape, std::size_t axis) const
{
    if (!shape.isRankKnown() || axis >= shape.rank() || axis == 0)
        return false;
    const Dimension& dim = shape.dim(axis);
    if (dim.isSymbolic()) {
        return mentions(dim.symbol, "seq") || mentions(dim.symbol, "length");
    }
    if (!dim.isKnown() || modelSequence_ <= 1 || dim.value != modelSequence_)
        return false;
    // The heads axis of [batch, heads, sequence, ...] when heads equal the export's tokens.
    return !(axis == 1 && shape.rank() == 4 && shape.dim(2).isKnown() && shape.dim(2).value == modelSequence_);
}

std::vector<std::int64_t> ShapeBinder::extents(const TensorShape& shape) const
{
    std::vector<std::int64_t> out;
    out.reserve(shape.rank());
    for (std::size_t axis = 0; axis < shape.rank(); ++axis)
        out.push_back(bindAt(shape, axis));
    return out;
}

double ShapeBinder::elementCount(const TensorShape& shape) const
{
    double count = 1;
    for (std::size_t axis = 0; axis < shape.rank(); ++axis)
        count *= static_cast<double>(bindAt(shape, axis));
    return count;
}

}  // namespace tapestry
