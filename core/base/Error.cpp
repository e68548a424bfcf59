#include "base/Error.h"

namespace tapestry {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::FileNotFound: return "file-not-found";
    case ErrorCode::NotARegularFile: return "not-a-regular-file";
    case ErrorCode::EmptyFile: return "empty-file";
    case ErrorCode::ReadFailed: return "read-failed";
    case ErrorCode::WriteFailed: return "write-failed";
    case ErrorCode::NotOnnx: return "not-onnx";
    case ErrorCode::TruncatedFile: return "truncated-file";
    case ErrorCode::UnsupportedIrVersion: return "unsupported-ir-version";
    case ErrorCode::InvalidModel: return "invalid-model";
    case ErrorCode::ShapeInferenceFailed: return "shape-inference-failed";
    case ErrorCode::MissingShape: return "missing-shape";
    case ErrorCode::InvalidArgument: return "invalid-argument";
    case ErrorCode::InvalidJson: return "invalid-json";
    case ErrorCode::InvalidCluster: return "invalid-cluster";
    case ErrorCode::InvalidMesh: return "invalid-mesh";
    case ErrorCode::InvalidNcclTestsLog: return "invalid-nccl-tests-log";
    case ErrorCode::InvalidPlan: return "invalid-plan";
    case ErrorCode::InvalidShardingProblem: return "invalid-sharding-problem";
    case ErrorCode::InvalidPublishedRun: return "invalid-published-run";
    case ErrorCode::CalibrationRefused: return "calibration-refused";
    case ErrorCode::InfeasibleProblem: return "infeasible-problem";
    case ErrorCode::HistoryCorrupt: return "history-corrupt";
    case ErrorCode::HistoryLocked: return "history-locked";
    case ErrorCode::HistoryReadOnly: return "history-read-only";
    case ErrorCode::HistoryTooNew: return "history-too-new";
    case ErrorCode::HistoryRecordNotFound: return "history-record-not-found";
    case ErrorCode::HistoryPlanInUse: return "history-plan-in-use";
    }
    return "unknown";
}

Error::Error(ErrorCode code, std::string file, std::string message)
    : code_(code), file_(std::move(file)), message_(std::move(message))
{
    rebuildText();
}

Error& Error::addContext(std::string context)
{
    context_.push_back(std::move(context));
    rebuildText();
    return *this;
}

void Error::rebuildText()
{
    text_ = file_.empty() ? message_ : file_ + ": " + message_;
    for (std::size_t i = 0; i < context_.size(); ++i)
        text_ += (i == 0 ? " (while " : "; while ") + context_[i];
    if (!context_.empty())
        text_ += ")";
}

}  // namespace tapestry
