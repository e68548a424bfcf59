// The IOPDDL writer: the contest's example written and read back is the same problem,
// a problem without a limit has no "usage_limit", and a file that cannot be written
// is a WriteFailed error naming it.
#include "base/Error.h"
#include "base/TextFile.h"
#include "iopddl/IopddlReader.h"
#include "iopddl/IopddlWriter.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tapestry;

namespace {

const std::filesystem::path kExample = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / "iopddl" / "example.json";

bool sameProblem(const ShardingProblem& a, const ShardingProblem& b)
{
    if (a.name != b.name || a.usageLimit != b.usageLimit || a.nodes.size() != b.nodes.size() ||
        a.edges.size() != b.edges.size())
        return false;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const ProblemNode& x = a.nodes[i];
        const ProblemNode& y = b.nodes[i];
        if (x.lo != y.lo || x.hi != y.hi || x.costs != y.costs || x.usages != y.usages)
            return false;
    }
    for (std::size_t e = 0; e < a.edges.size(); ++e) {
        const ProblemEdge& x = a.edges[e];
        const ProblemEdge& y = b.edges[e];
        if (x.u != y.u || x.v != y.v || x.costs != y.costs)
            return false;
    }
    return true;
}

}  // namespace

class IopddlWriterTest : public QObject {
    Q_OBJECT

private slots:
    void exampleRoundTrips()
    {
        const QTemporaryDir dir;
        const ShardingProblem example = readIopddlFile(kExample);
        const std::string written = dir.path().toStdString() + "/written.json";
        writeIopddlFile(example, written);
        QVERIFY(sameProblem(readIopddlFile(written), example));
        QVERIFY(readTextFile(written).find("\"usage_limit\": 50") != std::string::npos);
    }

    void noLimitWritesNoUsageLimitAndKeepsLargeCosts()
    {
        ShardingProblem problem;
        problem.name = "two nodes";
        problem.nodes = {{0, 1, {7, 1'000'000'000'000'000'000}, {3, 4}}, {0, 0, {0}, {0}}};
        problem.edges = {{0, 1, {5, 6}}};
        const std::string text = iopddlText(problem);
        QVERIFY(text.find("usage_limit") == std::string::npos);
        QVERIFY(sameProblem(parseIopddl(text, "two-nodes.json"), problem));
    }

    void unwritableFileIsAWriteFailedErrorNamingIt()
    {
        const QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/no such folder/problem.json";
        try {
            writeIopddlFile(readIopddlFile(kExample), file);
            QFAIL("no error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::WriteFailed);
            QCOMPARE(error.file(), file);
        }
    }
};

QTEST_APPLESS_MAIN(IopddlWriterTest)
#include "IopddlWriterTest.moc"
