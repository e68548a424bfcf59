#pragma once

#include "cluster/Cluster.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// Cluster descriptions as JSON (resources/clusters/*.json and user files), read with
// core/base/JsonReader rather than protobuf's JSON mapping: proto3 scalars cannot tell a
// missing field from a zero, and a hand-written reader names the exact field path in
// every error without a generated schema. Schema, all units in the field names:
//   { "name": str, "notes": [str]?, "nodes": int, "gpusPerNode": int,
//     "gpusPerNvlinkDomain": int?,
//     "gpu": { "name": str, "peakFlopsPerSecond": num, "achievableFraction": num?,
//              "attentionFraction": num?, "cudnnAttentionSpeedup": num? (1 when absent),
//              "hbmBytes": int, "hbmBytesPerSecond": num,
//              "fp8": { "peakFlopsPerSecond": num, "achievableFraction": num?,
//                       "blockScaling": bool?, "anyLayout": bool? }? },
//     "intraNode": { "bytesPerSecond": num, "latencySeconds": num },
//     "interNode": { "bytesPerSecond": num, "latencySeconds": num },
//     "calibration": [ { "collective": "allReduce"|"allGather"|"reduceScatter"|"allToAll",
//                        "link": "intra"|"inter", "source": str?,
//                        "points": [ { "sizeBytes": num, "busBytesPerSecond": num } ] } ]? }
// Fields marked ? are optional. gpusPerNvlinkDomain (one node when absent) must be a
// multiple of gpusPerNode (Cluster::nvlinkDomainSize says how a cluster that does not
// fill whole domains is priced). Unknown fields, missing required fields, wrong types and
// values outside physical sense (counts < 1 or over 2^20 GPUs; FLOP/s outside 1e9..1e18;
// bandwidths outside 1e6..1e15 B/s; latencies outside 0..1 s; calibration sizes outside
// 1..2^53 bytes; fraction outside (0, 1]) throw Error(InvalidCluster, file, "FIELD.PATH:
// what is wrong"); syntax errors throw InvalidJson with line and column.
[[nodiscard]] Cluster parseClusterJson(std::string_view text, const std::string& fileName);

// The cluster as a file of the schema above that parseClusterJson reads back equal
// (numbers in their shortest exact form; curves without their sources, which Cluster
// does not keep). Optional fields at their defaults are left out.
[[nodiscard]] std::string clusterToJson(const Cluster& cluster);

// Reads and parses one cluster file; also the file errors of readTextFile.
[[nodiscard]] Cluster loadClusterFile(const std::filesystem::path& file);

// Loads `<presetDir>/<name>.json`. An unknown name throws FileNotFound listing the
// presets that exist; a name with a path separator throws InvalidArgument.
[[nodiscard]] Cluster loadClusterPreset(const std::filesystem::path& presetDir, std::string_view name);

// The preset names in `presetDir` (file stems of *.json), sorted; empty if none.
[[nodiscard]] std::vector<std::string> clusterPresetNames(const std::filesystem::path& presetDir);

}  // namespace tapestry
