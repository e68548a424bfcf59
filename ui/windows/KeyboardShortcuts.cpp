#include "windows/KeyboardShortcuts.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

namespace tapestry {

namespace {

QString plain(QString text)
{
    return text.remove(u'&');
}

void collect(const QMenu& menu, const QString& path, QList<KeyboardShortcut>& found)
{
    for (const QAction* action : menu.actions()) {
        if (QMenu* sub = action->menu())
            collect(*sub, path + plain(sub->title()) + QStringLiteral(" > "), found);
        else if (!action->shortcut().isEmpty())
            found.append({path + plain(action->text()), action->shortcut().toString(QKeySequence::NativeText)});
    }
}

}  // namespace

QList<KeyboardShortcut> keyboardShortcuts(const QMenuBar& menus)
{
    QList<KeyboardShortcut> found;
    for (const QAction* action : menus.actions()) {
        if (const QMenu* menu = action->menu())
            collect(*menu, plain(menu->title()) + QStringLiteral(" > "), found);
    }
    return found;
}

}  // namespace tapestry
