#include "onnx/OnnxExporter.h"

#include "base/AtomicFile.h"
#include "base/Error.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <climits>
#include <set>
#include <type_traits>

namespace tapestry {

namespace {

// State shared by the main graph and its subgraphs: all initializers lie end to end
// in one (unwritten) side file.
struct WriteContext {
    std::string externalFile;
    std::uint64_t nextOffset = 0;
    std::set<std::string> domains;
};

void writeTensorType(const Tensor& tensor, onnx::ValueInfoProto& valueInfo)
{
    valueInfo.set_name(tensor.name);
    onnx::TypeProto_Tensor* type = valueInfo.mutable_type()->mutable_tensor_type();
    type->set_elem_type(static_cast<int>(tensor.dtype));
    if (!tensor.shape.isRankKnown())
        return;
    onnx::TensorShapeProto* shape = type->mutable_shape();
    for (const Dimension& dim : tensor.shape.dims()) {
        onnx::TensorShapeProto_Dimension* out = shape->add_dim();
        if (dim.isKnown())
            out->set_dim_value(dim.value);
        else if (dim.isSymbolic())
            out->set_dim_param(dim.symbol);
    }
}

// An initializer whose bytes the graph holds is written inline; every other one as a
// reference into the side file.
void writeInitializer(const Initializer& initializer, WriteContext& context, onnx::TensorProto& out)
{
    out.set_name(initializer.name);
    out.set_data_type(static_cast<int>(initializer.dtype));
    for (const std::int64_t d : initializer.dims)
        out.add_dims(d);
    if (!initializer.data.empty()) {
        out.set_raw_data(reinterpret_cast<const char*>(initializer.data.data()), initializer.data.size());
        return;
    }
    out.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
    auto addEntry = [&](const char* key, std::string value) {
        onnx::StringStringEntryProto* entry = out.add_external_data();
        entry->set_key(key);
        entry->set_value(std::move(value));
    };
    addEntry("location", context.externalFile);
    addEntry("offset", std::to_string(context.nextOffset));
    addEntry("length", std::to_string(initializer.byteSize));
    context.nextOffset += initializer.byteSize;
}

// The graph keeps only int64 payloads (shape vectors). Other constants come back as
// zeros of the right size, so the file stays well-formed ONNX for any checker.
void writeAttributeTensorPayload(const AttributeTensor& value, onnx::TensorProto& out)
{
    std::uint64_t elements = 1;
    for (const std::int64_t d : value.dims)
        elements *= static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0));
    if (value.dtype == DataType::Int64 && value.int64Values.size() == elements) {
        for (const std::int64_t v : value.int64Values)
            out.add_int64_data(v);
        return;
    }
    out.set_raw_data(std::string((elements * static_cast<std::uint64_t>(dataTypeBits(value.dtype)) + 7) / 8, '\0'));
}

void writeGraph(const Graph& graph, const std::string& name, WriteContext& context, onnx::GraphProto& out);

void writeAttribute(const Op& op, const Attribute& attribute, WriteContext& context, onnx::AttributeProto& out)
{
    out.set_name(attribute.name);
    std::visit(
        [&](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::int64_t>) {
                out.set_type(onnx::AttributeProto_AttributeType_INT);
                out.set_i(value);
            } else if constexpr (std::is_same_v<T, double>) {
                out.set_type(onnx::AttributeProto_AttributeType_FLOAT);
                out.set_f(static_cast<float>(value));
            } else if constexpr (std::is_same_v<T, std::string>) {
                out.set_type(onnx::AttributeProto_AttributeType_STRING);
                out.set_s(value);
            } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
                out.set_type(onnx::AttributeProto_AttributeType_INTS);
                for (const std::int64_t v : value)
                    out.add_ints(v);
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
                out.set_type(onnx::AttributeProto_AttributeType_FLOATS);
                for (const double v : value)
                    out.add_floats(static_cast<float>(v));
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                out.set_type(onnx::AttributeProto_AttributeType_STRINGS);
                for (const std::string& v : value)
                    out.add_strings(v);
            } else if constexpr (std::is_same_v<T, AttributeTensor>) {
                out.set_type(onnx::AttributeProto_AttributeType_TENSOR);
                onnx::TensorProto* tensor = out.mutable_t();
                tensor->set_data_type(static_cast<int>(value.dtype));
                for (const std::int64_t d : value.dims)
                    tensor->add_dims(d);
                writeAttributeTensorPayload(value, *tensor);
            } else if constexpr (std::is_same_v<T, AttributeSubgraph>) {
                if (value.index >= op.subgraphs.size() || !op.subgraphs[value.index])
                    throw Error(ErrorCode::WriteFailed, {},
                                "attribute '" + attribute.name + "' of op '" + op.name + "' names a missing subgraph");
                out.set_type(onnx::AttributeProto_AttributeType_GRAPH);
                writeGraph(*op.subgraphs[value.index], op.name + "_" + attribute.name, context, *out.mutable_g());
            }
        },
        attribute.value);
}

void writeNode(const Graph& graph, const Op& op, WriteContext& context, onnx::NodeProto& out)
{
    out.set_name(op.name);
    out.set_op_type(op.type);
    if (!op.domain.empty()) {
        out.set_domain(op.domain);
        context.domains.insert(op.domain);
    }
    for (const TensorId input : op.inputs)
        out.add_input(input.isValid() ? graph.tensor(input).name : std::string());
    for (const TensorId output : op.outputs)
        out.add_output(output.isValid() ? graph.tensor(output).name : std::string());
    for (const Attribute& attribute : op.attributes)
        writeAttribute(op, attribute, context, *out.add_attribute());
}

void writeGraph(const Graph& graph, const std::string& name, WriteContext& context, onnx::GraphProto& out)
{
    out.set_name(name);
    for (const Initializer& initializer : graph.initializers())
        writeInitializer(initializer, context, *out.add_initializer());
    for (const TensorId input : graph.inputs())
        writeTensorType(graph.tensor(input), *out.add_input());
    // File order is the builder's order; the topological order would do as well, but
    // keeping it makes a written graph read back with the same op ids.
    for (const Op& op : graph.ops())
        writeNode(graph, op, context, *out.add_node());
    for (const TensorId output : graph.outputs())
        writeTensorType(graph.tensor(output), *out.add_output());
    for (const Tensor& tensor : graph.tensors()) {
        if (tensor.role != TensorRole::Intermediate || tensor.isGraphOutput)
            continue;
        if (tensor.dtype == DataType::Undefined && !tensor.shape.isRankKnown())
            continue;
        writeTensorType(tensor, *out.add_value_info());
    }
}

}  // namespace

void writeOnnxModel(const Graph& graph, const std::filesystem::path& file, const OnnxWriteOptions& options)
{
    const std::string path = file.string();
    WriteContext context;
    context.externalFile =
        options.externalDataFile.empty() ? file.stem().string() + ".weights.bin" : options.externalDataFile;

    onnx::ModelProto model;
    model.set_ir_version(kWrittenIrVersion);
    model.set_producer_name(options.producerName);
    model.set_producer_version(options.producerVersion);
    try {
        writeGraph(graph, graph.info().graphName.empty() ? "main_graph" : graph.info().graphName, context,
                   *model.mutable_graph());
    } catch (Error& error) {
        throw Error(ErrorCode::WriteFailed, path, error.message());
    }
    onnx::OperatorSetIdProto* defaultOpset = model.add_opset_import();
    defaultOpset->set_domain("");
    defaultOpset->set_version(kWrittenOpsetVersion);
    for (const std::string& domain : context.domains) {
        onnx::OperatorSetIdProto* opset = model.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(1);
    }

    if (model.ByteSizeLong() > static_cast<std::size_t>(INT_MAX))
        throw Error(ErrorCode::WriteFailed, path, "the model is over protobuf's 2 GB limit");

    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw Error(ErrorCode::WriteFailed, path, "the model could not be serialized");
    writeFileAtomically(file, bytes);
}

}  // namespace tapestry
