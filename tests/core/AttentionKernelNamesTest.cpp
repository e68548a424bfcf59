// One vocabulary for the attention kernels (cost/AttentionKernelNames.h): the names plan
// files, the command line and the validate format read, and what each refuses.
#include "cost/AttentionKernelNames.h"

#include <QTest>

using namespace tapestry;

namespace {

constexpr AttentionNameReader kPlan = AttentionNameReader::PlanFile;
constexpr AttentionNameReader kRuns = AttentionNameReader::RunFile;

}  // namespace

class AttentionKernelNamesTest : public QObject {
    Q_OBJECT

private slots:
    // Each kernel has one name, and both readers read it back as that kernel.
    void eachKernelsNameIsReadEverywhere()
    {
        const std::pair<AttentionKernel, const char*> named[] = {{AttentionKernel::FlashAttention2, "flash2"},
                                                                 {AttentionKernel::Cudnn, "cudnn"},
                                                                 {AttentionKernel::Triton, "triton"},
                                                                 {AttentionKernel::FlashAttention1, "flash1"},
                                                                 {AttentionKernel::Unfused, "unfused"}};
        for (const auto& [kernel, name] : named) {
            QCOMPARE(attentionKernelName(kernel), name);
            for (const AttentionNameReader reader : {kPlan, kRuns})
                QVERIFY2(attentionKernelFromName(name, reader) == kernel, name);
        }
    }

    // "fused" (FlashAttention-2 in plan files before flash2) opens old plan files; a run
    // file refuses it, since Megatron-LM's "fused" backend is cuDNN's. "flash" is the run
    // format's FlashAttention 1.x; a plan file refuses it, saying what to write.
    void olderWordsAreReadWhereTheyWereAndRefusedElsewhere()
    {
        QVERIFY(attentionKernelFromName("fused", kPlan) == AttentionKernel::FlashAttention2);
        QVERIFY(!attentionKernelFromName("fused", kRuns));
        QCOMPARE(attentionKernelRefusal("fused", kRuns),
                 std::string("is 'fused', not flash2, cudnn, triton, flash1, unfused or flash (read as flash1): "
                             "Megatron-LM's fused attention backend is cuDNN's (cudnn); FlashAttention-2 is flash2"));
        QVERIFY(attentionKernelFromName("flash", kRuns) == AttentionKernel::FlashAttention1);
        QVERIFY(!attentionKernelFromName("flash", kPlan));
        QCOMPARE(attentionKernelRefusal("flash", kPlan),
                 std::string("is 'flash', not flash2, cudnn, triton, flash1, unfused or fused (read as flash2): "
                             "write flash2 for FlashAttention-2 or flash1 for FlashAttention 1.x"));
    }

    // A name neither reads: the refusal lists exactly what that reader accepts, and the
    // command line's choices are those same names.
    void refusalsListExactlyTheAcceptedNames()
    {
        QCOMPARE(attentionKernelRefusal("xformers", kPlan),
                 std::string("is 'xformers', not flash2, cudnn, triton, flash1, unfused or fused (read as flash2)"));
        QCOMPARE(attentionKernelRefusal("xformers", kRuns),
                 std::string("is 'xformers', not flash2, cudnn, triton, flash1, unfused or flash (read as flash1)"));
        for (const AttentionNameReader reader : {kPlan, kRuns}) {
            const auto choices = attentionKernelChoices(reader);
            QCOMPARE(choices.size(), std::size_t{6});
            for (const auto& [name, kernel] : choices) {
                QVERIFY(attentionKernelFromName(name, reader) == kernel);
                QVERIFY2(acceptedAttentionKernelNames(reader).find(name) != std::string::npos, name.c_str());
            }
        }
        QVERIFY(!attentionKernelFromName("", kPlan));
        QVERIFY(!attentionKernelFromName("Flash2", kRuns));
    }
};

QTEST_GUILESS_MAIN(AttentionKernelNamesTest)
#include "AttentionKernelNamesTest.moc"
