#pragma once

// Shortcuts (Ctrl+Z, Esc) and keyboard focus need the active window. Under `ctest -j2` the GUI
// tests share one X server and another test's window can take the focus at any time, also
// while this one waits to be activated, so the activation is asked again until it holds. A
// test calls it right before it sends a shortcut (the key click itself runs no event loop in
// which the focus could go).
#include <QTest>
#include <QWidget>

namespace tapestry::test {

[[nodiscard]] inline bool activeAgain(QWidget& window)
{
    constexpr int kAttempts = 10;
    constexpr int kWaitMs = 1000;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        window.activateWindow();
        if (QTest::qWaitForWindowActive(&window, kWaitMs))
            return true;
    }
    return false;
}

}  // namespace tapestry::test
