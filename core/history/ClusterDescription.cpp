#include "history/ClusterDescription.h"

#include "base/JsonWriter.h"
#include "cluster/Cluster.h"

namespace tapestry {

namespace {

void writeLink(JsonWriter& json, const char* name, const LinkSpec& link)
{
    json.key(name).beginObject();
    json.key("bytes_per_second").value(link.bytesPerSecond);
    json.key("latency_seconds").value(link.latencySeconds);
    json.endObject();
}

}  // namespace

std::string describeCluster(const Cluster& cluster)
{
    JsonWriter json;
    json.beginObject();
    json.key("nodes").value(cluster.nodes);
    json.key("gpus_per_node").value(cluster.gpusPerNode);
    // Only when set, so that the descriptions of clusters without them stay as they were.
    if (cluster.gpusPerNvlinkDomain > 0)
        json.key("gpus_per_nvlink_domain").value(cluster.gpusPerNvlinkDomain);
    json.key("gpu").beginObject();
    json.key("name").value(cluster.gpu.name);
    json.key("peak_flops").value(cluster.gpu.peakFlopsPerSecond);
    json.key("achievable_fraction").value(cluster.gpu.achievableFraction);
    json.key("attention_fraction").value(cluster.gpu.attentionFraction);
    // Only when set, so that the descriptions of GPUs without it stay as they were.
    if (cluster.gpu.cudnnAttentionSpeedup != 1)
        json.key("cudnn_attention_speedup").value(cluster.gpu.cudnnAttentionSpeedup);
    json.key("hbm_bytes").value(cluster.gpu.hbmBytes);
    json.key("hbm_bytes_per_second").value(cluster.gpu.hbmBytesPerSecond);
    if (cluster.gpu.fp8.supported()) {
        json.key("fp8").beginObject();
        json.key("peak_flops").value(cluster.gpu.fp8.peakFlopsPerSecond);
        json.key("achievable_fraction").value(cluster.gpu.fp8.achievableFraction);
        json.key("block_scaling").value(cluster.gpu.fp8.blockScaling);
        // Only when set, as cudnn_attention_speedup: descriptions of Hopper stay as they were.
        if (cluster.gpu.fp8.anyLayout)
            json.key("any_layout").value(true);
        json.endObject();
    }
    json.endObject();
    writeLink(json, "intra_node", cluster.intraNode);
    writeLink(json, "inter_node", cluster.interNode);
    json.key("curves").beginArray();
    for (const auto& [key, curve] : cluster.curves) {
        json.beginObject();
        json.key("collective").value(collectiveKindName(key.first));
        json.key("link").value(linkClassName(key.second));
        json.key("points").beginArray();
        for (const BusBandwidthCurve::Point& point : curve.points())
            json.beginArray().value(point.sizeBytes).value(point.busBytesPerSecond).endArray();
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return json.text();
}

}  // namespace tapestry
