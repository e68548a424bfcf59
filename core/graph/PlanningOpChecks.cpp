#include "graph/PlanningOpChecks.h"

#include "base/Error.h"
#include "graph/Graph.h"

#include <limits>
#include <optional>
#include <string>

namespace tapestry {

namespace {

constexpr std::int64_t kMaxElements = std::numeric_limits<std::int64_t>::max();

std::optional<std::int64_t> knownExtent(const TensorShape& shape, std::size_t axis)
{
    const Dimension& d = shape.dim(axis);
    return d.isKnown() ? std::optional<std::int64_t>(d.value) : std::nullopt;
}

class OpChecker {
public:
    OpChecker(const Graph& graph, const Op& op) : graph_(graph), op_(op) {}

    void check() const
    {
        for (const TensorId id : op_.inputs) {
            if (id.isValid())
                checkNotEmpty(graph_.tensor(id));
        }
        for (const TensorId id : op_.outputs) {
            if (id.isValid())
                checkNotEmpty(graph_.tensor(id));
        }
        if (op_.type == "MatMul")
            checkMatMul();
        else if (op_.type == "Gemm")
            checkGemm();
        else if (op_.type == "Conv")
            checkConv();
    }

private:
    [[noreturn]] void fail(const std::string& problem) const
    {
        throw Error(ErrorCode::InvalidModel, graph_.info().sourcePath,
                    "op '" + op_.name + "' (" + op_.type + ") " + problem);
    }

    const TensorShape* operand(std::size_t index) const
    {
        if (index >= op_.inputs.size() || !op_.inputs[index].isValid())
            return nullptr;
        const TensorShape& shape = graph_.tensor(op_.inputs[index]).shape;
        return shape.isRankKnown() ? &shape : nullptr;
    }

    std::int64_t intAttribute(const char* name, std::int64_t fallback) const
    {
        const Attribute* a = op_.findAttribute(name);
        const auto* value = a ? std::get_if<std::int64_t>(&a->value) : nullptr;
        return value ? *value : fallback;
    }

    std::vector<std::int64_t> intsAttribute(const char* name) const
    {
        const Attribute* a = op_.findAttribute(name);
        const auto* value = a ? std::get_if<std::vector<std::int64_t>>(&a->value) : nullptr;
        return value ? *value : std::vector<std::int64_t>{};
    }

    void checkNotEmpty(const Tensor& tensor) const
    {
        for (const Dimension& d : tensor.shape.dims()) {
            if (d.isKnown() && d.value == 0)
                fail("has the operand '" + tensor.name + "' of shape " + tensor.shape.toString() +
                     ", with an empty dimension");
        }
    }

    void checkInner(const TensorShape& a, const TensorShape& b, std::optional<std::int64_t> k,
                    std::optional<std::int64_t> kOther) const
    {
        if (k && kOther && *k != *kOther)
            fail("multiplies " + a.toString() + " by " + b.toString() + ": the inner dimensions " +
                 std::to_string(*k) + " and " + std::to_string(*kOther) + " differ");
    }

    void checkMatMul() const
    {
        const TensorShape* a = operand(0);
        const TensorShape* b = operand(1);
        for (const TensorShape* s : {a, b}) {
            if (s && s->rank() == 0)
                fail("has a scalar (rank 0) operand; MatMul needs rank 1 or more");
        }
        if (!a || !b)
            return;
        const std::size_t bInner = b->rank() == 1 ? 0 : b->rank() - 2;
        checkInner(*a, *b, knownExtent(*a, a->rank() - 1), knownExtent(*b, bInner));
    }

    void checkGemm() const
    {
        const std::int64_t transA = intAttribute("transA", 0);
        const std::int64_t transB = intAttribute("transB", 0);
        if ((transA != 0 && transA != 1) || (transB != 0 && transB != 1))
            fail("has transA = " + std::to_string(transA) + " and transB = " + std::to_string(transB) +
                 "; each must be 0 or 1");
        const TensorShape* a = operand(0);
        const TensorShape* b = operand(1);
        for (const TensorShape* s : {a, b}) {
            if (s && s->rank() != 2)
                fail("has an operand of shape " + s->toString() + "; Gemm multiplies matrices (rank 2)");
        }
        if (a && b)
            checkInner(*a, *b, knownExtent(*a, transA ? 0 : 1), knownExtent(*b, transB ? 1 : 0));
    }

    void checkConv() const
    {
        const std::int64_t group = intAttribute("group", 1);
        if (group < 1)
            fail("has group = " + std::to_string(group) + "; it must be 1 or more");
        for (const char* name : {"strides", "dilations"}) {
            for (const std::int64_t v : intsAttribute(name)) {
                if (v < 1)
                    fail("has " + std::string(name) + " containing " + std::to_string(v) + "; each must be 1 or more");
            }
        }
        for (const std::int64_t v : intsAttribute("pads")) {
            if (v < 0)
                fail("has pads containing " + std::to_string(v) + "; pads cannot be negative");
        }
        const TensorShape* x = operand(0);
        const TensorShape* w = operand(1);
        if (w && w->rank() < 3)
            fail("has the weight shape " + w->toString() + "; a Conv weight has rank 3 or more");
        if (!x || !w || x->rank() != w->rank())
            return;
        const auto channels = knownExtent(*x, 1);
        const auto perGroup = knownExtent(*w, 1);
        if (channels && perGroup && *channels != *perGroup * group)
            fail("convolves " + std::to_string(*channels) + " input channels with a weight of shape " + w->toString() +
                 " in " + std::to_string(group) + " group(s), which takes " + std::to_string(*perGroup * group));
        const auto filters = knownExtent(*w, 0);
        if (filters && *filters % group != 0)
            fail("has " + std::to_string(*filters) + " filters, not a multiple of its " + std::to_string(group) +
                 " groups");
    }

    const Graph& graph_;
    const Op& op_;
};

}  // namespace

void checkPlanningOps(const Graph& graph)
{
    for (const Tensor& tensor : graph.tensors()) {
        std::int64_t elements = 1;
        for (const Dimension& d : tensor.shape.dims()) {
            if (!d.isKnown() || d.value == 0)
                continue;
            if (elements > kMaxElements / d.value)
                throw Error(ErrorCode::InvalidModel, graph.info().sourcePath,
                            "tensor '" + tensor.name + "' has the shape " + tensor.shape.toString() +
                                ", more elements than a 64-bit count holds");
            elements *= d.value;
        }
    }
    for (const Op& op : graph.ops()) {
        if (op.domain.empty() && (op.type == "MatMul" || op.type == "Gemm" || op.type == "Conv"))
            OpChecker(graph, op).check();
    }
}

}  // namespace tapestry
