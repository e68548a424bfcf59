#include "onnx/OnnxShardingWriter.h"

#include "base/Error.h"
#include "base/TextFile.h"

#include <onnx/onnx_pb.h>

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <climits>

namespace tapestry {

namespace {

using google::protobuf::UnknownFieldSet;

// Unknown to the ONNX 1.12 schema (see OnnxShardingAnnotations.h for the nested fields).
constexpr int kNodeDeviceConfigurationsField = 10;
constexpr int kModelConfigurationField = 26;

std::string serialized(const UnknownFieldSet& fields)
{
    std::string bytes;
    fields.SerializeToString(&bytes);
    return bytes;
}

// int64 fields are varints of the two's complement (negative device group ids too).
void addInt64(UnknownFieldSet& fields, int number, std::int64_t value)
{
    fields.AddVarint(number, static_cast<std::uint64_t>(value));
}

std::string encodeShardedDim(const OnnxShardedDim& dim)
{
    UnknownFieldSet fields;
    addInt64(fields, 1, dim.axis);
    for (const OnnxSimpleSharding& simple : dim.simpleSharding) {
        UnknownFieldSet s;
        if (simple.dimValue >= 0)
            addInt64(s, 1, simple.dimValue);
        else if (!simple.dimParam.empty())
            s.AddLengthDelimited(2, simple.dimParam);
        addInt64(s, 3, simple.numShards);
        fields.AddLengthDelimited(2, serialized(s));
    }
    return serialized(fields);
}

std::string encodeShardingSpec(const OnnxShardingSpec& spec)
{
    UnknownFieldSet fields;
    fields.AddLengthDelimited(1, spec.tensorName);
    // proto2 repeated scalars: one field per value, not packed
    for (const std::int64_t device : spec.devices)
        addInt64(fields, 2, device);
    for (const auto& [key, group] : spec.deviceGroups) {
        UnknownFieldSet entry;
        addInt64(entry, 1, key);
        for (const std::int64_t device : group)
            addInt64(entry, 2, device);
        fields.AddLengthDelimited(3, serialized(entry));
    }
    for (const OnnxShardedDim& dim : spec.shardedDims)
        fields.AddLengthDelimited(4, encodeShardedDim(dim));
    return serialized(fields);
}

std::string encodeNodeConfiguration(const OnnxNodeConfiguration& node)
{
    UnknownFieldSet fields;
    fields.AddLengthDelimited(1, node.configurationId);
    for (const OnnxShardingSpec& spec : node.shardingSpecs)
        fields.AddLengthDelimited(2, encodeShardingSpec(spec));
    return serialized(fields);
}

std::string encodeDeviceConfiguration(const OnnxDeviceConfiguration& configuration)
{
    UnknownFieldSet fields;
    fields.AddLengthDelimited(1, configuration.name);
    addInt64(fields, 2, configuration.numDevices);
    for (const std::string& device : configuration.devices)
        fields.AddLengthDelimited(3, device);
    return serialized(fields);
}

}  // namespace

std::string annotateOnnxModel(const std::filesystem::path& source, const OnnxShardingAnnotations& annotations)
{
    const std::string shown = source.string();
    onnx::ModelProto model;
    if (!model.ParseFromString(readTextFile(source)) || !model.has_graph())
        throw Error(ErrorCode::NotOnnx, shown, "is not an ONNX model");

    onnx::GraphProto& graph = *model.mutable_graph();
    for (onnx::NodeProto& node : *graph.mutable_node())
        node.mutable_unknown_fields()->DeleteByNumber(kNodeDeviceConfigurationsField);
    for (const OnnxNodeConfiguration& configuration : annotations.nodes) {
        if (configuration.nodeIndex >= static_cast<std::size_t>(graph.node_size()))
            throw Error(ErrorCode::InvalidArgument, shown,
                        "has " + std::to_string(graph.node_size()) + " nodes; cannot annotate node " +
                            std::to_string(configuration.nodeIndex));
        graph.mutable_node(static_cast<int>(configuration.nodeIndex))
            ->mutable_unknown_fields()
            ->AddLengthDelimited(kNodeDeviceConfigurationsField, encodeNodeConfiguration(configuration));
    }

    UnknownFieldSet& modelFields = *model.mutable_unknown_fields();
    modelFields.DeleteByNumber(kModelConfigurationField);
    for (const OnnxDeviceConfiguration& configuration : annotations.configurations)
        modelFields.AddLengthDelimited(kModelConfigurationField, encodeDeviceConfiguration(configuration));

    for (const auto& [metadataKey, value] : annotations.metadata) {
        const std::string& key = metadataKey;  // clang 14 cannot capture a structured binding
        auto& props = *model.mutable_metadata_props();
        props.erase(std::remove_if(props.begin(), props.end(),
                                   [&](const onnx::StringStringEntryProto& p) { return p.key() == key; }),
                    props.end());
        onnx::StringStringEntryProto* entry = model.add_metadata_props();
        entry->set_key(key);
        entry->set_value(value);
    }

    if (model.ByteSizeLong() > static_cast<std::size_t>(INT_MAX))
        throw Error(ErrorCode::WriteFailed, shown, "the annotated model is over protobuf's 2 GB limit");
    return model.SerializeAsString();
}

}  // namespace tapestry
