#include "common/ErrorText.h"

#include "base/Error.h"

namespace tapestry {

QString ErrorText::problem(const Error& error)
{
    switch (error.code()) {
    case ErrorCode::FileNotFound: return tr("The file does not exist.");
    case ErrorCode::NotARegularFile: return tr("This is not a regular file; it may be a folder.");
    case ErrorCode::EmptyFile: return tr("The file is empty.");
    case ErrorCode::ReadFailed: return tr("The file could not be read.");
    case ErrorCode::WriteFailed: return tr("The file could not be written.");
    case ErrorCode::NotOnnx: return tr("The file is not an ONNX model.");
    case ErrorCode::TruncatedFile:
        return tr("The file ends too early; it may be incomplete or still downloading.");
    case ErrorCode::UnsupportedIrVersion:
        return tr("The model uses an ONNX IR version that Tapestry does not support.");
    case ErrorCode::InvalidModel: return tr("The model is not a valid ONNX graph.");
    case ErrorCode::ShapeInferenceFailed: return tr("The tensor shapes of the model could not be inferred.");
    case ErrorCode::MissingShape: return tr("Some tensors that Tapestry needs have no known shape.");
    case ErrorCode::InvalidArgument: return tr("An argument is not valid.");
    case ErrorCode::InvalidJson: return tr("The file is not valid JSON.");
    case ErrorCode::InvalidCluster: return tr("The cluster description is not valid.");
    case ErrorCode::InvalidMesh: return tr("The device mesh is not valid.");
    case ErrorCode::InvalidNcclTestsLog: return tr("The file is not an nccl-tests log that Tapestry can read.");
    case ErrorCode::InvalidPlan: return tr("The plan is not valid for this model and cluster.");
    case ErrorCode::InvalidShardingProblem: return tr("The file is not a valid sharding problem.");
    case ErrorCode::InvalidPublishedRun: return tr("The file is not a valid list of measured training runs.");
    case ErrorCode::CalibrationRefused:
        return tr("The measured runs cannot calibrate this cluster's figures without fitting noise.");
    case ErrorCode::InfeasibleProblem:
        return tr("No choice of strategies fits the memory limit; the problem has no solution.");
    case ErrorCode::HistoryCorrupt:
        return tr("The file is not a Tapestry history database, or it is damaged. It was left unchanged.");
    case ErrorCode::HistoryLocked:
        return tr("The history database is busy: another Tapestry window or command is writing to it.");
    case ErrorCode::HistoryReadOnly: return tr("The history database is read-only.");
    case ErrorCode::HistoryTooNew:
        return tr("The history database was written by a newer Tapestry. It was left unchanged.");
    case ErrorCode::HistoryRecordNotFound: return tr("The history has no such run or plan.");
    case ErrorCode::HistoryPlanInUse: return tr("Other plans were derived from this plan.");
    }
    return tr("An unknown error occurred.");
}

QString ErrorText::detail(const Error& error)
{
    // Kept in the core's English, like the context it carries, and as the command line
    // prints it ("plan.json: is not a Tapestry plan: ..."): one sentence, with the file it
    // is about, that can be searched for or quoted in a bug report.
    return QString::fromStdString(error.what());
}

}  // namespace tapestry
