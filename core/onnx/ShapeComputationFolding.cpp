#include "onnx/ShapeComputationFolding.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tapestry {

namespace {

// Shape computations are a handful of integers; anything larger is data, not shape.
constexpr std::size_t kMaxElements = 4096;
// Each round lets inference see one more link of alternating shape/value chains; real
// exports settle in a few dozen (Swin-T: one per window block and stage).
constexpr int kMaxRounds = 96;

constexpr int kFloat = onnx::TensorProto_DataType_FLOAT;
constexpr int kInt32 = onnx::TensorProto_DataType_INT32;
constexpr int kInt64 = onnx::TensorProto_DataType_INT64;
constexpr int kBool = onnx::TensorProto_DataType_BOOL;
constexpr int kDouble = onnx::TensorProto_DataType_DOUBLE;

bool isIntegral(int type)
{
    switch (type) {
    case onnx::TensorProto_DataType_INT8:
    case onnx::TensorProto_DataType_INT16:
    case kInt32:
    case kInt64:
    case onnx::TensorProto_DataType_UINT8:
    case onnx::TensorProto_DataType_UINT16:
    case onnx::TensorProto_DataType_UINT32:
    case onnx::TensorProto_DataType_UINT64:
    case kBool: return true;
    default: return false;
    }
}

bool isRepresentable(int type)
{
    return type == kFloat || type == kInt32 || type == kInt64 || type == kBool || type == kDouble;
}

// A small tensor with its values (integers held exactly in doubles).
struct Value {
    std::vector<std::int64_t> dims;
    std::vector<double> data;
    int type = kInt64;
};

std::optional<std::size_t> elementCount(const std::vector<std::int64_t>& dims)
{
    std::size_t count = 1;
    for (const std::int64_t d : dims) {
        if (d < 0 || (d > 0 && count > kMaxElements / static_cast<std::size_t>(d)))
            return std::nullopt;
        count *= static_cast<std::size_t>(d);
    }
    return count;
}

std::optional<Value> valueOf(const onnx::TensorProto& tensor)
{
    if (tensor.data_location() == onnx::TensorProto_DataLocation_EXTERNAL || !isRepresentable(tensor.data_type()))
        return std::nullopt;
    Value v;
    v.type = tensor.data_type();
    v.dims.assign(tensor.dims().begin(), tensor.dims().end());
    const auto count = elementCount(v.dims);
    if (!count)
        return std::nullopt;
    const std::string& raw = tensor.raw_data();
    auto fromRaw = [&](auto zero) {
        using T = decltype(zero);
        if (raw.size() != *count * sizeof(T))
            return false;
        for (std::size_t i = 0; i < *count; ++i) {
            T element{};
            std::memcpy(&element, raw.data() + i * sizeof(T), sizeof(T));
            v.data.push_back(static_cast<double>(element));
        }
        return true;
    };
    bool ok = true;
    if (tensor.has_raw_data()) {
        switch (v.type) {
        case kFloat: ok = fromRaw(float{}); break;
        case kInt32: ok = fromRaw(std::int32_t{}); break;
        case kInt64: ok = fromRaw(std::int64_t{}); break;
        case kBool: ok = fromRaw(std::uint8_t{}); break;
        case kDouble: ok = fromRaw(double{}); break;
        default: ok = false;
        }
    } else if (v.type == kFloat) {
        v.data.assign(tensor.float_data().begin(), tensor.float_data().end());
    } else if (v.type == kInt64) {
        for (const std::int64_t x : tensor.int64_data())
            v.data.push_back(static_cast<double>(x));
    } else if (v.type == kDouble) {
        v.data.assign(tensor.double_data().begin(), tensor.double_data().end());
    } else {
        v.data.assign(tensor.int32_data().begin(), tensor.int32_data().end());
    }
    if (!ok || v.data.size() != *count)
        return std::nullopt;
    return v;
}

// Saturating: exporters write INT64_MAX as "to the end", which a double rounds up to
// 2^63, past what converts back.
std::int64_t saturatedInteger(double x)
{
    constexpr double kLimit = 9223372036854775807.0;  // 2^63 as a double
    if (x >= kLimit)
        return std::numeric_limits<std::int64_t>::max();
    if (x <= -kLimit)
        return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(x);
}

onnx::TensorProto tensorOf(const Value& v)
{
    onnx::TensorProto tensor;
    tensor.set_data_type(v.type);
    for (const std::int64_t d : v.dims)
        tensor.add_dims(d);
    for (const double x : v.data) {
        switch (v.type) {
        case kFloat: tensor.add_float_data(static_cast<float>(x)); break;
        case kInt64: tensor.add_int64_data(saturatedInteger(x)); break;
        case kDouble: tensor.add_double_data(x); break;
        default:
            tensor.add_int32_data(static_cast<std::int32_t>(std::clamp<std::int64_t>(
                saturatedInteger(x), std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())));
            break;
        }
    }
    return tensor;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const char* name)
{
    for (const onnx::AttributeProto& a : node.attribute()) {
        if (a.name() == name)
            return &a;
    }
    return nullptr;
}

std::int64_t intAttribute(const onnx::NodeProto& node, const char* name, std::int64_t fallback)
{
    const onnx::AttributeProto* a = attribute(node, name);
    return a ? a->i() : fallback;
}

std::vector<std::int64_t> integers(const Value& v)
{
    std::vector<std::int64_t> out;
    for (const double x : v.data)
        out.push_back(saturatedInteger(x));
    return out;
}

std::vector<std::size_t> stridesOf(const std::vector<std::int64_t>& dims)
{
    std::vector<std::size_t> strides(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;)
        strides[i - 1] = strides[i] * static_cast<std::size_t>(dims[i]);
    return strides;
}

// The multi-index of flat position `flat` in `dims`.
std::vector<std::int64_t> indexOf(std::size_t flat, const std::vector<std::int64_t>& dims)
{
    std::vector<std::int64_t> index(dims.size(), 0);
    for (std::size_t i = dims.size(); i-- > 0;) {
        index[i] = static_cast<std::int64_t>(flat % static_cast<std::size_t>(dims[i]));
        flat /= static_cast<std::size_t>(dims[i]);
    }
    return index;
}

std::optional<std::vector<std::int64_t>> broadcastDims(const std::vector<const Value*>& operands)
{
    std::size_t rank = 0;
    for (const Value* v : operands)
        rank = std::max(rank, v->dims.size());
    std::vector<std::int64_t> out(rank, 1);
    for (const Value* v : operands) {
        const std::size_t offset = rank - v->dims.size();
        for (std::size_t i = 0; i < v->dims.size(); ++i) {
            const std::int64_t d = v->dims[i];
            if (d == out[offset + i] || d == 1)
                continue;
            if (out[offset + i] != 1)
                return std::nullopt;
            out[offset + i] = d;
        }
    }
    return out;
}

// The element of `v` that broadcasts to `index` of a result of rank index.size().
double broadcastAt(const Value& v, const std::vector<std::int64_t>& index)
{
    const std::size_t offset = index.size() - v.dims.size();
    std::size_t flat = 0;
    for (std::size_t i = 0; i < v.dims.size(); ++i)
        flat = flat * static_cast<std::size_t>(v.dims[i]) + static_cast<std::size_t>(v.dims[i] == 1 ? 0 : index[offset + i]);
    return v.data[flat];
}

std::optional<Value> elementwise(const std::vector<const Value*>& operands, int type,
                                 const std::function<double(const std::vector<double>&)>& f)
{
    const auto dims = broadcastDims(operands);
    if (!dims)
        return std::nullopt;
    const auto count = elementCount(*dims);
    if (!count)
        return std::nullopt;
    Value out{*dims, {}, type};
    std::vector<double> args(operands.size());
    for (std::size_t flat = 0; flat < *count; ++flat) {
        const std::vector<std::int64_t> index = indexOf(flat, *dims);
        for (std::size_t k = 0; k < operands.size(); ++k)
            args[k] = broadcastAt(*operands[k], index);
        out.data.push_back(f(args));
    }
    return out;
}

std::int64_t normalizedAxis(std::int64_t axis, std::size_t rank)
{
    return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
}

std::optional<Value> gather(const Value& data, const Value& indices, std::int64_t axis)
{
    axis = normalizedAxis(axis, data.dims.size());
    if (axis < 0 || axis >= static_cast<std::int64_t>(data.dims.size()))
        return std::nullopt;
    const auto a = static_cast<std::size_t>(axis);
    Value out;
    out.type = data.type;
    out.dims.assign(data.dims.begin(), data.dims.begin() + axis);
    out.dims.insert(out.dims.end(), indices.dims.begin(), indices.dims.end());
    out.dims.insert(out.dims.end(), data.dims.begin() + axis + 1, data.dims.end());
    const auto count = elementCount(out.dims);
    if (!count)
        return std::nullopt;
    const std::vector<std::size_t> strides = stridesOf(data.dims);
    for (std::size_t flat = 0; flat < *count; ++flat) {
        const std::vector<std::int64_t> index = indexOf(flat, out.dims);
        std::vector<std::int64_t> indexIndex(index.begin() + axis, index.begin() + axis + static_cast<std::ptrdiff_t>(indices.dims.size()));
        std::size_t at = 0;
        for (std::size_t i = 0; i < indexIndex.size(); ++i)
            at = at * static_cast<std::size_t>(indices.dims[i]) + static_cast<std::size_t>(indexIndex[i]);
        std::int64_t picked = saturatedInteger(indices.data[at]);
        if (picked < 0)
            picked += data.dims[a];
        if (picked < 0 || picked >= data.dims[a])
            return std::nullopt;
        std::size_t source = static_cast<std::size_t>(picked) * strides[a];
        for (std::size_t i = 0; i < a; ++i)
            source += static_cast<std::size_t>(index[i]) * strides[i];
        for (std::size_t i = a + 1; i < data.dims.size(); ++i)
            source += static_cast<std::size_t>(index[i - 1 + indices.dims.size()]) * strides[i];
        out.data.push_back(data.data[source]);
    }
    return out;
}

std::optional<Value> concat(const std::vector<const Value*>& parts, std::int64_t axis)
{
    if (parts.empty())
        return std::nullopt;
    const std::size_t rank = parts.front()->dims.size();
    axis = normalizedAxis(axis, rank);
    if (axis < 0 || axis >= static_cast<std::int64_t>(rank))
        return std::nullopt;
    const auto a = static_cast<std::size_t>(axis);
    Value out = *parts.front();
    out.data.clear();
    out.dims[a] = 0;
    for (const Value* part : parts) {
        if (part->dims.size() != rank)
            return std::nullopt;
        for (std::size_t i = 0; i < rank; ++i) {
            if (i != a && part->dims[i] != out.dims[i])
                return std::nullopt;
        }
        out.dims[a] += part->dims[a];
    }
    if (!elementCount(out.dims))
        return std::nullopt;
    // Outer blocks (axes before `axis`) interleave the parts' inner blocks.
    std::size_t outer = 1;
    for (std::size_t i = 0; i < a; ++i)
        outer *= static_cast<std::size_t>(out.dims[i]);
    for (std::size_t o = 0; o < outer; ++o) {
        for (const Value* part : parts) {
            const std::size_t block = part->data.size() / std::max<std::size_t>(outer, 1);
            out.data.insert(out.data.end(), part->data.begin() + static_cast<std::ptrdiff_t>(o * block),
                            part->data.begin() + static_cast<std::ptrdiff_t>((o + 1) * block));
        }
    }
    return out;
}

std::optional<Value> reshape(Value data, const Value& shape, bool allowZero)
{
    std::vector<std::int64_t> dims = integers(shape);
    std::size_t known = 1;
    std::ptrdiff_t inferred = -1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0 && !allowZero) {
            if (i >= data.dims.size())
                return std::nullopt;
            dims[i] = data.dims[i];
        }
        if (dims[i] == -1) {
            if (inferred >= 0)
                return std::nullopt;
            inferred = static_cast<std::ptrdiff_t>(i);
        } else if (dims[i] < 0) {
            return std::nullopt;
        } else {
            known *= static_cast<std::size_t>(dims[i]);
        }
    }
    if (inferred >= 0) {
        if (known == 0 || data.data.size() % known != 0)
            return std::nullopt;
        dims[static_cast<std::size_t>(inferred)] = static_cast<std::int64_t>(data.data.size() / known);
    }
    const auto count = elementCount(dims);
    if (!count || *count != data.data.size())
        return std::nullopt;
    data.dims = std::move(dims);
    return data;
}

std::optional<Value> slice(const Value& data, std::vector<std::int64_t> starts, std::vector<std::int64_t> ends,
                           std::vector<std::int64_t> axes, std::vector<std::int64_t> steps)
{
    const std::size_t rank = data.dims.size();
    if (axes.empty()) {
        for (std::size_t i = 0; i < starts.size(); ++i)
            axes.push_back(static_cast<std::int64_t>(i));
    }
    if (steps.empty())
        steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        return std::nullopt;
    std::vector<std::int64_t> begin(rank, 0);
    std::vector<std::int64_t> step(rank, 1);
    std::vector<std::int64_t> outDims = data.dims;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::int64_t axis = normalizedAxis(axes[k], rank);
        if (axis < 0 || axis >= static_cast<std::int64_t>(rank) || steps[k] == 0)
            return std::nullopt;
        const auto a = static_cast<std::size_t>(axis);
        const std::int64_t extent = data.dims[a];
        // A step past the extent takes one element, as one of extent + 1 does.
        steps[k] = std::clamp(steps[k], -extent - 1, extent + 1);
        auto clampIndex = [&](std::int64_t i, std::int64_t low, std::int64_t high) {
            if (i < 0)
                i += extent;
            return std::clamp(i, low, high);
        };
        // Saturate the huge sentinels exporters use (INT64_MIN/MAX) before adding.
        const std::int64_t s = clampIndex(std::clamp(starts[k], -extent - 1, extent + 1), steps[k] > 0 ? 0 : -1,
                                          steps[k] > 0 ? extent : extent - 1);
        const std::int64_t e = clampIndex(std::clamp(ends[k], -extent - 1, extent + 1), steps[k] > 0 ? 0 : -1,
                                          steps[k] > 0 ? extent : extent - 1);
        const std::int64_t length = steps[k] > 0 ? (e - s + steps[k] - 1) / steps[k] : (s - e - steps[k] - 1) / -steps[k];
        begin[a] = s;
        step[a] = steps[k];
        outDims[a] = std::max<std::int64_t>(length, 0);
    }
    const auto count = elementCount(outDims);
    if (!count)
        return std::nullopt;
    const std::vector<std::size_t> strides = stridesOf(data.dims);
    Value out{outDims, {}, data.type};
    for (std::size_t flat = 0; flat < *count; ++flat) {
        const std::vector<std::int64_t> index = indexOf(flat, outDims);
        std::size_t source = 0;
        for (std::size_t i = 0; i < rank; ++i)
            source += static_cast<std::size_t>(begin[i] + index[i] * step[i]) * strides[i];
        out.data.push_back(data.data[source]);
    }
    return out;
}

std::optional<Value> transpose(const Value& data, std::vector<std::int64_t> perm)
{
    const std::size_t rank = data.dims.size();
    if (perm.empty()) {
        for (std::size_t i = rank; i-- > 0;)
            perm.push_back(static_cast<std::int64_t>(i));
    }
    if (perm.size() != rank)
        return std::nullopt;
    Value out{{}, {}, data.type};
    std::vector<bool> used(rank, false);
    for (const std::int64_t p : perm) {
        if (p < 0 || p >= static_cast<std::int64_t>(rank) || used[static_cast<std::size_t>(p)])
            return std::nullopt;
        used[static_cast<std::size_t>(p)] = true;
        out.dims.push_back(data.dims[static_cast<std::size_t>(p)]);
    }
    const std::vector<std::size_t> strides = stridesOf(data.dims);
    for (std::size_t flat = 0; flat < data.data.size(); ++flat) {
        const std::vector<std::int64_t> index = indexOf(flat, out.dims);
        std::size_t source = 0;
        for (std::size_t i = 0; i < rank; ++i)
            source += static_cast<std::size_t>(index[i]) * strides[static_cast<std::size_t>(perm[i])];
        out.data.push_back(data.data[source]);
    }
    return out;
}

double integerDivision(double a, double b)
{
    return b == 0 ? std::nan("") : std::trunc(a / b);
}

// Python-style remainder (fmod = 0: the sign of the divisor) or C's (fmod = 1).
double remainder(double a, double b, bool fmod)
{
    if (b == 0)
        return std::nan("");
    const double r = std::fmod(a, b);
    return !fmod && r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

using Values = std::unordered_map<std::string, Value>;
using Shapes = std::unordered_map<std::string, std::vector<std::int64_t>>;

class Evaluator {
public:
    Evaluator(const Values& values, const Shapes& shapes) : values_(values), shapes_(shapes) {}

    // The node's outputs, when every input it needs has a value (Shape and Size need
    // only their input's static shape).
    std::optional<std::vector<Value>> evaluate(const onnx::NodeProto& node) const
    {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            return std::nullopt;
        const std::string& op = node.op_type();
        if (op == "Shape" || op == "Size")
            return shapeOrSize(node);
        std::vector<const Value*> in;
        for (const std::string& name : node.input()) {
            if (name.empty()) {
                in.push_back(nullptr);
                continue;
            }
            const auto found = values_.find(name);
            if (found == values_.end())
                return std::nullopt;
            in.push_back(&found->second);
        }
        std::optional<Value> out = evaluate(node, op, in);
        if (!out || out->data.size() > kMaxElements || !isRepresentable(out->type) ||
            elementCount(out->dims) != out->data.size())
            return std::nullopt;
        for (const double x : out->data) {
            if (!std::isfinite(x) || (out->type == kFloat && std::abs(x) > std::numeric_limits<float>::max()))
                return std::nullopt;
        }
        return std::vector<Value>{std::move(*out)};
    }

private:
    std::optional<std::vector<Value>> shapeOrSize(const onnx::NodeProto& node) const
    {
        if (node.input_size() < 1)
            return std::nullopt;
        const auto found = shapes_.find(node.input(0));
        if (found == shapes_.end())
            return std::nullopt;
        const std::vector<std::int64_t>& dims = found->second;
        Value out;
        if (node.op_type() == "Size") {
            double count = 1;
            for (const std::int64_t d : dims)
                count *= static_cast<double>(d);
            out.data = {count};
            return std::vector<Value>{out};
        }
        const auto rank = static_cast<std::int64_t>(dims.size());
        std::int64_t start = normalizedAxis(intAttribute(node, "start", 0), dims.size());
        std::int64_t end = normalizedAxis(intAttribute(node, "end", rank), dims.size());
        start = std::clamp<std::int64_t>(start, 0, rank);
        end = std::clamp<std::int64_t>(end, start, rank);
        for (std::int64_t i = start; i < end; ++i)
            out.data.push_back(static_cast<double>(dims[static_cast<std::size_t>(i)]));
        out.dims = {end - start};
        return std::vector<Value>{out};
    }

    static std::optional<Value> evaluate(const onnx::NodeProto& node, const std::string& op,
                                         const std::vector<const Value*>& in)
    {
        auto input = [&](std::size_t i) -> const Value* { return i < in.size() ? in[i] : nullptr; };
        auto ints = [&](std::size_t i) { return input(i) ? integers(*input(i)) : std::vector<std::int64_t>{}; };
        auto intsAttribute = [&](const char* name) {
            const onnx::AttributeProto* a = attribute(node, name);
            return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
        };
        const Value* x = input(0);
        if (op == "Constant") {
            if (const onnx::AttributeProto* a = attribute(node, "value"))
                return valueOf(a->t());
            if (const onnx::AttributeProto* a = attribute(node, "value_int"))
                return Value{{}, {static_cast<double>(a->i())}, kInt64};
            if (const onnx::AttributeProto* a = attribute(node, "value_ints")) {
                Value v{{a->ints_size()}, {}, kInt64};
                for (const std::int64_t i : a->ints())
                    v.data.push_back(static_cast<double>(i));
                return v;
            }
            if (const onnx::AttributeProto* a = attribute(node, "value_float"))
                return Value{{}, {static_cast<double>(a->f())}, kFloat};
            return std::nullopt;
        }
        if (!x)
            return std::nullopt;
        if (op == "Identity")
            return *x;
        if (op == "Cast") {
            Value v = *x;
            v.type = static_cast<int>(intAttribute(node, "to", kInt64));
            if (isIntegral(v.type) && !isIntegral(x->type)) {
                for (double& e : v.data)
                    e = std::trunc(e);
            }
            if (v.type == kBool) {
                for (double& e : v.data)
                    e = e != 0 ? 1 : 0;
            }
            return v;
        }
        if (op == "Floor" || op == "Ceil" || op == "Round" || op == "Neg" || op == "Abs" || op == "Not" ||
            op == "Sqrt") {
            Value v = *x;
            for (double& e : v.data) {
                if (op == "Floor")
                    e = std::floor(e);
                else if (op == "Ceil")
                    e = std::ceil(e);
                else if (op == "Round")
                    e = std::nearbyint(e);
                else if (op == "Neg")
                    e = -e;
                else if (op == "Abs")
                    e = std::abs(e);
                else if (op == "Not")
                    e = e != 0 ? 0 : 1;
                else
                    e = std::sqrt(e);
            }
            return v;
        }
        if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Pow") {
            if (!input(1))
                return std::nullopt;
            const bool integral = isIntegral(x->type);
            const bool fmod = intAttribute(node, "fmod", 0) != 0;
            return elementwise({x, input(1)}, x->type, [&](const std::vector<double>& a) {
                if (op == "Add")
                    return a[0] + a[1];
                if (op == "Sub")
                    return a[0] - a[1];
                if (op == "Mul")
                    return a[0] * a[1];
                if (op == "Div")
                    return integral ? integerDivision(a[0], a[1]) : a[0] / a[1];
                if (op == "Mod")
                    return remainder(a[0], a[1], fmod);
                return std::pow(a[0], a[1]);
            });
        }
        if (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual" ||
            op == "And" || op == "Or") {
            if (!input(1))
                return std::nullopt;
            return elementwise({x, input(1)}, kBool, [&](const std::vector<double>& a) {
                bool r = false;
                if (op == "Equal")
                    r = a[0] == a[1];
                else if (op == "Less")
                    r = a[0] < a[1];
                else if (op == "Greater")
                    r = a[0] > a[1];
                else if (op == "LessOrEqual")
                    r = a[0] <= a[1];
                else if (op == "GreaterOrEqual")
                    r = a[0] >= a[1];
                else if (op == "And")
                    r = a[0] != 0 && a[1] != 0;
                else
                    r = a[0] != 0 || a[1] != 0;
                return r ? 1.0 : 0.0;
            });
        }
        if (op == "Min" || op == "Max") {
            for (const Value* v : in) {
                if (!v)
                    return std::nullopt;
            }
            return elementwise(in, x->type, [&](const std::vector<double>& a) {
                return op == "Min" ? *std::min_element(a.begin(), a.end()) : *std::max_element(a.begin(), a.end());
            });
        }
        if (op == "Where") {
            if (!input(1) || !input(2))
                return std::nullopt;
            return elementwise({x, input(1), input(2)}, input(1)->type,
                               [](const std::vector<double>& a) { return a[0] != 0 ? a[1] : a[2]; });
        }
        if (op == "Gather")
            return input(1) ? gather(*x, *input(1), intAttribute(node, "axis", 0)) : std::nullopt;
        if (op == "Concat") {
            for (const Value* v : in) {
                if (!v)
                    return std::nullopt;
            }
            return concat(in, intAttribute(node, "axis", 0));
        }
        if (op == "Unsqueeze" || op == "Squeeze") {
            std::vector<std::int64_t> axes = input(1) ? ints(1) : intsAttribute("axes");
            Value v = *x;
            if (op == "Unsqueeze") {
                const std::size_t rank = x->dims.size() + axes.size();
                for (std::int64_t& a : axes)
                    a = normalizedAxis(a, rank);
                std::sort(axes.begin(), axes.end());
                for (const std::int64_t a : axes) {
                    if (a < 0 || a > static_cast<std::int64_t>(v.dims.size()))
                        return std::nullopt;
                    v.dims.insert(v.dims.begin() + a, 1);
                }
                return v;
            }
            std::vector<std::int64_t> dims;
            for (std::size_t i = 0; i < x->dims.size(); ++i) {
                const bool listed = std::any_of(axes.begin(), axes.end(), [&](std::int64_t a) {
                    return normalizedAxis(a, x->dims.size()) == static_cast<std::int64_t>(i);
                });
                if (listed && x->dims[i] != 1)
                    return std::nullopt;
                if ((axes.empty() && x->dims[i] == 1) || listed)
                    continue;
                dims.push_back(x->dims[i]);
            }
            v.dims = dims;
            return v;
        }
        if (op == "Reshape")
            return input(1) ? reshape(*x, *input(1), intAttribute(node, "allowzero", 0) != 0) : std::nullopt;
        if (op == "Slice") {
            if (input(1))
                return input(2) ? slice(*x, ints(1), ints(2), ints(3), ints(4)) : std::nullopt;
            return slice(*x, intsAttribute("starts"), intsAttribute("ends"), intsAttribute("axes"), {});
        }
        if (op == "Transpose")
            return transpose(*x, intsAttribute("perm"));
        if (op == "ConstantOfShape") {
            Value fill{{}, {0.0}, kFloat};
            if (const onnx::AttributeProto* a = attribute(node, "value")) {
                const auto v = valueOf(a->t());
                if (!v || v->data.size() != 1)
                    return std::nullopt;
                fill = *v;
            }
            Value out{integers(*x), {}, fill.type};
            const auto count = elementCount(out.dims);
            if (!count)
                return std::nullopt;
            out.data.assign(*count, fill.data.front());
            return out;
        }
        if (op == "Range") {
            if (!input(1) || !input(2) || x->data.size() != 1 || input(1)->data.size() != 1 ||
                input(2)->data.size() != 1 || input(2)->data[0] == 0)
                return std::nullopt;
            const double start = x->data[0];
            const double limit = input(1)->data[0];
            const double delta = input(2)->data[0];
            const double steps = std::max(0.0, std::ceil((limit - start) / delta));
            if (steps > static_cast<double>(kMaxElements))
                return std::nullopt;
            Value out{{saturatedInteger(steps)}, {}, x->type};
            for (std::int64_t i = 0; i < out.dims[0]; ++i)
                out.data.push_back(start + static_cast<double>(i) * delta);
            return out;
        }
        if (op == "Expand") {
            if (!input(1))
                return std::nullopt;
            Value shape{integers(*input(1)), {}, x->type};
            const auto count = elementCount(shape.dims);
            if (!count)
                return std::nullopt;
            shape.data.assign(*count, 0);
            return elementwise({x, &shape}, x->type, [](const std::vector<double>& a) { return a[0]; });
        }
        return std::nullopt;
    }

    const Values& values_;
    const Shapes& shapes_;
};

// Fully known shapes by tensor name: graph inputs, value_info, outputs, initializers.
Shapes staticShapes(const onnx::GraphProto& graph)
{
    Shapes shapes;
    auto note = [&](const onnx::ValueInfoProto& value) {
        if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape())
            return;
        std::vector<std::int64_t> dims;
        for (const auto& d : value.type().tensor_type().shape().dim()) {
            if (!d.has_dim_value() || d.dim_value() < 0)
                return;
            dims.push_back(d.dim_value());
        }
        shapes[value.name()] = std::move(dims);
    };
    for (const auto& value : graph.input())
        note(value);
    for (const auto& value : graph.value_info())
        note(value);
    for (const auto& value : graph.output())
        note(value);
    for (const auto& tensor : graph.initializer())
        shapes[tensor.name()] = std::vector<std::int64_t>(tensor.dims().begin(), tensor.dims().end());
    return shapes;
}

// How much of a shape is known: -1 without rank, else the number of known extents.
int knowledge(const onnx::ValueInfoProto& value)
{
    if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape())
        return -1;
    int known = 0;
    for (const auto& d : value.type().tensor_type().shape().dim())
        known += d.has_dim_value() ? 1 : 0;
    return known;
}

// One round: evaluates what it can and turns each evaluated node of `graph` into a
// Constant with the same outputs. Returns how many nodes were turned.
std::size_t foldOnce(onnx::GraphProto& graph)
{
    const Shapes shapes = staticShapes(graph);
    Values values;
    for (const onnx::TensorProto& tensor : graph.initializer()) {
        if (auto v = valueOf(tensor))
            values.emplace(tensor.name(), std::move(*v));
    }
    const Evaluator evaluator(values, shapes);
    std::size_t folded = 0;
    for (onnx::NodeProto& node : *graph.mutable_node()) {
        if (node.output_size() != 1 || node.output(0).empty())
            continue;
        auto outputs = evaluator.evaluate(node);
        if (!outputs)
            continue;
        if (node.op_type() != "Constant") {
            onnx::NodeProto constant;
            constant.set_op_type("Constant");
            constant.set_name(node.name());
            constant.add_output(node.output(0));
            onnx::AttributeProto* value = constant.add_attribute();
            value->set_name("value");
            value->set_type(onnx::AttributeProto::TENSOR);
            *value->mutable_t() = tensorOf(outputs->front());
            node = std::move(constant);
            ++folded;
        }
        values.insert_or_assign(node.output(0), std::move(outputs->front()));
    }
    return folded;
}

}  // namespace

std::size_t inferShapesThroughShapeComputations(onnx::ModelProto& model)
{
    onnx::ModelProto work = model;
    for (int round = 0; round < kMaxRounds; ++round) {
        if (foldOnce(*work.mutable_graph()) == 0)
            break;
        try {
            const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                                      /*enable_data_propagation=*/true);
            onnx::shape_inference::InferShapes(work, onnx::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception&) {
            break;  // keep what earlier rounds learned
        }
    }
    // Copy back what is better known now: value_info entries and graph outputs (whose
    // declared types ONNX inference refines in the same way).
    onnx::GraphProto& graph = *model.mutable_graph();
    std::unordered_map<std::string, onnx::ValueInfoProto*> entries;
    for (onnx::ValueInfoProto& value : *graph.mutable_input())
        entries[value.name()] = nullptr;  // inputs are given, not inferred
    for (onnx::ValueInfoProto& value : *graph.mutable_value_info())
        entries[value.name()] = &value;
    for (onnx::ValueInfoProto& value : *graph.mutable_output())
        entries[value.name()] = &value;
    std::size_t gained = 0;
    auto adopt = [&](const onnx::ValueInfoProto& value) {
        const auto found = entries.find(value.name());
        if (found == entries.end()) {
            *graph.add_value_info() = value;
            ++gained;
        } else if (found->second && knowledge(*found->second) < knowledge(value)) {
            *found->second->mutable_type() = value.type();
            ++gained;
        }
    };
    for (const auto& value : work.graph().value_info())
        adopt(value);
    for (const auto& value : work.graph().output())
        adopt(value);
    return gained;
}

}  // namespace tapestry
