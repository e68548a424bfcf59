#pragma once

#include "base/Error.h"

#include <QString>

#include <exception>
#include <optional>

namespace tapestry {

// What a background job hands back to the GUI thread: a value, or why there is none.
template <class Value>
struct JobOutcome {
    std::optional<Value> value;
    std::optional<Error> error;
    QString unexpected;  // an exception that is not a tapestry::Error

    // Runs `work` (on the worker thread), keeping whatever it throws for the GUI thread.
    template <class Work>
    static JobOutcome catching(Work work)
    {
        try {
            return {work(), std::nullopt, {}};
        } catch (const Error& error) {
            return {std::nullopt, error, {}};
        } catch (const std::exception& exception) {
            return {std::nullopt, std::nullopt, QString::fromLocal8Bit(exception.what())};
        }
    }
};

}  // namespace tapestry
