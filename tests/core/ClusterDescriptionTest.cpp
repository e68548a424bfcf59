// describeCluster's text, pinned: the history compares it to tell an edited cluster
// (its plans are stale) from the same one used again, so any change to it, or to the
// JSON writer under it, would mark every recorded plan stale.
#include "base/TextFile.h"
#include "cluster/ClusterFile.h"
#include "history/ClusterDescription.h"

#include <QTest>

#include <fstream>

using namespace tapestry;

namespace {

const std::filesystem::path kDataDir = TAPESTRY_TEST_DATA_DIR;

// A cluster with a calibration curve, so the curve's points are pinned too.
constexpr const char* kCalibrated = R"({
  "name": "calibrated", "nodes": 2, "gpusPerNode": 4,
  "gpu": { "name": "G", "peakFlopsPerSecond": 312e12, "achievableFraction": 0.45, "hbmBytes": 40000000000,
           "hbmBytesPerSecond": 1.555e12 },
  "intraNode": { "bytesPerSecond": 230e9, "latencySeconds": 3e-6 },
  "interNode": { "bytesPerSecond": 23.5e9, "latencySeconds": 7.5e-6 },
  "calibration": [ { "collective": "allReduce", "link": "inter", "source": "nccl-tests",
    "points": [ { "sizeBytes": 1048576, "busBytesPerSecond": 3.1e9 },
                { "sizeBytes": 1073741824, "busBytesPerSecond": 21.7e9 } ] } ]
})";

// On a mismatch the text written is left beside the build for a look.
void compareWithGolden(const std::string& text, const char* golden)
{
    const std::string expected = readTextFile(kDataDir / "golden" / golden);
    if (text != expected) {
        std::ofstream(std::string(golden) + ".actual") << text;
        QFAIL(qPrintable(QStringLiteral("describeCluster changed; the text is in %1.actual").arg(QString::fromUtf8(golden))));
    }
}

}  // namespace

class ClusterDescriptionTest : public QObject {
    Q_OBJECT

private slots:
    void presetTextIsPinned()
    {
        const Cluster cluster = loadClusterPreset(kDataDir / ".." / ".." / "resources" / "clusters", "dgx-h100x2");
        compareWithGolden(describeCluster(cluster), "describe-cluster-dgx-h100x2.json");
    }

    void calibratedTextIsPinned()
    {
        compareWithGolden(describeCluster(parseClusterJson(kCalibrated, "calibrated.json")),
                          "describe-cluster-calibrated.json");
    }
};

QTEST_GUILESS_MAIN(ClusterDescriptionTest)
#include "ClusterDescriptionTest.moc"
