#pragma once

#include <QLabel>

namespace tapestry {

// A one-line label that asks for `preferredCharacters` (average ones), never less than
// `minimumCharacters`, takes whatever more width its layout leaves it and cuts its text
// to its width with "…" (the tooltip then holds the whole text): a long status never
// widens a pane, and none is cut while there is room.
class ElidedLabel : public QLabel {
    Q_OBJECT

public:
    ElidedLabel(int preferredCharacters, int minimumCharacters, QWidget* parent = nullptr);

    void setFullText(const QString& text);
    [[nodiscard]] const QString& fullText() const { return fullText_; }
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    int preferredCharacters_;
    int minimumCharacters_;
    QString fullText_;
};

}  // namespace tapestry
