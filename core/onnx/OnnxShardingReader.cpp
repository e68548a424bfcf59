#include "onnx/OnnxShardingReader.h"

#include "base/Error.h"
#include "base/TextFile.h"

#include <onnx/onnx_pb.h>

#include <google/protobuf/unknown_field_set.h>

namespace tapestry {

namespace {

using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;

// Unknown to the ONNX 1.12 schema (see OnnxShardingAnnotations.h for the nested fields).
constexpr int kNodeDeviceConfigurationsField = 10;
constexpr int kModelConfigurationField = 26;

// The fields of a nested message that the schema does not know.
class Fields {
public:
    Fields(const std::string& bytes, const std::string& shown, const char* message)
    {
        if (!fields_.ParseFromString(bytes))
            throw Error(ErrorCode::InvalidModel, shown, std::string("has a ") + message + " that does not decode");
    }

    template <typename Visit>
    void each(Visit visit) const
    {
        for (int i = 0; i < fields_.field_count(); ++i)
            visit(fields_.field(i));
    }

private:
    UnknownFieldSet fields_;
};

bool isBytes(const UnknownField& field)
{
    return field.type() == UnknownField::TYPE_LENGTH_DELIMITED;
}

std::int64_t asInt64(const UnknownField& field)
{
    return field.type() == UnknownField::TYPE_VARINT ? static_cast<std::int64_t>(field.varint()) : 0;
}

OnnxShardedDim decodeShardedDim(const std::string& bytes, const std::string& shown)
{
    OnnxShardedDim dim;
    Fields(bytes, shown, "ShardedDimProto").each([&](const UnknownField& field) {
        if (field.number() == 1)
            dim.axis = asInt64(field);
        if (field.number() != 2 || !isBytes(field))
            return;
        OnnxSimpleSharding simple;
        Fields(field.length_delimited(), shown, "SimpleShardedDimProto").each([&](const UnknownField& f) {
            if (f.number() == 1)
                simple.dimValue = asInt64(f);
            else if (f.number() == 2 && isBytes(f))
                simple.dimParam = f.length_delimited();
            else if (f.number() == 3)
                simple.numShards = asInt64(f);
        });
        dim.simpleSharding.push_back(std::move(simple));
    });
    return dim;
}

OnnxShardingSpec decodeShardingSpec(const std::string& bytes, const std::string& shown)
{
    OnnxShardingSpec spec;
    Fields(bytes, shown, "ShardingSpecProto").each([&](const UnknownField& field) {
        if (field.number() == 1 && isBytes(field)) {
            spec.tensorName = field.length_delimited();
        } else if (field.number() == 2 && field.type() == UnknownField::TYPE_VARINT) {
            spec.devices.push_back(asInt64(field));
        } else if (field.number() == 3 && isBytes(field)) {
            std::pair<std::int64_t, std::vector<std::int64_t>> group;
            Fields(field.length_delimited(), shown, "IntIntListEntryProto").each([&](const UnknownField& f) {
                if (f.number() == 1)
                    group.first = asInt64(f);
                else if (f.number() == 2)
                    group.second.push_back(asInt64(f));
            });
            spec.deviceGroups.push_back(std::move(group));
        } else if (field.number() == 4 && isBytes(field)) {
            spec.shardedDims.push_back(decodeShardedDim(field.length_delimited(), shown));
        }
    });
    return spec;
}

}  // namespace

OnnxShardingAnnotations readOnnxShardingAnnotations(const std::filesystem::path& file)
{
    const std::string shown = file.string();
    onnx::ModelProto model;
    if (!model.ParseFromString(readTextFile(file)) || !model.has_graph())
        throw Error(ErrorCode::NotOnnx, shown, "is not an ONNX model");

    OnnxShardingAnnotations annotations;
    const UnknownFieldSet& modelFields = model.unknown_fields();
    for (int i = 0; i < modelFields.field_count(); ++i) {
        const UnknownField& field = modelFields.field(i);
        if (field.number() != kModelConfigurationField || !isBytes(field))
            continue;
        OnnxDeviceConfiguration configuration;
        Fields(field.length_delimited(), shown, "DeviceConfigurationProto").each([&](const UnknownField& f) {
            if (f.number() == 1 && isBytes(f))
                configuration.name = f.length_delimited();
            else if (f.number() == 2)
                configuration.numDevices = static_cast<int>(asInt64(f));
            else if (f.number() == 3 && isBytes(f))
                configuration.devices.push_back(f.length_delimited());
        });
        annotations.configurations.push_back(std::move(configuration));
    }
    for (int n = 0; n < model.graph().node_size(); ++n) {
        const UnknownFieldSet& nodeFields = model.graph().node(n).unknown_fields();
        for (int i = 0; i < nodeFields.field_count(); ++i) {
            const UnknownField& field = nodeFields.field(i);
            if (field.number() != kNodeDeviceConfigurationsField || !isBytes(field))
                continue;
            OnnxNodeConfiguration configuration;
            configuration.nodeIndex = static_cast<std::size_t>(n);
            Fields(field.length_delimited(), shown, "NodeDeviceConfigurationProto").each([&](const UnknownField& f) {
                if (f.number() == 1 && isBytes(f))
                    configuration.configurationId = f.length_delimited();
                else if (f.number() == 2 && isBytes(f))
                    configuration.shardingSpecs.push_back(decodeShardingSpec(f.length_delimited(), shown));
            });
            annotations.nodes.push_back(std::move(configuration));
        }
    }
    for (const onnx::StringStringEntryProto& entry : model.metadata_props())
        annotations.metadata.emplace_back(entry.key(), entry.value());
    return annotations;
}

}  // namespace tapestry
