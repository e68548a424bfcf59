// The fuzz corpora replayed through the readers: every input the fuzzers or the
// malformed-input campaign found (fuzz/regressions) and every seed (fuzz/seeds) is read
// as the program reads its kind and is either read or refused with a tapestry::Error
// that names its file. A crash, a sanitizer report or any other exception fails here.
#include "ReaderTargets.h"

#include "base/Error.h"
#include "base/TextFile.h"

#include <QTest>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tapestry;

namespace {

const std::filesystem::path kFuzzDir = std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / ".." / ".." / "fuzz";

std::string bytesOf(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Replay {
    std::size_t read = 0;
    std::size_t refused = 0;
};

}  // namespace

class FuzzCorpusTest : public QObject {
    Q_OBJECT

private slots:
    void everyInputIsReadOrRefusedNamingItsFile_data()
    {
        QTest::addColumn<QString>("target");
        for (const fuzz::ReaderTarget& target : fuzz::readerTargets())
            QTest::newRow(std::string(target.name).c_str()) << QString::fromUtf8(target.name.data(), target.name.size());
    }

    void everyInputIsReadOrRefusedNamingItsFile()
    {
        QFETCH(QString, target);
        const fuzz::ReaderTarget* reader = fuzz::findReaderTarget(target.toStdString());
        QVERIFY(reader != nullptr);
        Replay replay;
        for (const char* corpus : {"regressions", "seeds"}) {
            const std::filesystem::path folder = kFuzzDir / corpus / target.toStdString();
            if (!std::filesystem::is_directory(folder))
                continue;
            for (const auto& entry : std::filesystem::directory_iterator(folder)) {
                const std::string file = entry.path().string();
                try {
                    reader->read(bytesOf(entry.path()), file.c_str());
                    ++replay.read;
                } catch (const Error& error) {
                    // A history record's errors name "FILE plan ID".
                    QVERIFY2(error.file().starts_with(file) && !error.message().empty(), error.what());
                    ++replay.refused;
                } catch (const std::exception& error) {
                    QFAIL(qPrintable(QStringLiteral("%1: %2").arg(QString::fromStdString(file), QString::fromUtf8(error.what()))));
                }
            }
        }
        // Each kind has inputs: seeds that read, or the campaign's bad inputs.
        QVERIFY2(replay.read + replay.refused > 0, qPrintable(target));
        qInfo("%s: %zu read, %zu refused", qPrintable(target), replay.read, replay.refused);
    }

    // The campaign's inputs in the corpus stay refused (they crashed, aborted CBC or
    // were silently accepted), and the seeds stay readable.
    void campaignInputsAreRefusedAndSeedsRead()
    {
        auto outcome = [](const char* target, const std::filesystem::path& file) {
            try {
                fuzz::findReaderTarget(target)->read(bytesOf(file), file.string().c_str());
            } catch (const Error& error) {
                return std::string(error.what());
            }
            return std::string("read");
        };
        const std::filesystem::path regressions = kFuzzDir / "regressions";
        for (const char* name : {"bandwidth-1e-300.json", "latency-1e308.json", "peak-flops-5e-324.json",
                                 "calibration-point-5e-324.json"})
            QVERIFY2(outcome("cluster", regressions / "cluster" / name).find("must be from") != std::string::npos, name);
        for (const char* name : {"mesh-size-int32-max.json", "mesh-size-zero.json", "mesh-size-negative.json",
                                 "duplicate-axis-name.json", "empty-axis-name.json", "batch-negative.json",
                                 "cost-nan.json"})
            QVERIFY2(outcome("plan", regressions / "plan" / name) != "read", name);
        // The lone \f or \v line is blank: the log reads, with its one row.
        QCOMPARE(outcome("nccl-tests-log", regressions / "nccl-tests-log" / "formfeed-line-after-header.log"),
                 std::string("read"));
        QCOMPARE(outcome("plan", kFuzzDir / "seeds" / "plan" / "megatron-2x4.json"), std::string("read"));
        QCOMPARE(outcome("tp-plan", kFuzzDir / "seeds" / "tp-plan" / "llama.py"), std::string("read"));
        QVERIFY(outcome("tp-plan", regressions / "tp-plan" / "broken-tapestry-plan.json").find("line 1") !=
                std::string::npos);
        QVERIFY(outcome("onnx", regressions / "onnx" / "truncated-after-4k.onnx") != "read");
        // torchtitan's Python config: sizes that overflowed int, a misspelt field read as its
        // default, Python that means something else than the literal.
        for (const char* seed : {"llama-torchtitan.py", "llama-torchtitan-newer-parts-name.py"})
            QCOMPARE(outcome("training-stack", kFuzzDir / "seeds" / "training-stack" / seed), std::string("read"));
        for (const char* name : {"trainer-data-parallel-overflow.py", "trainer-rank-batch-overflow.py",
                                 "trainer-misspelt-field.py", "trainer-float-tokens.py", "trainer-cut-in-string.py",
                                 "trainer-deep-nesting.py", "trainer-assigned-twice.py"})
            QVERIFY2(outcome("training-stack", regressions / "training-stack" / name) != "read", name);
    }
};

QTEST_GUILESS_MAIN(FuzzCorpusTest)
#include "FuzzCorpusTest.moc"
