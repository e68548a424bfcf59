// Cluster presets and JSON errors, the logical mesh's communication groups, and the
// enumeration of mesh shapes. Figures are the ones written in resources/clusters.
#include "base/Error.h"
#include "cluster/ClusterFile.h"
#include "cluster/DeviceMesh.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <optional>

using namespace tapestry;

namespace {

const std::filesystem::path kPresetDir = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "resources" / "clusters";

Cluster preset(std::string_view name)
{
    return loadClusterPreset(kPresetDir, name);
}

DeviceMesh mesh2d(int a, int b, const Cluster& cluster)
{
    return DeviceMesh({{"dp", a}, {"tp", b}}, cluster);
}

// A minimal valid cluster document; tests break one thing in it at a time.
std::string clusterJson(const std::string& gpuExtra = {}, const std::string& topExtra = {})
{
    return R"({
  "name": "tiny", "nodes": 2, "gpusPerNode": 4,
  "gpu": { "name": "G", "peakFlopsPerSecond": 100e12, "hbmBytes": 16e9, "hbmBytesPerSecond": 1e12)"
           + gpuExtra + R"( },
  "intraNode": { "bytesPerSecond": 100e9, "latencySeconds": 2e-6 },
  "interNode": { "bytesPerSecond": 10e9, "latencySeconds": 5e-6 })"
           + topExtra + "\n}";
}

Error errorOf(const std::string& json)
{
    try {
        (void)parseClusterJson(json, "tiny.json");
    } catch (const Error& error) {
        return error;
    }
    return Error(ErrorCode::InvalidArgument, {}, "no error");
}

bool mentions(const Error& error, const std::string& text)
{
    return std::string(error.what()).find(text) != std::string::npos;
}

}  // namespace

class ClusterTest : public QObject {
    Q_OBJECT

private slots:
    void h100PresetsCarryTheReferenceFigures()
    {
        const Cluster c = preset("dgx-h100x2");
        QCOMPARE(c.name, std::string("dgx-h100x2"));
        QCOMPARE(c.nodes, 2);
        QCOMPARE(c.gpusPerNode, 8);
        QCOMPARE(c.deviceCount(), 16);
        QCOMPARE(c.gpu.peakFlopsPerSecond, 989e12);
        QCOMPARE(c.gpu.achievableFraction, 0.6);  // cuBLAS GEMMs through PyTorch (preset notes)
        QCOMPARE(c.gpu.attentionFraction, 0.374);  // FlashAttention-2 on H100: 370 of 989 TFLOP/s (preset notes)
        QCOMPARE(c.gpu.cudnnAttentionSpeedup, 1.608);  // FlashAttention-3 paper, Fig. 5: 595 / 370
        QCOMPARE(c.gpu.hbmBytes, std::uint64_t{80'000'000'000});
        QCOMPARE(c.gpu.hbmBytesPerSecond, 3.35e12);
        QCOMPARE(c.intraNode.bytesPerSecond, 370e9);  // NCCL bus bandwidth, not NVLink's 450
        QCOMPARE(c.interNode.bytesPerSecond, 48e9);
        QCOMPARE(c.intraNode.latencySeconds, 3e-6);
        QCOMPARE(c.interNode.latencySeconds, 6e-6);
        QVERIFY(!c.notes.empty());
        QVERIFY(c.curves.empty());
        QCOMPARE(preset("dgx-h100x1").nodes, 1);
        QCOMPARE(preset("dgx-h100x4").nodes, 4);
        QCOMPARE(preset("dgx-h100x16").deviceCount(), 128);
    }

    void a100AndPciePresets()
    {
        const Cluster a = preset("dgx-a100x2");
        QCOMPARE(a.deviceCount(), 16);
        QCOMPARE(a.gpu.peakFlopsPerSecond, 312e12);
        QCOMPARE(a.intraNode.bytesPerSecond, 240e9);
        QCOMPARE(a.interNode.bytesPerSecond, 24e9);
        QCOMPARE(a.gpu.cudnnAttentionSpeedup, 1.0);  // absent: no faster kernel than FlashAttention-2's on Ampere
        QCOMPARE(preset("dgx-a100x1").deviceCount(), 8);
        const Cluster small = preset("dgx-a100-40gbx1");
        QCOMPARE(small.gpu.hbmBytes, std::uint64_t{40'000'000'000});
        QCOMPARE(small.gpu.hbmBytesPerSecond, 1.555e12);
        const Cluster p = preset("pcie-8gpu");
        QCOMPARE(p.deviceCount(), 8);
        QCOMPARE(p.intraNode.bytesPerSecond, 25e9);
    }

    void everyPresetLoadsAndIsNamedAfterItsFile()
    {
        const std::vector<std::string> names = clusterPresetNames(kPresetDir);
        QCOMPARE(names, (std::vector<std::string>{"dgx-a100-40gbx1", "dgx-a100x1", "dgx-a100x2", "dgx-b200x1", "dgx-h100x1",
                                                  "dgx-h100x16", "dgx-h100x2", "dgx-h100x4", "dgx-h200x1", "gb200-nvl72x1",
                                                  "gb200-nvl72x2", "mi300x-platformx1", "pcie-8gpu"}));
        for (const std::string& name : names)
            QCOMPARE(preset(name).name, name);
    }

    void withNodesScalesAPreset()
    {
        const Cluster a4 = preset("dgx-a100x1").withNodes(4);
        QCOMPARE(a4.deviceCount(), 32);
        QCOMPARE(a4.name, std::string("dgx-a100x1 (4 nodes)"));
        QCOMPARE(a4.gpu, preset("dgx-a100x1").gpu);
        QVERIFY_THROWS_EXCEPTION(Error, (void)a4.withNodes(0));
    }

    void unknownPresetListsTheKnownOnes()
    {
        try {
            (void)preset("dgx-b300x1");
            QFAIL("an unknown preset must be an error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::FileNotFound);
            QVERIFY(mentions(error, "dgx-h100x2"));
        }
        QVERIFY_THROWS_EXCEPTION(Error, (void)preset("../clusters/dgx-h100x1"));
    }

    // The 2026 presets: dense per-precision rates and NVLink domains as their notes give them.
    void newPresetsCarryTheirDatasheetFigures()
    {
        const Cluster h200 = preset("dgx-h200x1");
        QCOMPARE(h200.gpu.hbmBytes, std::uint64_t{141'000'000'000});
        QCOMPARE(h200.gpu.fp8.peakFlopsPerSecond, 1979e12);  // dense; the datasheet doubles it with sparsity
        QVERIFY(!h200.gpu.fp8.blockScaling);
        QVERIFY(!h200.gpu.fp8.anyLayout);  // Hopper's FP8 GEMMs take TN only
        QCOMPARE(h200.nvlinkDomainSize(), 8);
        const Cluster b200 = preset("dgx-b200x1");
        QCOMPARE(b200.gpu.peakFlopsPerSecond, 2250e12);
        QVERIFY(b200.gpu.fp8.blockScaling);
        QVERIFY(b200.gpu.fp8.anyLayout);
        QVERIFY(preset("gb200-nvl72x1").gpu.fp8.anyLayout);
        const Cluster nvl = preset("gb200-nvl72x2");
        QCOMPARE(nvl.deviceCount(), 144);
        QCOMPARE(nvl.gpusPerNode, 4);
        QCOMPARE(nvl.nvlinkDomainSize(), 72);
        QCOMPARE(nvl.gpu.fp8.peakFlopsPerSecond, 5000e12);
        const Cluster mi = preset("mi300x-platformx1");
        QCOMPARE(mi.gpu.hbmBytes, std::uint64_t{192'000'000'000});
        QVERIFY(mi.gpu.fp8.supported());
        QVERIFY(!preset("dgx-a100x1").gpu.fp8.supported());
        QVERIFY(preset("dgx-h100x1").gpu.fp8.supported());
    }

    void nvlinkDomainsAreWholeNodes()
    {
        const Cluster two = parseClusterJson(clusterJson({}, R"(, "gpusPerNvlinkDomain": 8)"), "tiny.json");
        QCOMPARE(two.nvlinkDomainSize(), 8);  // both nodes of 4 GPUs in one domain
        QCOMPARE(parseClusterJson(clusterJson(), "tiny.json").nvlinkDomainSize(), 4);  // a node without the field
        QVERIFY(mentions(errorOf(clusterJson({}, R"(, "gpusPerNvlinkDomain": 6)")),
                         "gpusPerNvlinkDomain: must be a whole number of nodes of 4 GPUs"));
        // 2 x 4 = 8 GPUs are part of one domain of 16.
        QCOMPARE(parseClusterJson(clusterJson({}, R"(, "gpusPerNvlinkDomain": 16)"), "tiny.json").nvlinkDomainSize(), 8);
        const Cluster rack = preset("gb200-nvl72x1");
        QCOMPARE(rack.withNodes(36).nvlinkDomainSize(), 72);
        QCOMPARE(rack.withNodes(9).nvlinkDomainSize(), 36);  // half a rack is one domain
        // 80 GPUs, one rack and 8 of the next: domains of gcd(72, 80) = 8 lie inside real ones.
        QCOMPARE(rack.withNodes(20).nvlinkDomainSize(), 8);
        QVERIFY(mentions(errorOf(clusterJson(R"(, "fp8": {"peakFlopsPerSecond": 200e12, "blockScaling": 1})")),
                         "gpu.fp8.blockScaling: must be true or false"));
        QVERIFY(mentions(errorOf(clusterJson(R"(, "fp8": {"peakFlopsPerSecond": 200e12, "anyLayout": "yes"})")),
                         "gpu.fp8.anyLayout: must be true or false"));
        QVERIFY(mentions(errorOf(clusterJson(R"(, "fp8": {"peakFlopsPerSecond": 200e12, "achievableFraction": 2})")),
                         "gpu.fp8.achievableFraction: must be in (0, 1]"));
    }

    void malformedClusterJsonNamesFileAndField()
    {
        QCOMPARE(parseClusterJson(clusterJson(), "tiny.json").gpu.achievableFraction, 0.5);  // the default

        const Error unknown = errorOf(clusterJson(R"(, "tflops": 5)"));
        QCOMPARE(unknown.code(), ErrorCode::InvalidCluster);
        QCOMPARE(unknown.file(), std::string("tiny.json"));
        QVERIFY(mentions(unknown, "gpu.tflops: unknown field"));

        const Error missing = errorOf(R"({ "name": "x", "nodes": 1, "gpusPerNode": 8 })");
        QCOMPARE(missing.code(), ErrorCode::InvalidCluster);
        QVERIFY(mentions(missing, "gpu: missing required field"));

        const Error wrongType = errorOf(clusterJson({}, R"(, "notes": "one string")"));
        QVERIFY(mentions(wrongType, "notes: must be an array, not string"));

        const Error notWhole = errorOf(clusterJson(R"(, "achievableFraction": 1.5)"));
        QVERIFY(mentions(notWhole, "gpu.achievableFraction: must be in (0, 1]"));

        QVERIFY(mentions(errorOf(clusterJson(R"(, "attentionFraction": 0.5, "cudnnAttentionSpeedup": 2.5)")),
                         "gpu.cudnnAttentionSpeedup: must be above 0, and times attentionFraction at most 1"));

        const Error badCurve = errorOf(clusterJson({}, R"(, "calibration": [ { "collective": "broadcast",
            "link": "intra", "points": [ { "sizeBytes": 1024, "busBytesPerSecond": 1e9 } ] } ])"));
        QVERIFY(mentions(badCurve, "calibration[0].collective"));

        // The campaign's extremes: accepted, they gave inf/NaN step times and aborted CBC.
        auto with = [](const std::string& from, const std::string& to) {
            std::string json = clusterJson();
            return json.replace(json.find(from), from.size(), to);
        };
        QVERIFY(mentions(errorOf(with("10e9", "1e-300")),
                         "interNode.bytesPerSecond: must be from 1e+06 to 1e+15, not 1e-300"));
        QVERIFY(mentions(errorOf(with("5e-6", "1e308")),
                         "interNode.latencySeconds: must be from 0 to 1"));
        QVERIFY(mentions(errorOf(with("100e12", "5e-324")),
                         "gpu.peakFlopsPerSecond: must be from 1e+09 to 1e+18"));
        QVERIFY(mentions(errorOf(clusterJson({}, R"(, "calibration": [ { "collective": "allReduce", "link": "inter",
            "points": [ { "sizeBytes": 5e-324, "busBytesPerSecond": 1e9 } ] } ])")),
                         "calibration[0].points[0].sizeBytes: must be from 1"));

        const Error syntax = errorOf("{ \"name\": \"x\",\n  \"nodes\": 1,, }");
        QCOMPARE(syntax.code(), ErrorCode::InvalidJson);
        QCOMPARE(syntax.file(), std::string("tiny.json"));
        QVERIFY(mentions(syntax, "line 2, column 14"));
    }

    void calibrationCurvesAreRead()
    {
        const Cluster c = parseClusterJson(clusterJson({}, R"(, "calibration": [ { "collective": "allReduce",
            "link": "inter", "source": "measured", "points": [ { "sizeBytes": 1e6, "busBytesPerSecond": 5e9 },
            { "sizeBytes": 1e3, "busBytesPerSecond": 1e8 } ] } ])"), "tiny.json");
        const BusBandwidthCurve* curve = c.curve(CollectiveKind::AllReduce, LinkClass::Inter);
        QVERIFY(curve != nullptr);
        QCOMPARE(curve->points().size(), 2u);
        QCOMPARE(curve->points().front().sizeBytes, 1e3);  // sorted by size
        QVERIFY(c.curve(CollectiveKind::AllReduce, LinkClass::Intra) == nullptr);
    }

    // What calibrate writes reads back equal: every preset, and a cluster with a curve
    // and an NVLink domain; numbers in their shortest exact form, as the presets write them.
    void clusterFilesWrittenReadBackEqual()
    {
        for (const std::string& name : clusterPresetNames(kPresetDir)) {
            const Cluster c = preset(name);
            QCOMPARE(parseClusterJson(clusterToJson(c), name + ".json"), c);
        }
        const Cluster curved = parseClusterJson(clusterJson({}, R"(, "gpusPerNvlinkDomain": 8, "calibration": [ {
            "collective": "allGather", "link": "intra", "points": [ { "sizeBytes": 1e6, "busBytesPerSecond": 5e9 },
            { "sizeBytes": 1e3, "busBytesPerSecond": 1e8 } ] } ])"), "tiny.json");
        QCOMPARE(parseClusterJson(clusterToJson(curved), "written.json"), curved);
        const std::string h100 = clusterToJson(preset("dgx-h100x1"));
        QVERIFY(h100.find("\"achievableFraction\": 0.6,") != std::string::npos);
        QVERIFY(h100.find("\"cudnnAttentionSpeedup\": 1.608,") != std::string::npos);
        QVERIFY(clusterToJson(preset("dgx-a100x1")).find("cudnnAttentionSpeedup") == std::string::npos);
        QVERIFY(h100.find("\"latencySeconds\": 3e-06") != std::string::npos);
    }

    void mesh2x8OnTwoNodesIsInterThenIntra()
    {
        const DeviceMesh m = mesh2d(2, 8, preset("dgx-h100x2"));
        QCOMPARE(m.group(0), (AxisGroup{2, 2, 1, GroupSpan::InterNode}));
        QCOMPARE(m.group(1), (AxisGroup{8, 1, 8, GroupSpan::IntraNode}));
        QCOMPARE(m.toString(), std::string("[2, 8] (dp, tp)"));
    }

    void mesh4x4OnTwoNodesHasAMixedAxis()
    {
        const DeviceMesh m = mesh2d(4, 4, preset("dgx-h100x2"));
        // dp groups are {j, 4+j, 8+j, 12+j}: devices 0 and 4 on node 0, 8 and 12 on node 1.
        QCOMPARE(m.group(0), (AxisGroup{4, 2, 2, GroupSpan::Mixed}));
        QCOMPARE(m.group(1), (AxisGroup{4, 1, 4, GroupSpan::IntraNode}));
    }

    void oneDimensionalAndLargeMeshes()
    {
        const DeviceMesh flat({{"dp", 128}}, preset("dgx-h100x16"));
        QCOMPARE(flat.group(0), (AxisGroup{128, 16, 8, GroupSpan::Mixed}));
        const DeviceMesh big = mesh2d(16, 8, preset("dgx-h100x16"));
        QCOMPARE(big.group(0), (AxisGroup{16, 16, 1, GroupSpan::InterNode}));
        QCOMPARE(big.group(1), (AxisGroup{8, 1, 8, GroupSpan::IntraNode}));
    }

    // The group of several axes at once (a collective over the flattened data mesh) is the
    // product of the axes' own: checked against the devices it holds, counted per NVLink
    // domain, on every 2- and 3-axis mesh of several clusters and every set of axes.
    void groupsOfSeveralAxesAreTheProductsOfTheirOwn()
    {
        Cluster fours = preset("dgx-h100x4");
        fours.gpusPerNode = 4;
        fours.nodes = 8;
        Cluster odd = preset("dgx-h100x2");
        odd.nodes = 3;
        odd.gpusPerNode = 4;
        std::size_t checked = 0;
        for (const Cluster& cluster : {preset("dgx-h100x2"), preset("dgx-h100x4"), preset("gb200-nvl72x2"), fours, odd}) {
            const int n = cluster.deviceCount();
            const int domain = cluster.nvlinkDomainSize();
            std::vector<std::vector<int>> shapes;
            for (int a = 1; a <= n; ++a)
                for (int b = 1; a * b <= n; ++b)
                    if (n % (a * b) == 0) {
                        shapes.push_back({a, b, n / (a * b)});
                        if (n / (a * b) == 1)
                            shapes.push_back({a, b});
                    }
            for (const std::vector<int>& shape : shapes) {
                std::vector<MeshAxis> axes;
                for (std::size_t i = 0; i < shape.size(); ++i)
                    axes.push_back({"a" + std::to_string(i), shape[i]});
                std::optional<DeviceMesh> mesh;
                try {
                    mesh.emplace(axes, cluster);
                } catch (const Error&) {
                    continue;  // an axis straddles domains unevenly
                }
                for (unsigned set = 1; set < (1u << shape.size()); ++set) {
                    std::vector<std::size_t> chosen;
                    for (std::size_t i = 0; i < shape.size(); ++i)
                        if (set & (1u << i))
                            chosen.push_back(i);
                    const AxisMask mask = set;
                    // Device 0's group: every coordinate of the chosen axes, the others 0.
                    std::map<int, int> perDomain;
                    std::vector<int> coordinates(shape.size(), 0);
                    for (bool more = true; more;) {
                        ++perDomain[mesh->device(coordinates) / domain];
                        more = false;
                        for (const std::size_t i : chosen) {
                            if (++coordinates[i] < shape[i]) {
                                more = true;
                                break;
                            }
                            coordinates[i] = 0;
                        }
                    }
                    const AxisGroup group = mesh->groupOf(mask);
                    QCOMPARE(group.nodes, static_cast<int>(perDomain.size()));
                    for (const auto& [domainIndex, count] : perDomain)
                        QCOMPARE(group.gpusPerNode, count);
                    QCOMPARE(group.size, group.nodes * group.gpusPerNode);
                    if (chosen.size() == 1)
                        QCOMPARE(group, mesh->group(chosen.front()));
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 300);
        // Data parallel over 2 nodes x 8 GPUs, whichever way the mesh factors it.
        QCOMPARE(mesh2d(2, 8, preset("dgx-h100x2")).groupOf(AxisMask{0b11}), (AxisGroup{16, 2, 8, GroupSpan::Mixed}));
        QCOMPARE(mesh2d(4, 4, preset("dgx-h100x2")).groupOf(AxisMask{0b11}), (AxisGroup{16, 2, 8, GroupSpan::Mixed}));
        QCOMPARE(mesh2d(4, 4, preset("dgx-h100x2")).groupOf(AxisMask{0}), (AxisGroup{1, 1, 1, GroupSpan::IntraNode}));
    }

    // HSDP's groups: an axis's ranks cut into shard groups of b consecutive ranks and their
    // replicas are the two axes of the mesh that factors the axis into (size / b, b).
    void splitGroupIsTheFactoredMeshsAxes()
    {
        int checked = 0;
        for (const char* name : {"dgx-h100x2", "dgx-h100x4"}) {
            const Cluster c = preset(name);
            const int devices = c.deviceCount();
            for (const std::vector<int>& shape : std::vector<std::vector<int>>{
                     {devices}, {2, devices / 2}, {devices / 2, 2}, {4, devices / 4}, {devices / 4, 4}}) {
                std::vector<MeshAxis> axes;
                for (std::size_t i = 0; i < shape.size(); ++i)
                    axes.push_back({"a" + std::to_string(i), shape[i]});
                const DeviceMesh mesh(axes, c);
                for (std::size_t i = 0; i < shape.size(); ++i) {
                    for (int inner = 1; inner <= shape[i]; ++inner) {
                        if (shape[i] % inner != 0)
                            continue;
                        std::vector<MeshAxis> factored = axes;
                        factored[i] = {"outer", shape[i] / inner};
                        factored.insert(factored.begin() + static_cast<std::ptrdiff_t>(i) + 1, MeshAxis{"inner", inner});
                        const auto split = splitGroup(mesh.group(i), inner);
                        try {
                            const DeviceMesh expected(factored, c);
                            QVERIFY(split);
                            QCOMPARE(split->inner, expected.group(i + 1));
                            QCOMPARE(split->outer, expected.group(i));
                        } catch (const Error&) {
                            QVERIFY(!split);
                        }
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 40);
        QVERIFY(!splitGroup(AxisGroup{16, 2, 8, GroupSpan::Mixed}, 3));
    }

    void devicesAreRowMajorOnMeshAndCluster()
    {
        const DeviceMesh m = mesh2d(4, 4, preset("dgx-h100x2"));
        QCOMPARE(m.coordinates(9), (std::vector<int>{2, 1}));
        QCOMPARE(m.device({2, 1}), 9);
        QCOMPARE(m.placement(9), (DevicePlacement{1, 1}));
        QCOMPARE(m.findAxis("tp"), std::optional<std::size_t>(1));
        QVERIFY(!m.findAxis("pp"));
    }

    void badMeshesAreRejected()
    {
        const Cluster c = preset("dgx-h100x2");
        try {
            (void)mesh2d(4, 8, c);
            QFAIL("a mesh of 32 devices on 16 GPUs must be an error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidMesh);
            QVERIFY(mentions(error, "2 x 8 = 16 GPUs"));
            QVERIFY(mentions(error, "[4, 8] has 32 devices"));
        }
        QVERIFY_THROWS_EXCEPTION(Error, (void)DeviceMesh({}, c));
        QVERIFY_THROWS_EXCEPTION(Error, (void)DeviceMesh({{"dp", 4}, {"dp", 4}}, c));
        QVERIFY_THROWS_EXCEPTION(Error, (void)DeviceMesh({{"dp", 0}, {"tp", 16}}, c));
        // Sets of axes are bit masks: a mesh of more than 64 axes (61 of one GPU here) is refused.
        std::vector<MeshAxis> many;
        for (int i = 0; i < 65; ++i)
            many.push_back({"a" + std::to_string(i), i < 4 ? 2 : 1});
        try {
            (void)DeviceMesh(many, c);
            QFAIL("a mesh of 65 axes must be an error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidMesh);
            QVERIFY(mentions(error, "a mesh of 65 axes: at most 64"));
        }
        many.pop_back();
        QCOMPARE(DeviceMesh(many, c).groupOf(AxisMask{0b1111}), (AxisGroup{16, 2, 8, GroupSpan::Mixed}));
        // 3 nodes x 4 GPUs as [2, 6]: the first tp group holds 4 GPUs of node 0 and 2 of node 1.
        Cluster odd = c;
        odd.nodes = 3;
        odd.gpusPerNode = 4;
        QVERIFY_THROWS_EXCEPTION(Error, (void)mesh2d(2, 6, odd));
    }

    // A GB200 NVL72 rack is one NVLink domain: a tensor-parallel axis of 72 (or 16) GPUs over
    // 18 (or 4) trays stays on NVLink, and only the axis across racks uses the NICs.
    void axesInsideAnNvl72RackAreIntra()
    {
        const Cluster nvl = preset("gb200-nvl72x2");
        const DeviceMesh wide = mesh2d(2, 72, nvl);
        QCOMPARE(wide.group(0), (AxisGroup{2, 2, 1, GroupSpan::InterNode}));
        QCOMPARE(wide.group(1), (AxisGroup{72, 1, 72, GroupSpan::IntraNode}));
        QCOMPARE(wide.placement(71), (DevicePlacement{17, 3}));  // trays of 4 GPUs, physically
        const DeviceMesh tp18 = mesh2d(8, 18, nvl);
        QCOMPARE(tp18.group(1), (AxisGroup{18, 1, 18, GroupSpan::IntraNode}));
        QCOMPARE(tp18.group(0), (AxisGroup{8, 2, 4, GroupSpan::Mixed}));
        // 16 does not divide a rack of 72: the tp group of devices 64-79 straddles two racks.
        QVERIFY_THROWS_EXCEPTION(Error, (void)mesh2d(9, 16, nvl));
        const std::vector<std::vector<int>> shapes = meshShapes(nvl);
        QVERIFY(std::find(shapes.begin(), shapes.end(), std::vector<int>{2, 72}) != shapes.end());
        QVERIFY(std::find(shapes.begin(), shapes.end(), std::vector<int>{4, 36}) != shapes.end());
    }

    void meshShapesEnumeratesFactorizations()
    {
        QCOMPARE(meshShapes(preset("dgx-h100x2")),
                 (std::vector<std::vector<int>>{{16}, {2, 8}, {4, 4}, {8, 2}}));
        Cluster odd = preset("dgx-h100x2");
        odd.nodes = 3;
        odd.gpusPerNode = 4;
        // 12 = 2x6 (uneven), 3x4, 4x3 (uneven: a group of 3 straddles nodes), 6x2.
        QCOMPARE(meshShapes(odd), (std::vector<std::vector<int>>{{12}, {3, 4}, {6, 2}}));
    }
};

QTEST_APPLESS_MAIN(ClusterTest)
#include "ClusterTest.moc"
