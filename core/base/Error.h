#pragma once

#include <exception>
#include <string>
#include <vector>

namespace tapestry {

// What went wrong, as a code that ui/ can turn into translated text.
enum class ErrorCode {
    FileNotFound,
    NotARegularFile,
    EmptyFile,
    ReadFailed,
    WriteFailed,
    NotOnnx,
    TruncatedFile,
    UnsupportedIrVersion,
    InvalidModel,
    ShapeInferenceFailed,
    MissingShape,
    InvalidArgument,
    InvalidJson,
    InvalidCluster,
    InvalidMesh,
    InvalidNcclTestsLog,
    InvalidPlan,
    InvalidShardingProblem,
    InvalidPublishedRun,
    CalibrationRefused,
    InfeasibleProblem,
    HistoryCorrupt,
    HistoryLocked,
    HistoryReadOnly,
    HistoryTooNew,
    HistoryRecordNotFound,
    HistoryPlanInUse,
};

[[nodiscard]] const char* errorCodeName(ErrorCode code);

// The one exception type of core. It names the file it concerns (if any), says what is
// wrong, and gathers context on the way up ("while importing node X").
class Error : public std::exception {
public:
    Error(ErrorCode code, std::string file, std::string message);

    [[nodiscard]] ErrorCode code() const { return code_; }
    [[nodiscard]] const std::string& file() const { return file_; }
    [[nodiscard]] const std::string& message() const { return message_; }
    // Innermost first.
    [[nodiscard]] const std::vector<std::string>& context() const { return context_; }

    Error& addContext(std::string context);

    // "FILE: MESSAGE (while CONTEXT; while ...)"
    [[nodiscard]] const char* what() const noexcept override { return text_.c_str(); }

private:
    void rebuildText();

    ErrorCode code_;
    std::string file_;
    std::string message_;
    std::vector<std::string> context_;
    std::string text_;
};

}  // namespace tapestry
