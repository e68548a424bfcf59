#pragma once

#include <QList>
#include <QString>

class QMenuBar;

namespace tapestry {

// The keyboard shortcuts of a window, read from its menus so that the list never
// disagrees with them: each action's menu path ("Search > Start Search") and key.
struct KeyboardShortcut {
    QString action;
    QString keys;  // as the platform writes them ("Ctrl+E", "F5")
};

[[nodiscard]] QList<KeyboardShortcut> keyboardShortcuts(const QMenuBar& menus);

}  // namespace tapestry
