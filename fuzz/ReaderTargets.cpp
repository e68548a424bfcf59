#include "ReaderTargets.h"

#include "base/Error.h"
#include "cluster/ClusterFile.h"
#include "cluster/NcclTestsLog.h"
#include "cost/WorkloadCheck.h"
#include "export/HfTpPlanImport.h"
#include "export/TrainingStackImport.h"
#include "fold/FoldedModel.h"
#include "history/PlanOfRecord.h"
#include "iopddl/IopddlReader.h"
#include "onnx/OnnxImporter.h"
#include "plan/PlanFile.h"
#include "validation/PublishedRun.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace tapestry::fuzz {

namespace {

// The model plans and tp_plans are read against: Llama (TorchScript names), folded once.
const FoldedModel& llama()
{
    static const FoldedModel model =
        foldModel(importOnnxModel(std::filesystem::path(TAPESTRY_TEST_DATA_DIR) / "llama.ts.stripped.onnx"));
    return model;
}

void readOnnx(std::string_view bytes, const char* fileName)
{
    // The importer reads files (external data sits beside them): one per process,
    // removed when it ends.
    struct ScratchFile {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("tapestry-fuzz-" + std::to_string(getpid()) + ".onnx");
        ~ScratchFile()
        {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
    };
    static const ScratchFile scratch;
    const std::filesystem::path& file = scratch.path;
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    try {
        (void)foldModel(importOnnxModel(file));
    } catch (const Error& error) {
        throw Error(error.code(), fileName, error.message());  // the input's name, not the scratch file's
    }
}

void readIopddl(std::string_view bytes, const char* fileName)
{
    (void)parseIopddl(bytes, fileName);
}

void readPlan(std::string_view bytes, const char* fileName)
{
    (void)planFromJson(bytes, fileName, llama().coarse, llama().families);
}

void readCluster(std::string_view bytes, const char* fileName)
{
    (void)parseClusterJson(bytes, fileName);
}

void readNcclTestsLog(std::string_view bytes, const char* fileName)
{
    const NcclTestsLog log = NcclTestsLog::parse(bytes, fileName);
    (void)log.busBandwidthCurve();
}

// As import-plan reads its file: a tp_plan when it is one, else a Tapestry plan.
void readTpPlan(std::string_view bytes, const char* fileName)
{
    if (!isHfTpPlan(bytes)) {
        (void)planFromJson(bytes, fileName, llama().coarse, llama().families);
        return;
    }
    const std::vector<HfTpPlanEntry> entries = parseHfTpPlan(bytes, fileName);
    (void)planFromHfTpPlan(entries, llama().graph(), llama().coarse, {{"dp", 2}, {"tp", 4}});
}

// Megatron-LM arguments or a torchtitan config, as import-plan reads them for 8 GPUs.
void readTrainingStack(std::string_view bytes, const char* fileName)
{
    (void)importTrainingStackPlan(bytes, fileName, llama(), 8);
}

// Each stack's reader alone, whatever the file looks like.
void readMegatronArguments(std::string_view bytes, const char* fileName)
{
    (void)importMegatronArguments(bytes, fileName, llama(), 8);
}

void readTorchTitanConfig(std::string_view bytes, const char* fileName)
{
    (void)importTorchTitanConfig(bytes, fileName, llama(), 8);
}

// validate's cases, each workload checked against its parallel sizes.
void readPublishedRuns(std::string_view bytes, const char* fileName)
{
    (void)parsePublishedRuns(bytes, fileName);
}

// The workload check on any sizes: the bytes as little-endian 64-bit fields in the order
// below (missing ones 0), the capacity factor as a double.
void checkWorkloadFields(std::string_view bytes, const char* fileName)
{
    const auto field = [&](std::size_t index) {
        std::uint64_t value = 0;
        if ((index + 1) * 8 <= bytes.size())
            std::memcpy(&value, bytes.data() + index * 8, 8);
        return value;
    };
    const auto size = [&](std::size_t index) { return static_cast<std::int64_t>(field(index)); };
    const auto degree = [&](std::size_t index) { return static_cast<int>(static_cast<std::int32_t>(field(index))); };
    Workload workload;
    workload.batch = size(0);
    workload.sequence = size(1);
    workload.microBatch = size(2);
    const std::uint64_t capacityBits = field(3);
    std::memcpy(&workload.capacityFactor, &capacityBits, 8);
    WorkloadDegrees degrees;
    degrees.dataParallel = size(4);
    degrees.pipelineStages = degree(5);
    degrees.virtualStages = degree(6);
    degrees.contextParallel = degree(7);
    degrees.chunksPerContextRank = degree(8);
    degrees.expertParallel = degree(9);
    degrees.experts = degree(10);
    degrees.topK = degree(11);
    const std::uint64_t tokenBits = field(12);
    std::memcpy(&degrees.tokensPerMicroStep, &tokenBits, 8);
    degrees.accumulation = size(13);
    checkWorkload(workload, degrees, commandLineFieldNames(), fileName);
}

// A plan as the history stores it, read back as `history diff` and the GUI read it.
void readHistoryRecord(std::string_view bytes, const char* fileName)
{
    PlanRecord record;
    record.id = PlanRecordId(std::uint32_t{1});
    record.json = std::string(bytes);
    (void)planOfRecord(record, fileName, llama());
}

constexpr std::array kTargets = {
    ReaderTarget{"onnx", readOnnx},
    ReaderTarget{"iopddl", readIopddl},
    ReaderTarget{"plan", readPlan},
    ReaderTarget{"cluster", readCluster},
    ReaderTarget{"nccl-tests-log", readNcclTestsLog},
    ReaderTarget{"tp-plan", readTpPlan},
    ReaderTarget{"training-stack", readTrainingStack},
    ReaderTarget{"history-record", readHistoryRecord},
    ReaderTarget{"megatron-arguments", readMegatronArguments},
    ReaderTarget{"torchtitan-config", readTorchTitanConfig},
    ReaderTarget{"published-runs", readPublishedRuns},
    ReaderTarget{"workload", checkWorkloadFields},
};

}  // namespace

std::span<const ReaderTarget> readerTargets()
{
    return kTargets;
}

const ReaderTarget* findReaderTarget(std::string_view name)
{
    for (const ReaderTarget& target : kTargets) {
        if (target.name == name)
            return &target;
    }
    return nullptr;
}

}  // namespace tapestry::fuzz
