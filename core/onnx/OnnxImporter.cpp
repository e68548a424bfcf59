#include "onnx/OnnxImporter.h"

#include "base/Error.h"
#include "base/Utf8.h"
#include "graph/GraphBuilder.h"
#include "graph/PlanningOpChecks.h"
#include "onnx/ShapeComputationFolding.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <unordered_set>

namespace tapestry {

namespace {

using google::protobuf::internal::WireFormatLite;

// NodeProto.metadata_props (ONNX >= 1.16) is field 9, unknown to the 1.12 schema here.
constexpr int kNodeMetadataPropsField = 9;
constexpr const char* kDynamoNameScopesKey = "pkg.torch.onnx.name_scopes";

std::string readWholeFile(const std::filesystem::path& file)
{
    const std::string shown = file.string();
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status))
        throw Error(ErrorCode::FileNotFound, shown, "no such file");
    if (std::filesystem::is_directory(status))
        throw Error(ErrorCode::NotARegularFile, shown, "is a directory, not an ONNX model file");
    if (!std::filesystem::is_regular_file(status))
        throw Error(ErrorCode::NotARegularFile, shown, "is not a regular file");

    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(ErrorCode::ReadFailed, shown, "cannot be opened for reading");
    std::string bytes;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0)
        throw Error(ErrorCode::ReadFailed, shown, "cannot determine the file size");
    if (size == 0)
        throw Error(ErrorCode::EmptyFile, shown, "is empty (0 bytes)");
    if (size > std::numeric_limits<int>::max())
        throw Error(ErrorCode::NotOnnx, shown,
                    "is larger than 2 GB, which no ONNX protobuf can be (large models keep weights as external data)");
    bytes.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(bytes.data(), size);
    if (!in)
        throw Error(ErrorCode::ReadFailed, shown, "could not be read completely");
    return bytes;
}

// ModelProto's top-level fields and their wire types, by field number.
int expectedWireType(int field)
{
    switch (field) {
    case 1:   // ir_version
    case 5:   // model_version
        return WireFormatLite::WIRETYPE_VARINT;
    case 2:   // producer_name
    case 3:   // producer_version
    case 4:   // domain
    case 6:   // doc_string
    case 7:   // graph
    case 8:   // opset_import
    case 14:  // metadata_props
    case 20:  // training_info
    case 25:  // functions
    case 26:  // configuration
        return WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    default: return -1;
    }
}

// Called when protobuf refuses the bytes: tell a truncated model from something that
// is not a model at all by walking the top-level fields.
[[noreturn]] void explainParseFailure(const std::string& bytes, const std::string& shown)
{
    google::protobuf::io::CodedInputStream input(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                                 static_cast<int>(bytes.size()));
    input.SetTotalBytesLimit(std::numeric_limits<int>::max());
    int fieldsRead = 0;
    while (true) {
        const std::uint32_t tag = input.ReadTag();
        if (tag == 0) {
            if (input.CurrentPosition() < static_cast<int>(bytes.size()))
                break;
            throw Error(ErrorCode::InvalidModel, shown,
                        "is damaged: its ONNX fields are complete but their contents do not decode");
        }
        const int field = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
        const int wireType = static_cast<int>(WireFormatLite::GetTagWireType(tag));
        if (expectedWireType(field) != wireType)
            break;
        if (wireType == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            std::uint32_t length = 0;
            if (!input.ReadVarint32(&length))
                throw Error(ErrorCode::TruncatedFile, shown, "is truncated: the file ends inside a field header");
            const int remaining = static_cast<int>(bytes.size()) - input.CurrentPosition();
            if (static_cast<std::int64_t>(length) > remaining)
                throw Error(ErrorCode::TruncatedFile, shown,
                            "is truncated: field " + std::to_string(field) + " needs " + std::to_string(length) +
                                " bytes but only " + std::to_string(remaining) + " remain");
            input.Skip(static_cast<int>(length));
        } else if (!WireFormatLite::SkipField(&input, tag)) {
            throw Error(ErrorCode::TruncatedFile, shown, "is truncated: the file ends inside a field");
        }
        ++fieldsRead;
    }
    if (fieldsRead == 0)
        throw Error(ErrorCode::NotOnnx, shown, "is not an ONNX model (its first bytes are not an ONNX ModelProto)");
    throw Error(ErrorCode::NotOnnx, shown,
                "is not a valid ONNX model (unexpected data after " + std::to_string(fieldsRead) + " valid fields)");
}

// Names end up in plan files (JSON, UTF-8 only) and in the GUI. `describe()` names the
// text in the error; it is called only for a text that is not UTF-8, so that a model's
// tens of thousands of valid names build no message.
template <typename Describe>
void requireUtf8Described(const std::string& text, const Describe& describe, const std::string& shown)
{
    if (const auto at = firstInvalidUtf8Byte(text))
        throw Error(ErrorCode::InvalidModel, shown,
                    describe() + " is not valid UTF-8 (byte " + std::to_string(*at) + " of \"" + text.substr(0, *at) +
                        "...\")");
}

void requireUtf8(const std::string& text, std::string_view what, const std::string& shown)
{
    requireUtf8Described(text, [what] { return std::string(what); }, shown);
}

// `describe()` names the typed value in the error; called only for an undefined type.
template <typename Describe>
DataType knownDataType(int onnxType, const Describe& describe, const std::string& shown)
{
    const DataType type = dataTypeFromOnnx(onnxType);
    if (type == DataType::Undefined && onnxType != 0)
        throw Error(ErrorCode::InvalidModel, shown,
                    describe() + " has the element type " + std::to_string(onnxType) + ", which ONNX does not define");
    return type;
}

TensorShape shapeFromProto(const onnx::ValueInfoProto& value, const std::string& shown)
{
    const onnx::TypeProto& type = value.type();
    if (!type.has_tensor_type() || !type.tensor_type().has_shape())
        return {};
    std::vector<Dimension> dims;
    const onnx::TensorShapeProto& shape = type.tensor_type().shape();
    dims.reserve(static_cast<std::size_t>(shape.dim_size()));
    for (const onnx::TensorShapeProto_Dimension& d : shape.dim()) {
        if (d.has_dim_value() && d.dim_value() < 0)
            throw Error(ErrorCode::InvalidModel, shown,
                        "tensor '" + value.name() + "' has a negative dimension (" + std::to_string(d.dim_value()) + ")");
        if (d.has_dim_value())
            dims.push_back(Dimension::known(d.dim_value()));
        else if (d.has_dim_param() && !d.dim_param().empty())
            dims.push_back(Dimension::symbolic(d.dim_param()));
        else
            dims.emplace_back();
    }
    return TensorShape(std::move(dims));
}

DataType dtypeFromProto(const onnx::ValueInfoProto& value, const std::string& shown)
{
    requireUtf8(value.name(), "a tensor name", shown);
    return value.type().has_tensor_type()
               ? knownDataType(value.type().tensor_type().elem_type(),
                               [&value] { return "tensor '" + value.name() + "'"; }, shown)
               : DataType::Undefined;
}

// The values of an inline tensor as little-endian bytes, raw_data's layout: a view of
// raw_data, or the typed field that holds them packed into `packed` (int32_data holds
// every type of 16 bits or fewer, one element per entry; uint64_data the unsigned 32-
// and 64-bit ones).
std::span<const std::byte> inlineBytes(const onnx::TensorProto& tensor, DataType dtype, std::vector<std::byte>& packed)
{
    if (tensor.has_raw_data())
        return std::as_bytes(std::span(tensor.raw_data().data(), tensor.raw_data().size()));
    auto pack = [&packed](const auto& field, std::size_t width) {
        packed.reserve(static_cast<std::size_t>(field.size()) * width);
        for (const auto value : field) {
            const auto* begin = reinterpret_cast<const std::byte*>(&value);  // little-endian: the low bytes first
            packed.insert(packed.end(), begin, begin + width);
        }
    };
    const auto width = static_cast<std::size_t>(std::max(dataTypeBits(dtype), 8) / 8);
    if (tensor.float_data_size() > 0)
        pack(tensor.float_data(), sizeof(float));
    else if (tensor.int64_data_size() > 0)
        pack(tensor.int64_data(), sizeof(std::int64_t));
    else if (tensor.double_data_size() > 0)
        pack(tensor.double_data(), sizeof(double));
    else if (tensor.int32_data_size() > 0 && width <= sizeof(std::int32_t))
        pack(tensor.int32_data(), width);
    else if (tensor.uint64_data_size() > 0 && width <= sizeof(std::uint64_t))
        pack(tensor.uint64_data(), width);
    return packed;
}

Initializer initializerFromProto(const onnx::TensorProto& tensor, const OnnxImportOptions& options,
                                 const std::string& shown)
{
    Initializer out;
    out.name = tensor.name();
    requireUtf8(out.name, "an initializer name", shown);
    out.dtype = knownDataType(
        tensor.data_type(), [&tensor] { return "initializer '" + tensor.name() + "'"; }, shown);
    out.dims.assign(tensor.dims().begin(), tensor.dims().end());
    // Its size in bits must fit in int64, so that element and byte counts stay exact.
    const auto bits = static_cast<std::uint64_t>(std::max(dataTypeBits(out.dtype), 1));
    constexpr auto kMaxBits = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t elements = 1;
    for (const std::int64_t d : out.dims) {
        if (d < 0)
            throw Error(ErrorCode::InvalidModel, shown,
                        "initializer '" + tensor.name() + "' has a negative dimension (" + std::to_string(d) + ")");
        if (d != 0 && elements > kMaxBits / bits / static_cast<std::uint64_t>(d))
            throw Error(ErrorCode::InvalidModel, shown,
                        "initializer '" + tensor.name() + "' is impossibly large: its dimensions multiply past " +
                            "the 2^63 bits a size can count");
        elements *= static_cast<std::uint64_t>(d);
    }
    out.elementCount = elements;
    out.byteSize = (elements * static_cast<std::uint64_t>(dataTypeBits(out.dtype)) + 7) / 8;
    if (tensor.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
        out.location = DataLocation::External;
        for (const onnx::StringStringEntryProto& entry : tensor.external_data()) {
            if (entry.key() == "location")
                out.externalFile = entry.value();
        }
    } else {
        std::vector<std::byte> packed;
        const std::span<const std::byte> bytes = inlineBytes(tensor, out.dtype, packed);
        out.maskValues = maskValuesOf(out.dtype, out.dims, bytes);
        if (out.dtype == DataType::Int64 && out.dims.size() <= 1 && bytes.size() == out.byteSize) {
            out.int64Values.resize(static_cast<std::size_t>(out.elementCount));
            std::memcpy(out.int64Values.data(), bytes.data(), bytes.size());
        }
        if (options.keepInlineWeights)
            out.data.assign(bytes.begin(), bytes.end());
    }
    return out;
}

AttributeTensor attributeTensorFromProto(const onnx::TensorProto& tensor)
{
    AttributeTensor out;
    out.dtype = dataTypeFromOnnx(tensor.data_type());
    out.dims.assign(tensor.dims().begin(), tensor.dims().end());
    std::vector<std::byte> packed;
    const std::span<const std::byte> bytes = inlineBytes(tensor, out.dtype, packed);
    out.maskValues = maskValuesOf(out.dtype, out.dims, bytes);
    // Small int64 constants feed Reshape/Slice shapes; keep their values.
    if (out.dtype == DataType::Int64 && bytes.size() % sizeof(std::int64_t) == 0) {
        out.int64Values.resize(bytes.size() / sizeof(std::int64_t));
        std::memcpy(out.int64Values.data(), bytes.data(), bytes.size());
    }
    return out;
}

// Dynamo exports keep the module path in node metadata that this schema does not
// know; read it from the unknown fields.
std::vector<std::string> dynamoNameScopes(const onnx::NodeProto& node)
{
    std::vector<std::string> scopes;
    const google::protobuf::UnknownFieldSet& unknown = node.unknown_fields();
    for (int i = 0; i < unknown.field_count(); ++i) {
        const google::protobuf::UnknownField& field = unknown.field(i);
        if (field.number() != kNodeMetadataPropsField ||
            field.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            continue;
        onnx::StringStringEntryProto entry;
        if (!entry.ParseFromString(field.length_delimited()) || entry.key() != kDynamoNameScopesKey)
            continue;
        if (parsePythonStringList(entry.value(), scopes))
            return scopes;
    }
    return {};
}

Graph importGraph(const onnx::GraphProto& graphProto, ModelInfo info, bool isSubgraph,
                  const OnnxImportOptions& options);

// The op's name in the Graph: the node's, or TYPE_INDEX for a node without one.
std::string opName(const onnx::NodeProto& node, int index)
{
    return node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
}

std::vector<Attribute> attributesFromProto(const onnx::NodeProto& node, GraphBuilder& builder, OpId opId,
                                           const ModelInfo& info, const OnnxImportOptions& options)
{
    std::vector<Attribute> attributes;
    std::size_t subgraphCount = 0;
    auto importSubgraph = [&](const onnx::GraphProto& body) {
        ModelInfo bodyInfo = info;
        bodyInfo.graphName = body.name();
        builder.addSubgraph(opId, std::make_shared<const Graph>(importGraph(body, bodyInfo, true, options)));
        return AttributeSubgraph{subgraphCount++};
    };
    for (const onnx::AttributeProto& a : node.attribute()) {
        Attribute attribute;
        attribute.name = a.name();
        switch (a.type()) {
        case onnx::AttributeProto::INT: attribute.value = a.i(); break;
        case onnx::AttributeProto::FLOAT: attribute.value = static_cast<double>(a.f()); break;
        case onnx::AttributeProto::STRING: attribute.value = a.s(); break;
        case onnx::AttributeProto::INTS:
            attribute.value = std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
            break;
        case onnx::AttributeProto::FLOATS:
            attribute.value = std::vector<double>(a.floats().begin(), a.floats().end());
            break;
        case onnx::AttributeProto::STRINGS:
            attribute.value = std::vector<std::string>(a.strings().begin(), a.strings().end());
            break;
        case onnx::AttributeProto::TENSOR: attribute.value = attributeTensorFromProto(a.t()); break;
        case onnx::AttributeProto::GRAPH: attribute.value = importSubgraph(a.g()); break;
        case onnx::AttributeProto::GRAPHS:
            for (const onnx::GraphProto& body : a.graphs()) {
                Attribute each;
                each.name = a.name();
                each.value = importSubgraph(body);
                attributes.push_back(std::move(each));
            }
            continue;
        default: continue;  // sparse tensors, type protos: not needed for planning
        }
        attributes.push_back(std::move(attribute));
    }
    return attributes;
}

Graph importGraph(const onnx::GraphProto& graphProto, ModelInfo info, bool isSubgraph,
                  const OnnxImportOptions& options)
{
    const std::string shown = info.sourcePath;
    if (info.graphName.empty())
        info.graphName = graphProto.name();
    GraphBuilder builder(info, isSubgraph);

    std::unordered_set<std::string> initializerNames;
    for (const onnx::TensorProto& tensor : graphProto.initializer()) {
        initializerNames.insert(tensor.name());
        builder.addInitializer(initializerFromProto(tensor, options, shown));
    }
    for (const onnx::SparseTensorProto& sparse : graphProto.sparse_initializer()) {
        onnx::TensorProto dense;
        dense.set_name(sparse.values().name());
        dense.set_data_type(sparse.values().data_type());
        dense.mutable_dims()->CopyFrom(sparse.dims());
        initializerNames.insert(dense.name());
        builder.addInitializer(initializerFromProto(dense, OnnxImportOptions{}, shown));
    }
    // Before IR 4, initializers were also listed as graph inputs.
    for (const onnx::ValueInfoProto& input : graphProto.input()) {
        if (!initializerNames.contains(input.name()))
            builder.addInput(input.name(), dtypeFromProto(input, shown), shapeFromProto(input, shown));
    }

    for (int i = 0; i < graphProto.node_size(); ++i) {
        const onnx::NodeProto& node = graphProto.node(i);
        const std::string name = opName(node, i);
        requireUtf8Described(name, [i] { return "the name of node " + std::to_string(i); }, shown);
        try {
            requireUtf8(node.op_type(), "the op type", shown);
            requireUtf8(node.domain(), "the domain", shown);
            for (const std::string& tensor : node.input())
                requireUtf8(tensor, "an input name", shown);
            for (const std::string& tensor : node.output())
                requireUtf8(tensor, "an output name", shown);
            const std::vector<std::string> scopes = dynamoNameScopes(node);
            ScopePath scope = scopes.empty() ? ScopePath::fromTorchScriptNodeName(node.name())
                                             : ScopePath::fromDynamoNameScopes(scopes);
            const std::vector<std::string> inputs(node.input().begin(), node.input().end());
            const std::vector<std::string> outputs(node.output().begin(), node.output().end());
            const OpId id = builder.addOp(node.op_type(), name, inputs, outputs, {}, std::move(scope), node.domain());
            builder.setAttributes(id, attributesFromProto(node, builder, id, info, options));
        } catch (Error& error) {
            error.addContext("importing node '" + name + "' (" + node.op_type() + ")");
            throw;
        }
    }
    for (const onnx::ValueInfoProto& value : graphProto.value_info())
        builder.setTensorType(value.name(), dtypeFromProto(value, shown), shapeFromProto(value, shown));
    for (const onnx::ValueInfoProto& output : graphProto.output()) {
        builder.setTensorType(output.name(), dtypeFromProto(output, shown), shapeFromProto(output, shown));
        builder.markOutput(output.name());
    }
    return builder.finish();
}

bool needsShape(const std::string& opType)
{
    return opType == "MatMul" || opType == "Gemm" || opType == "Conv";
}

// The operands of `node` whose shapes the planner needs: data and weight inputs and
// the first output (Gemm's optional bias C is not required).
std::vector<std::string_view> requiredShapeOperands(const onnx::NodeProto& node)
{
    std::vector<std::string_view> names;
    for (int i = 0; i < std::min(node.input_size(), 2); ++i)
        names.push_back(node.input(i));
    if (node.output_size() > 0)
        names.push_back(node.output(0));
    return names;
}

// The MatMul, Gemm and Conv ops of the main graph some of whose operands have no rank.
std::vector<std::string> unsizedPlanningOps(const onnx::ModelProto& model)
{
    const onnx::GraphProto& graph = model.graph();
    // Views of the model's own names: nothing is copied (a 96-layer model has some 13,000).
    std::unordered_set<std::string_view> ranked;
    ranked.reserve(static_cast<std::size_t>(graph.input_size() + graph.output_size() + graph.value_info_size() +
                                            graph.initializer_size()));
    auto note = [&ranked](const onnx::ValueInfoProto& value) {
        if (value.type().has_tensor_type() && value.type().tensor_type().has_shape())
            ranked.insert(value.name());
    };
    for (const auto& value : graph.input())
        note(value);
    for (const auto& value : graph.output())
        note(value);
    for (const auto& value : graph.value_info())
        note(value);
    for (const auto& tensor : graph.initializer())
        ranked.insert(tensor.name());
    std::vector<std::string> unsized;
    for (int i = 0; i < graph.node_size(); ++i) {
        const onnx::NodeProto& node = graph.node(i);
        if (!needsShape(node.op_type()) || !node.domain().empty())
            continue;
        const std::vector<std::string_view> operands = requiredShapeOperands(node);
        if (std::any_of(operands.begin(), operands.end(), [&](std::string_view name) { return !ranked.contains(name); }))
            unsized.push_back(opName(node, i));
    }
    return unsized;
}

// Whether some MatMul, Gemm or Conv op of an imported main graph has a required operand
// (unsizedPlanningOps') without a rank: what unsizedPlanningOps says of the model the graph
// came from, read from tensors the import already found by name. An omitted operand is
// not ranked there either.
bool hasUnsizedPlanningOps(const Graph& graph)
{
    const auto unranked = [&graph](TensorId id) { return !id.isValid() || !graph.tensor(id).shape.isRankKnown(); };
    for (const Op& op : graph.ops()) {
        if (!needsShape(op.type) || !op.domain.empty())
            continue;
        const std::size_t data = std::min<std::size_t>(op.inputs.size(), 2);
        if (std::any_of(op.inputs.begin(), op.inputs.begin() + static_cast<std::ptrdiff_t>(data), unranked) ||
            (!op.outputs.empty() && unranked(op.outputs.front())))
            return true;
    }
    return false;
}

// Whether the model is likely sized all through, as exporters that record shapes leave
// it: no sparse initializer (unsizedPlanningOps does not count those as ranked, the graph
// would) and at least as many value_info and output entries as the nodes have outputs.
// Counts only: a wrong guess costs a second import, never a different graph.
bool declaresEveryShape(const onnx::GraphProto& graph)
{
    if (graph.sparse_initializer_size() > 0)
        return false;
    std::int64_t outputs = 0;
    for (const onnx::NodeProto& node : graph.node())
        outputs += node.output_size();
    return graph.value_info_size() + graph.output_size() >= outputs;
}

// ONNX 1.12's inference (its data propagation) dereferences a missing tensor and
// crashes on a node that reads a name nothing defines; such a graph is refused first.
void requireDefinedInputs(const onnx::GraphProto& graph, const std::string& shown)
{
    std::unordered_set<std::string> defined;
    for (const auto& value : graph.input())
        defined.insert(value.name());
    for (const auto& tensor : graph.initializer())
        defined.insert(tensor.name());
    for (const auto& sparse : graph.sparse_initializer())
        defined.insert(sparse.values().name());
    for (const auto& node : graph.node())
        defined.insert(node.output().begin(), node.output().end());
    for (int i = 0; i < graph.node_size(); ++i) {
        for (const std::string& input : graph.node(i).input()) {
            if (!input.empty() && !defined.contains(input))
                throw Error(ErrorCode::InvalidModel, shown,
                            "node '" + opName(graph.node(i), i) + "' (" + graph.node(i).op_type() + ") reads tensor '" +
                                input + "', which no node, input or initializer of the graph defines");
        }
    }
}

void inferShapes(onnx::ModelProto& model, const std::string& shown)
{
    try {
        const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                                  /*enable_data_propagation=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& error) {
        throw Error(ErrorCode::ShapeInferenceFailed, shown, std::string("ONNX shape inference failed: ") + error.what());
    }
}

}  // namespace

Graph importOnnxModel(const std::filesystem::path& file, const OnnxImportOptions& options)
{
    const std::string shown = file.string();
    const std::string bytes = readWholeFile(file);

    // The model's messages live in one arena: a 96-layer model's tens of thousands of
    // small messages are allocated by bumping a pointer and freed at once.
    google::protobuf::Arena arena;
    onnx::ModelProto& model = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
    if (!model.ParseFromString(bytes))
        explainParseFailure(bytes, shown);
    if (!model.has_graph() && model.ir_version() == 0)
        throw Error(ErrorCode::NotOnnx, shown, "is not an ONNX model (it has neither an IR version nor a graph)");
    if (!model.has_graph())
        throw Error(ErrorCode::InvalidModel, shown, "is an ONNX model without a graph");
    if (model.ir_version() < kMinSupportedIrVersion || model.ir_version() > kMaxSupportedIrVersion)
        throw Error(ErrorCode::UnsupportedIrVersion, shown,
                    "uses ONNX IR version " + std::to_string(model.ir_version()) + "; supported are versions " +
                        std::to_string(kMinSupportedIrVersion) + " to " + std::to_string(kMaxSupportedIrVersion));

    ModelInfo info;
    info.sourcePath = shown;
    info.producerName = model.producer_name();
    info.producerVersion = model.producer_version();
    info.irVersion = model.ir_version();
    for (const onnx::OperatorSetIdProto& opset : model.opset_import())
        info.opsetImports.push_back({opset.domain(), opset.version()});

    // A model that declares its shapes (declaresEveryShape) is imported as it is and
    // checked on the graph, whose tensors the import has found by name, instead of
    // collecting every name of the model once more. A model with unranked operands, or one
    // the import refuses, goes the way below as before (which then says why it is refused);
    // so does, without a first import, a model that leaves shapes to inference.
    std::optional<Graph> sized;
    if (declaresEveryShape(model.graph())) {
        try {
            Graph graph = importGraph(model.graph(), info, false, options);
            if (!hasUnsizedPlanningOps(graph))
                sized = std::move(graph);
        } catch (const Error&) {
            // Refused as it is: the way below imports it again and refuses it as it always
            // did (after shape inference where that came first).
        }
    }
    if (sized) {
        checkPlanningOps(*sized);
        return std::move(*sized);
    }
    if (!unsizedPlanningOps(model).empty()) {
        requireDefinedInputs(model.graph(), shown);
        inferShapes(model, shown);
        info.shapesInferred = true;
        if (!unsizedPlanningOps(model).empty())
            (void)inferShapesThroughShapeComputations(model);
        info.unsizedOps = unsizedPlanningOps(model);
    }
    Graph graph = importGraph(model.graph(), std::move(info), false, options);
    checkPlanningOps(graph);
    return graph;
}

}  // namespace tapestry
