#include "cli/ModelContext.h"

#include "cli/CommandLine.h"
#include "cli/Formatting.h"

#include "base/Error.h"
#include "base/ResourceFiles.h"
#include "cluster/ClusterFile.h"
#include "onnx/OnnxImporter.h"

namespace tapestry::cli {

namespace {

std::vector<std::string> splitOn(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

}  // namespace

FoldedModel loadAndFold(const std::string& modelFile)
{
    return foldModel(importOnnxModel(modelFile));
}

Cluster clusterFromOptions(const CommandLine& line, const char* argv0)
{
    const std::string name = line.option("cluster").value_or("dgx-h100x1");
    Cluster cluster;
    if (name.find('/') != std::string::npos || name.ends_with(".json")) {
        cluster = loadClusterFile(name);
    } else {
        const std::filesystem::path executableDir = std::filesystem::absolute(argv0).parent_path();
        const std::filesystem::path presets = findResource(executableDir, "clusters");
        if (presets.empty())
            throw Error(ErrorCode::FileNotFound, "resources/clusters", "the cluster presets are not installed");
        cluster = loadClusterPreset(presets, name);
    }
    if (const auto nodes = line.option("nodes"))
        cluster = cluster.withNodes(static_cast<int>(parseCount(*nodes, "--nodes")));
    return cluster;
}

std::vector<MeshAxis> meshAxesFromOptions(const CommandLine& line, const Cluster& cluster)
{
    const std::string text = line.option("mesh").value_or(std::to_string(cluster.deviceCount()));
    std::vector<MeshAxis> axes;
    for (const std::string& part : splitOn(text, 'x'))
        axes.push_back({{}, static_cast<int>(parseCount(part, "--mesh"))});
    std::vector<std::string> names;
    if (const auto given = line.option("axes"))
        names = splitOn(*given, ',');
    else if (axes.size() == 1)
        names = {"d"};
    else if (axes.size() == 2)
        names = {"dp", "tp"};
    else
        for (std::size_t i = 0; i < axes.size(); ++i)
            names.push_back("a" + std::to_string(i));
    if (names.size() != axes.size())
        throw Error(ErrorCode::InvalidArgument, {},
                    "--axes names " + std::to_string(names.size()) + " axes, --mesh has " + std::to_string(axes.size()));
    for (std::size_t i = 0; i < axes.size(); ++i)
        axes[i].name = names[i];
    return axes;
}

Workload workloadFromOptions(const CommandLine& line)
{
    Workload workload;
    if (const auto batch = line.option("batch"))
        workload.batch = static_cast<std::int64_t>(parseCount(*batch, "--batch"));
    if (const auto sequence = line.option("seq"))
        workload.sequence = static_cast<std::int64_t>(parseCount(*sequence, "--seq"));
    if (const auto optimizer = line.option("optimizer")) {
        if (*optimizer == "adam")
            workload.optimizer = OptimizerKind::AdamMixedPrecision;
        else if (*optimizer == "sgd")
            workload.optimizer = OptimizerKind::SgdMomentum;
        else
            throw Error(ErrorCode::InvalidArgument, {}, "--optimizer is adam or sgd, not '" + *optimizer + "'");
    }
    workload.zero1 = line.hasFlag("zero1");
    return workload;
}

}  // namespace tapestry::cli
