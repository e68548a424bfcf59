// A libFuzzer target for one reader (TAPESTRY_FUZZ_TARGET names it; see ReaderTargets.h).
// A tapestry::Error is the reader's answer to bad input; any other exception escapes
// and libFuzzer reports it, as it reports crashes, sanitizer findings and hangs.
#include "ReaderTargets.h"

#include "base/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const tapestry::fuzz::ReaderTarget* target = tapestry::fuzz::findReaderTarget(TAPESTRY_FUZZ_TARGET);
    if (!target)
        std::abort();
    try {
        target->read(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz-input");
    } catch (const tapestry::Error&) {
    }
    return 0;
}
