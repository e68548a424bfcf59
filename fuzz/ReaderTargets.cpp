#include "ReaderTargets.h"

#include "base/Error.h"
#include "cluster/ClusterFile.h"
#include "cluster/NcclTestsLog.h"
#include "export/HfTpPlanImport.h"
#include "export/TrainingStackImport.h"
#include "fold/FoldedModel.h"
#include "history/PlanOfRecord.h"
#include "iopddl/IopddlReader.h"
#include "onnx/OnnxImporter.h"
#include "plan/PlanFile.h"

#include <array>
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
