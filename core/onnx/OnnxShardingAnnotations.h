#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tapestry {

// The sharding annotations of ONNX >= 1.18 (onnx.proto: NodeProto.device_configurations
// = 10, ModelProto.configuration = 26), in the project's own types. Field numbers of the
// nested messages as in onnx.proto 1.18:
//   DeviceConfigurationProto      name = 1, num_devices = 2, device = 3
//   NodeDeviceConfigurationProto  configuration_id = 1, sharding_spec = 2, pipeline_stage = 3
//   ShardingSpecProto             tensor_name = 1, device = 2, index_to_device_group_map = 3,
//                                 sharded_dim = 4
//   IntIntListEntryProto          key = 1, value = 2
//   ShardedDimProto               axis = 1, simple_sharding = 2
//   SimpleShardedDimProto         dim_value = 1 | dim_param = 2, num_shards = 3

struct OnnxSimpleSharding {
    std::int64_t dimValue = -1;  // the full extent; -1 when symbolic
    std::string dimParam;        // the symbol when the extent is symbolic
    std::int64_t numShards = 1;
    bool operator==(const OnnxSimpleSharding&) const = default;
};

struct OnnxShardedDim {
    std::int64_t axis = 0;  // the tensor dimension
    std::vector<OnnxSimpleSharding> simpleSharding;
    bool operator==(const OnnxShardedDim&) const = default;
};

// How one input or output of a node lies on the devices. Shards are numbered row-major
// over the sharded dims; shard i lives on devices[i], where a negative entry names a
// group of devices that each hold a copy (index_to_device_group_map).
struct OnnxShardingSpec {
    std::string tensorName;
    std::vector<std::int64_t> devices;
    std::vector<std::pair<std::int64_t, std::vector<std::int64_t>>> deviceGroups;
    std::vector<OnnxShardedDim> shardedDims;
    bool operator==(const OnnxShardingSpec&) const = default;
};

struct OnnxNodeConfiguration {
    std::size_t nodeIndex = 0;  // position in the main graph's node list (the Graph's OpId)
    std::string configurationId;
    std::vector<OnnxShardingSpec> shardingSpecs;
    bool operator==(const OnnxNodeConfiguration&) const = default;
};

struct OnnxDeviceConfiguration {
    std::string name;
    int numDevices = 0;
    std::vector<std::string> devices;
    bool operator==(const OnnxDeviceConfiguration&) const = default;
};

struct OnnxShardingAnnotations {
    std::vector<OnnxDeviceConfiguration> configurations;
    std::vector<OnnxNodeConfiguration> nodes;  // ascending nodeIndex
    // Model metadata_props entries to set (written) or found (read).
    std::vector<std::pair<std::string, std::string>> metadata;
    bool operator==(const OnnxShardingAnnotations&) const = default;
};

}  // namespace tapestry
