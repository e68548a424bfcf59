#pragma once

#include <span>
#include <string_view>

namespace tapestry::fuzz {

// One kind of input a user can hand Tapestry, read the way the program reads it. `read`
// returns normally or throws tapestry::Error naming `fileName`; anything else (another
// exception, a crash, a sanitizer report, a hang) is a defect. The libFuzzer targets
// (fuzz/FuzzMain.cpp) and the regression-corpus replay test drive these same functions.
struct ReaderTarget {
    std::string_view name;  // "onnx", "iopddl", ...: also the corpus folder's name
    void (*read)(std::string_view bytes, const char* fileName);
};

[[nodiscard]] std::span<const ReaderTarget> readerTargets();
[[nodiscard]] const ReaderTarget* findReaderTarget(std::string_view name);

}  // namespace tapestry::fuzz
