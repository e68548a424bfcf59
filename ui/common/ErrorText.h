#pragma once

#include <QCoreApplication>
#include <QString>

namespace tapestry {

class Error;

// Turns core errors into translated text: the error code chooses the sentence, the
// core's own (untranslated) message and context follow as detail.
class ErrorText {
    Q_DECLARE_TR_FUNCTIONS(ErrorText)

public:
    // One sentence saying what is wrong, e.g. "The file is not an ONNX model."
    [[nodiscard]] static QString problem(const Error& error);
    // The core's file, message and context: "model.onnx: bad dims (while importing node X)".
    [[nodiscard]] static QString detail(const Error& error);
};

}  // namespace tapestry
