#include "synth/TransformerParts.h"

namespace tapestry {

namespace {

constexpr double kNormEpsilon = 1e-5;

TensorShape withLast(const TensorShape& shape, std::int64_t last)
{
    std::vector<Dimension> dims = shape.dims();
    dims.back() = Dimension::known(last);
    return TensorShape(std::move(dims));
}

TensorType f32(TensorShape shape)
{
    return {DataType::Float32, std::move(shape)};
}

// [batch, seq, heads*headDim] -> [batch, heads, seq, headDim]
std::string splitHeads(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const Dimension& batch,
                       const Dimension& seq, std::int64_t heads, std::int64_t headDim)
{
    const std::string target = e.int64s(scope, {0, 0, heads, headDim});
    const std::string split = e.op(scope, "Reshape", {x, target},
                                   f32(TensorShape({batch, seq, Dimension::known(heads), Dimension::known(headDim)})));
    return e.op(scope, "Transpose", {split},
                f32(TensorShape({batch, Dimension::known(heads), seq, Dimension::known(headDim)})),
                {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
}

// x * cos + rotate_half(x) * sin on [batch, heads, seq, headDim].
std::string applyRotary(TorchScriptEmitter& e, const std::string& scope, const std::string& x,
                        const TensorShape& shape, const std::string& cos, const std::string& sin)
{
    const std::int64_t headDim = shape.dims().back().value;
    const std::string axis = e.int64s(scope, {3});
    const TensorShape half = withLast(shape, headDim / 2);
    const std::string first =
        e.op(scope, "Slice", {x, e.int64s(scope, {0}), e.int64s(scope, {headDim / 2}), axis}, f32(half));
    const std::string second =
        e.op(scope, "Slice", {x, e.int64s(scope, {headDim / 2}), e.int64s(scope, {headDim}), axis}, f32(half));
    const std::string negated = e.op(scope, "Neg", {second}, f32(half));
    const std::string rotated =
        e.op(scope, "Concat", {negated, first}, f32(shape), {{"axis", std::int64_t{-1}}});
    const std::string withCos = e.op(scope, "Mul", {x, cos}, f32(shape));
    const std::string withSin = e.op(scope, "Mul", {rotated, sin}, f32(shape));
    return e.op(scope, "Add", {withCos, withSin}, f32(shape));
}

// [batch, kvHeads, seq, headDim] -> [batch, heads, seq, headDim] (HF's repeat_kv).
std::string repeatKeyValueHeads(TorchScriptEmitter& e, const std::string& scope, const std::string& x,
                                const AttentionGeometry& g)
{
    const std::int64_t repeats = g.heads / g.kvHeads;
    const Dimension kv = Dimension::known(g.kvHeads);
    const Dimension d = Dimension::known(g.headDim);
    const std::string unsqueezed = e.op(scope, "Unsqueeze", {x, e.int64s(scope, {2})},
                                        f32(TensorShape({g.batch, kv, Dimension::known(1), g.keySeq, d})));
    const std::string expanded = e.op(scope, "Expand", {unsqueezed, e.int64s(scope, {1, 1, repeats, 1, 1})},
                                      f32(TensorShape({g.batch, kv, Dimension::known(repeats), g.keySeq, d})));
    return e.op(scope, "Reshape", {expanded, e.int64s(scope, {0, g.heads, -1, g.headDim})},
                f32(TensorShape({g.batch, Dimension::known(g.heads), g.keySeq, d})));
}

}  // namespace

TensorShape hiddenShape(const Dimension& batch, const Dimension& seq, std::int64_t width)
{
    return TensorShape({batch, seq, Dimension::known(width)});
}

std::string layerNorm(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape,
                      std::string outputName)
{
    const std::int64_t width = shape.dims().back().value;
    const std::string path = modulePath(scope);
    const std::string weight = e.weight(path + ".weight", {width});
    const std::string bias = e.weight(path + ".bias", {width});
    return e.op(scope, "LayerNormalization", {x, weight, bias}, f32(shape),
                {{"axis", std::int64_t{-1}}, {"epsilon", kNormEpsilon}}, std::move(outputName));
}

std::string rmsNorm(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape)
{
    const std::int64_t width = shape.dims().back().value;
    const TensorShape reduced = withLast(shape, 1);
    const std::string squared = e.op(scope, "Pow", {x, e.floatScalar(scope)}, f32(shape));
    const std::string variance =
        e.op(scope, "ReduceMean", {squared}, f32(reduced),
             {{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{1}}});
    const std::string shifted = e.op(scope, "Add", {variance, e.floatScalar(scope)}, f32(reduced));
    const std::string root = e.op(scope, "Sqrt", {shifted}, f32(reduced));
    const std::string inverse = e.op(scope, "Div", {e.floatScalar(scope), root}, f32(reduced));
    const std::string normalized = e.op(scope, "Mul", {x, inverse}, f32(shape));
    const std::string weight = e.weight(modulePath(scope) + ".weight", {width});
    return e.op(scope, "Mul", {weight, normalized}, f32(shape));
}

std::string linear(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape,
                   std::int64_t out, bool bias)
{
    const std::int64_t in = shape.dims().back().value;
    const std::string path = modulePath(scope);
    const TensorShape outShape = withLast(shape, out);
    std::string y = e.op(scope, "MatMul", {x, e.weight(path + ".weight", {in, out})}, f32(outShape));
    if (bias)
        y = e.op(scope, "Add", {e.weight(path + ".bias", {out}), y}, f32(outShape));
    return y;
}

std::string geluTanh(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape)
{
    // 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
    const std::string half = e.op(scope, "Mul", {x, e.floatScalar(scope)}, f32(shape));
    const std::string cubed = e.op(scope, "Pow", {x, e.floatScalar(scope)}, f32(shape));
    const std::string scaledCube = e.op(scope, "Mul", {cubed, e.floatScalar(scope)}, f32(shape));
    const std::string inner = e.op(scope, "Add", {x, scaledCube}, f32(shape));
    const std::string scaled = e.op(scope, "Mul", {inner, e.floatScalar(scope)}, f32(shape));
    const std::string tanh = e.op(scope, "Tanh", {scaled}, f32(shape));
    const std::string onePlus = e.op(scope, "Add", {tanh, e.floatScalar(scope)}, f32(shape));
    return e.op(scope, "Mul", {half, onePlus}, f32(shape));
}

std::string geluErf(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape)
{
    // x * 0.5 * (1 + erf(x / sqrt(2)))
    const std::string scaled = e.op(scope, "Div", {x, e.floatScalar(scope)}, f32(shape));
    const std::string erf = e.op(scope, "Erf", {scaled}, f32(shape));
    const std::string onePlus = e.op(scope, "Add", {erf, e.floatScalar(scope)}, f32(shape));
    const std::string product = e.op(scope, "Mul", {x, onePlus}, f32(shape));
    return e.op(scope, "Mul", {product, e.floatScalar(scope)}, f32(shape));
}

std::string silu(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape)
{
    const std::string gate = e.op(scope, "Sigmoid", {x}, f32(shape));
    return e.op(scope, "Mul", {x, gate}, f32(shape));
}

std::string runtimeExtent(TorchScriptEmitter& e, const std::string& scope, const std::string& tensor,
                          std::int64_t rank, std::int64_t axis)
{
    const std::string shape = e.op(scope, "Shape", {tensor}, {DataType::Int64, TensorShape::ofExtents({rank})});
    return e.op(scope, "Gather", {shape, e.int64Scalar(scope, axis)}, {DataType::Int64, TensorShape::ofExtents({})},
                {{"axis", std::int64_t{0}}});
}

std::string additiveMask(TorchScriptEmitter& e, const std::string& scope, const std::string& mask,
                         const Dimension& batch, const Dimension& seq)
{
    const TensorShape shape({batch, Dimension::known(1), Dimension::known(1), seq});
    const std::string expanded = e.op(scope, "Unsqueeze", {mask, e.int64s(scope, {1, 2})}, {DataType::Int64, shape});
    const std::string asFloat =
        e.op(scope, "Cast", {expanded}, f32(shape), {{"to", static_cast<std::int64_t>(DataType::Float32)}});
    const std::string inverted = e.op(scope, "Sub", {e.floatScalar(scope), asFloat}, f32(shape));
    return e.op(scope, "Mul", {inverted, e.floatScalar(scope)}, f32(shape));
}

std::string causalMask(TorchScriptEmitter& e, const std::string& scope, const std::string& ids, const Dimension& seq)
{
    const std::string length = e.op(scope, "Unsqueeze", {runtimeExtent(e, scope, ids, 2, 1), e.int64s(scope, {0})},
                                     {DataType::Int64, TensorShape::ofExtents({1})});
    const std::string square =
        e.op(scope, "Concat", {length, length}, {DataType::Int64, TensorShape::ofExtents({2})}, {{"axis", std::int64_t{0}}});
    const TensorShape squareShape({seq, seq});
    const std::string ones = e.op(scope, "ConstantOfShape", {square}, f32(squareShape));
    const std::string above =
        e.op(scope, "Trilu", {ones, e.int64Scalar(scope, 1)}, f32(squareShape), {{"upper", std::int64_t{1}}});
    const std::string negative = e.op(scope, "Mul", {above, e.floatScalar(scope)}, f32(squareShape));
    return e.op(scope, "Unsqueeze", {negative, e.int64s(scope, {0, 1})},
                f32(TensorShape({Dimension::known(1), Dimension::known(1), seq, seq})));
}

std::string dropout(TorchScriptEmitter& e, const std::string& scope, const std::string& x, const TensorShape& shape)
{
    return e.opWithOutputs(scope, "Dropout", {x, e.floatScalar(scope)}, {f32(shape), {DataType::Bool, shape}})[0];
}

std::string attention(TorchScriptEmitter& e, const std::string& scope, const AttentionGeometry& g,
                      const std::string& q, const std::string& k, const std::string& v, const std::string& bias,
                      bool scale, const RotaryTables* rotary, bool dropoutProbabilities)
{
    const Dimension heads = Dimension::known(g.heads);
    const Dimension d = Dimension::known(g.headDim);
    std::string query = splitHeads(e, scope, q, g.batch, g.querySeq, g.heads, g.headDim);
    std::string key = splitHeads(e, scope, k, g.batch, g.keySeq, g.kvHeads, g.headDim);
    std::string value = splitHeads(e, scope, v, g.batch, g.keySeq, g.kvHeads, g.headDim);
    if (rotary) {
        const TensorShape tableShape({g.batch, Dimension::known(1), g.querySeq, d});
        const std::string cos = e.op(scope, "Unsqueeze", {rotary->cos, e.int64s(scope, {1})}, f32(tableShape));
        const std::string sin = e.op(scope, "Unsqueeze", {rotary->sin, e.int64s(scope, {1})}, f32(tableShape));
        query = applyRotary(e, scope, query, TensorShape({g.batch, heads, g.querySeq, d}), cos, sin);
        key = applyRotary(e, scope, key, TensorShape({g.batch, Dimension::known(g.kvHeads), g.keySeq, d}), cos, sin);
    }
    if (g.kvHeads != g.heads) {
        key = repeatKeyValueHeads(e, scope, key, g);
        value = repeatKeyValueHeads(e, scope, value, g);
    }
    const std::string keyT = e.op(scope, "Transpose", {key}, f32(TensorShape({g.batch, heads, d, g.keySeq})),
                                  {{"perm", std::vector<std::int64_t>{0, 1, 3, 2}}});
    const TensorShape scoresShape({g.batch, heads, g.querySeq, g.keySeq});
    std::string scores = e.op(scope, "MatMul", {query, keyT}, f32(scoresShape));
    if (scale)
        scores = e.op(scope, "Div", {scores, e.floatScalar(scope)}, f32(scoresShape));
    if (!bias.empty())
        scores = e.op(scope, "Add", {scores, bias}, f32(scoresShape));
    std::string probabilities = e.op(scope, "Softmax", {scores}, f32(scoresShape), {{"axis", std::int64_t{-1}}});
    if (dropoutProbabilities)
        probabilities = dropout(e, scope, probabilities, scoresShape);
    const std::string context =
        e.op(scope, "MatMul", {probabilities, value}, f32(TensorShape({g.batch, heads, g.querySeq, d})));
    const std::string merged = e.op(scope, "Transpose", {context}, f32(TensorShape({g.batch, g.querySeq, heads, d})),
                                    {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
    return e.op(scope, "Reshape", {merged, e.int64s(scope, {0, 0, g.heads * g.headDim})},
                f32(hiddenShape(g.batch, g.querySeq, g.heads * g.headDim)));
}

RotaryTables rotaryTables(TorchScriptEmitter& e, const std::string& scope, const std::string& positionIds,
                          const Dimension& batch, const Dimension& seq, std::int64_t headDim)
{
    const TensorShape column({batch, seq, Dimension::known(1)});
    const std::string positions =
        e.op(scope, "Unsqueeze", {positionIds, e.int64s(scope, {2})}, {DataType::Int64, column});
    const std::string asFloat =
        e.op(scope, "Cast", {positions}, f32(column), {{"to", static_cast<std::int64_t>(DataType::Float32)}});
    const std::string inverseFrequencies =
        e.op(scope, "Constant", {}, f32(TensorShape::ofExtents({headDim / 2})),
             {{"value", AttributeTensor{DataType::Float32, {headDim / 2}, {}}}});
    const std::string frequencies =
        e.op(scope, "Mul", {asFloat, inverseFrequencies}, f32(hiddenShape(batch, seq, headDim / 2)));
    const TensorShape table = hiddenShape(batch, seq, headDim);
    const std::string angles =
        e.op(scope, "Concat", {frequencies, frequencies}, f32(table), {{"axis", std::int64_t{-1}}});
    return {e.op(scope, "Cos", {angles}, f32(table)), e.op(scope, "Sin", {angles}, f32(table))};
}

}  // namespace tapestry
