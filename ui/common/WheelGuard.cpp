#include "common/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QCoreApplication>
#include <QComboBox>
#include <QEvent>
#include <QWheelEvent>
#include <QWidget>

namespace tapestry {

void WheelGuard::protect(QWidget* panel)
{
    auto* guard = new WheelGuard(panel);
    const auto guardControl = [guard](QWidget* control) {
        // A wheel turn must not give the control the focus (Qt::WheelFocus would).
        control->setFocusPolicy(Qt::StrongFocus);
        control->installEventFilter(guard);
    };
    for (QComboBox* box : panel->findChildren<QComboBox*>())
        guardControl(box);
    for (QAbstractSpinBox* box : panel->findChildren<QAbstractSpinBox*>())
        guardControl(box);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel)
        return false;
    const auto* control = qobject_cast<const QWidget*>(watched);
    if (!control || control->hasFocus())
        return false;
    // The scroll area around the control scrolls instead (handed on explicitly: Qt does
    // not pass a wheel event it did not get from the window system to the parents).
    const auto* wheel = static_cast<const QWheelEvent*>(event);
    for (QWidget* parent = control->parentWidget(); parent; parent = parent->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(parent)) {
            QWheelEvent scroll(area->viewport()->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(),
                               wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(), wheel->modifiers(),
                               wheel->phase(), wheel->inverted());
            QCoreApplication::sendEvent(area->viewport(), &scroll);
            return true;
        }
    }
    event->ignore();  // no scroll area: not handled, the window's parents may take it
    return true;
}

}  // namespace tapestry
