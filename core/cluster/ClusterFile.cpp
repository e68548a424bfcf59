#include "cluster/ClusterFile.h"

#include "base/Error.h"
#include "base/JsonReader.h"
#include "base/JsonWriter.h"
#include "base/TextFile.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace tapestry {

namespace {

// Reads the members of one JSON object by name, remembering which were used so that
// anything left over is reported as an unknown field. Paths are dotted ("gpu.hbmBytes",
// "calibration[0].points[3].sizeBytes") so the message points at the exact spot.
class FieldReader {
public:
    FieldReader(const JsonValue& value, const std::string& file, std::string path)
        : file_(file), path_(std::move(path))
    {
        if (!value.isObject())
            fail(path_, std::string("must be an object, not ") + value.kindName());
        object_ = &value.asObject();
    }

    [[noreturn]] void fail(const std::string& field, const std::string& what) const
    {
        throw Error(ErrorCode::InvalidCluster, file_, (field.empty() ? "top level" : field) + ": " + what);
    }

    std::string pathOf(std::string_view key) const
    {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }

    const JsonValue* optional(std::string_view key)
    {
        used_.insert(std::string(key));
        for (const auto& [name, value] : *object_) {
            if (name == key)
                return &value;
        }
        return nullptr;
    }

    const JsonValue& required(std::string_view key)
    {
        const JsonValue* value = optional(key);
        if (value == nullptr)
            fail(pathOf(key), "missing required field");
        return *value;
    }

    std::string string(std::string_view key)
    {
        const JsonValue& value = required(key);
        if (!value.isString())
            fail(pathOf(key), std::string("must be a string, not ") + value.kindName());
        return value.asString();
    }

    double number(std::string_view key, const JsonValue& value)
    {
        if (!value.isNumber())
            fail(pathOf(key), std::string("must be a number, not ") + value.kindName());
        return value.asNumber();
    }

    double positive(std::string_view key)
    {
        const double x = number(key, required(key));
        if (!(x > 0))
            fail(pathOf(key), "must be positive");
        return x;
    }

    // A figure within what hardware can be: the cost model divides by rates and sums
    // latencies, so 1e-300 B/s or 1e308 s would give inf and NaN times (and abort CBC).
    double within(std::string_view key, double min, double max)
    {
        const double x = number(key, required(key));
        if (!(x >= min && x <= max)) {
            std::ostringstream range;
            range << "must be from " << min << " to " << max << ", not " << x;
            fail(pathOf(key), range.str());
        }
        return x;
    }

    // A positive whole number that fits `limit`.
    double count(std::string_view key, double limit)
    {
        const double x = positive(key);
        if (x != std::floor(x) || x > limit)
            fail(pathOf(key), "must be a whole number from 1 to " + std::to_string(static_cast<std::uint64_t>(limit)));
        return x;
    }

    const JsonValue::Array& array(std::string_view key, const JsonValue& value)
    {
        if (!value.isArray())
            fail(pathOf(key), std::string("must be an array, not ") + value.kindName());
        return value.asArray();
    }

    void rejectUnknown() const
    {
        for (const auto& member : *object_) {
            if (!used_.contains(member.first))
                fail(pathOf(member.first), "unknown field");
        }
    }

private:
    const std::string& file_;
    std::string path_;
    const JsonValue::Object* object_ = nullptr;
    std::set<std::string, std::less<>> used_;
};

constexpr double kMaxCount = 1 << 20;
constexpr double kMaxBytes = 9007199254740992.0;  // 2^53: exact in a JSON number
// Physical sense, generously: from a slow CPU to a thousand times today's GPUs, and
// from a serial port to a thousand times NVLink.
constexpr double kMinFlops = 1e9;
constexpr double kMaxFlops = 1e18;
constexpr double kMinBytesPerSecond = 1e6;
constexpr double kMaxBytesPerSecond = 1e15;
constexpr double kMaxLatencySeconds = 1.0;

Fp8Rate readFp8(const JsonValue& value, const std::string& file)
{
    FieldReader in(value, file, "gpu.fp8");
    Fp8Rate fp8;
    fp8.peakFlopsPerSecond = in.within("peakFlopsPerSecond", kMinFlops, kMaxFlops);
    if (const JsonValue* fraction = in.optional("achievableFraction")) {
        fp8.achievableFraction = in.number("achievableFraction", *fraction);
        if (!(fp8.achievableFraction > 0 && fp8.achievableFraction <= 1))
            in.fail("gpu.fp8.achievableFraction", "must be in (0, 1]");
    }
    if (const JsonValue* block = in.optional("blockScaling")) {
        if (!block->isBool())
            in.fail("gpu.fp8.blockScaling", std::string("must be true or false, not ") + block->kindName());
        fp8.blockScaling = block->asBool();
    }
    if (const JsonValue* layout = in.optional("anyLayout")) {
        if (!layout->isBool())
            in.fail("gpu.fp8.anyLayout", std::string("must be true or false, not ") + layout->kindName());
        fp8.anyLayout = layout->asBool();
    }
    in.rejectUnknown();
    return fp8;
}

GpuSpec readGpu(const JsonValue& value, const std::string& file)
{
    FieldReader in(value, file, "gpu");
    GpuSpec gpu;
    gpu.name = in.string("name");
    gpu.peakFlopsPerSecond = in.within("peakFlopsPerSecond", kMinFlops, kMaxFlops);
    if (const JsonValue* fraction = in.optional("achievableFraction")) {
        gpu.achievableFraction = in.number("achievableFraction", *fraction);
        if (!(gpu.achievableFraction > 0 && gpu.achievableFraction <= 1))
            in.fail("gpu.achievableFraction", "must be in (0, 1]");
    }
    if (const JsonValue* fraction = in.optional("attentionFraction")) {
        gpu.attentionFraction = in.number("attentionFraction", *fraction);
        if (!(gpu.attentionFraction > 0 && gpu.attentionFraction <= 1))
            in.fail("gpu.attentionFraction", "must be in (0, 1]");
    }
    if (const JsonValue* speedup = in.optional("cudnnAttentionSpeedup")) {
        gpu.cudnnAttentionSpeedup = in.number("cudnnAttentionSpeedup", *speedup);
        if (!(gpu.cudnnAttentionSpeedup > 0 && gpu.attentionFraction * gpu.cudnnAttentionSpeedup <= 1))
            in.fail("gpu.cudnnAttentionSpeedup", "must be above 0, and times attentionFraction at most 1");
    }
    gpu.hbmBytes = static_cast<std::uint64_t>(in.count("hbmBytes", kMaxBytes));
    gpu.hbmBytesPerSecond = in.within("hbmBytesPerSecond", kMinBytesPerSecond, kMaxBytesPerSecond);
    if (const JsonValue* fp8 = in.optional("fp8"))
        gpu.fp8 = readFp8(*fp8, file);
    in.rejectUnknown();
    return gpu;
}

LinkSpec readLink(const JsonValue& value, const std::string& file, const std::string& path)
{
    FieldReader in(value, file, path);
    LinkSpec link;
    link.bytesPerSecond = in.within("bytesPerSecond", kMinBytesPerSecond, kMaxBytesPerSecond);
    link.latencySeconds = in.within("latencySeconds", 0, kMaxLatencySeconds);
    in.rejectUnknown();
    return link;
}

void readCalibration(const JsonValue& value, const std::string& file, FieldReader& top, Cluster& cluster)
{
    const JsonValue::Array& entries = top.array("calibration", value);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string path = "calibration[" + std::to_string(i) + "]";
        FieldReader in(entries[i], file, path);
        const std::string kindName = in.string("collective");
        const auto kind = collectiveKindFromName(kindName);
        if (!kind)
            in.fail(path + ".collective", "\"" + kindName + "\" is not one of allReduce, allGather, reduceScatter, allToAll");
        const std::string linkName = in.string("link");
        if (linkName != "intra" && linkName != "inter")
            in.fail(path + ".link", "\"" + linkName + "\" is not one of intra, inter");
        const LinkClass link = linkName == "intra" ? LinkClass::Intra : LinkClass::Inter;
        if (in.optional("source") != nullptr)
            (void)in.string("source");

        std::vector<BusBandwidthCurve::Point> points;
        const JsonValue::Array& rows = in.array("points", in.required("points"));
        if (rows.empty())
            in.fail(path + ".points", "needs at least one point");
        for (std::size_t j = 0; j < rows.size(); ++j) {
            FieldReader point(rows[j], file, path + ".points[" + std::to_string(j) + "]");
            points.push_back({point.within("sizeBytes", 1, kMaxBytes),
                              point.within("busBytesPerSecond", kMinBytesPerSecond, kMaxBytesPerSecond)});
            point.rejectUnknown();
        }
        in.rejectUnknown();
        if (cluster.curves.contains({*kind, link}))
            in.fail(path, std::string("a second curve for ") + kindName + " on " + linkName + " links");
        try {
            cluster.curves.emplace(std::pair{*kind, link}, BusBandwidthCurve(std::move(points)));
        } catch (const Error& error) {
            in.fail(path + ".points", error.message());
        }
    }
}

}  // namespace

Cluster parseClusterJson(std::string_view text, const std::string& fileName)
{
    const JsonValue document = parseJson(text, fileName);
    FieldReader in(document, fileName, "");
    Cluster cluster;
    cluster.name = in.string("name");
    if (cluster.name.empty())
        in.fail("name", "must not be empty");
    if (const JsonValue* notes = in.optional("notes")) {
        for (const JsonValue& note : in.array("notes", *notes)) {
            if (!note.isString())
                in.fail("notes", std::string("must hold strings, not ") + note.kindName());
            cluster.notes.push_back(note.asString());
        }
    }
    cluster.nodes = static_cast<int>(in.count("nodes", kMaxCount));
    cluster.gpusPerNode = static_cast<int>(in.count("gpusPerNode", kMaxCount));
    if (static_cast<double>(cluster.nodes) * cluster.gpusPerNode > kMaxCount)
        in.fail("nodes", "nodes x gpusPerNode exceeds " + std::to_string(static_cast<int>(kMaxCount)) + " GPUs");
    if (in.optional("gpusPerNvlinkDomain") != nullptr) {
        const int domain = static_cast<int>(in.count("gpusPerNvlinkDomain", kMaxCount));
        if (domain % cluster.gpusPerNode != 0)
            in.fail("gpusPerNvlinkDomain", "must be a whole number of nodes of " + std::to_string(cluster.gpusPerNode) + " GPUs");
        cluster.gpusPerNvlinkDomain = domain;
    }
    cluster.gpu = readGpu(in.required("gpu"), fileName);
    cluster.intraNode = readLink(in.required("intraNode"), fileName, "intraNode");
    cluster.interNode = readLink(in.required("interNode"), fileName, "interNode");
    if (const JsonValue* calibration = in.optional("calibration"))
        readCalibration(*calibration, fileName, in, cluster);
    in.rejectUnknown();
    return cluster;
}

namespace {

void writeLink(JsonWriter& json, std::string_view key, const LinkSpec& link)
{
    json.key(key).beginObject();
    json.key("bytesPerSecond").shortestValue(link.bytesPerSecond);
    json.key("latencySeconds").shortestValue(link.latencySeconds);
    json.endObject();
}

}  // namespace

std::string clusterToJson(const Cluster& cluster)
{
    const GpuSpec defaults;
    JsonWriter json;
    json.beginObject();
    json.key("name").value(cluster.name);
    if (!cluster.notes.empty()) {
        json.key("notes").beginArray();
        for (const std::string& note : cluster.notes)
            json.value(note);
        json.endArray();
    }
    json.key("nodes").value(cluster.nodes);
    json.key("gpusPerNode").value(cluster.gpusPerNode);
    if (cluster.gpusPerNvlinkDomain > 0)
        json.key("gpusPerNvlinkDomain").value(cluster.gpusPerNvlinkDomain);
    const GpuSpec& gpu = cluster.gpu;
    json.key("gpu").beginObject();
    json.key("name").value(gpu.name);
    json.key("peakFlopsPerSecond").shortestValue(gpu.peakFlopsPerSecond);
    json.key("achievableFraction").shortestValue(gpu.achievableFraction);
    json.key("attentionFraction").shortestValue(gpu.attentionFraction);
    if (gpu.cudnnAttentionSpeedup != defaults.cudnnAttentionSpeedup)
        json.key("cudnnAttentionSpeedup").shortestValue(gpu.cudnnAttentionSpeedup);
    json.key("hbmBytes").value(static_cast<std::uint64_t>(gpu.hbmBytes));
    json.key("hbmBytesPerSecond").shortestValue(gpu.hbmBytesPerSecond);
    if (gpu.fp8.supported()) {
        json.key("fp8").beginObject();
        json.key("peakFlopsPerSecond").shortestValue(gpu.fp8.peakFlopsPerSecond);
        json.key("achievableFraction").shortestValue(gpu.fp8.achievableFraction);
        if (gpu.fp8.blockScaling != defaults.fp8.blockScaling)
            json.key("blockScaling").value(gpu.fp8.blockScaling);
        if (gpu.fp8.anyLayout != defaults.fp8.anyLayout)
            json.key("anyLayout").value(gpu.fp8.anyLayout);
        json.endObject();
    }
    json.endObject();
    writeLink(json, "intraNode", cluster.intraNode);
    writeLink(json, "interNode", cluster.interNode);
    if (!cluster.curves.empty()) {
        json.key("calibration").beginArray();
        for (const auto& [key, curve] : cluster.curves) {
            json.beginObject();
            json.key("collective").value(collectiveKindName(key.first));
            json.key("link").value(key.second == LinkClass::Intra ? "intra" : "inter");
            json.key("points").beginArray();
            for (const BusBandwidthCurve::Point& point : curve.points()) {
                json.beginObject();
                json.key("sizeBytes").shortestValue(point.sizeBytes);
                json.key("busBytesPerSecond").shortestValue(point.busBytesPerSecond);
                json.endObject();
            }
            json.endArray();
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
    return json.text() + "\n";
}

Cluster loadClusterFile(const std::filesystem::path& file)
{
    return parseClusterJson(readTextFile(file), file.string());
}

Cluster loadClusterPreset(const std::filesystem::path& presetDir, std::string_view name)
{
    const std::string stem(name);
    if (stem.empty() || stem.find_first_of("/\\") != std::string::npos || stem == "." || stem == "..")
        throw Error(ErrorCode::InvalidArgument, {}, std::string("\"").append(stem).append("\" is not a cluster preset name"));
    const std::filesystem::path file = presetDir / (stem + ".json");
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        std::string known;
        for (const std::string& preset : clusterPresetNames(presetDir))
            known += (known.empty() ? "" : ", ") + preset;
        throw Error(ErrorCode::FileNotFound, file.string(),
                    "no cluster preset \"" + stem + "\" (presets: " + (known.empty() ? "none" : known) + ")");
    }
    return loadClusterFile(file);
}

std::vector<std::string> clusterPresetNames(const std::filesystem::path& presetDir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(presetDir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json")
            names.push_back(it->path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace tapestry
