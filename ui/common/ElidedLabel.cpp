#include "common/ElidedLabel.h"

namespace tapestry {

ElidedLabel::ElidedLabel(int preferredCharacters, int minimumCharacters, QWidget* parent)
    : QLabel(parent), preferredCharacters_(preferredCharacters), minimumCharacters_(minimumCharacters)
{
}

// Its width never comes from the text: a new text does not move the widgets beside it.
QSize ElidedLabel::sizeHint() const
{
    return {fontMetrics().averageCharWidth() * preferredCharacters_, QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {fontMetrics().averageCharWidth() * minimumCharacters_, QLabel::minimumSizeHint().height()};
}

void ElidedLabel::setFullText(const QString& text)
{
    fullText_ = text;
    elide();
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    const QString shown = fontMetrics().elidedText(fullText_, Qt::ElideRight, contentsRect().width());
    setText(shown);
    setToolTip(shown == fullText_ ? QString() : fullText_);
}

}  // namespace tapestry
