#pragma once

#include <QObject>

class QWidget;

namespace tapestry {

// Keeps the mouse wheel from changing settings by accident: over a combo box or spin box
// that does not have the focus, the wheel scrolls the scroll area around it instead.
// Click or tab into a control to change it with the wheel. One guard per panel, owned
// by it.
class WheelGuard : public QObject {
    Q_OBJECT

public:
    // Guards every combo box and spin box inside `panel` now (controls added later are not).
    static void protect(QWidget* panel);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

}  // namespace tapestry
