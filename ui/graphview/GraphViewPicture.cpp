#include "graphview/GraphViewPicture.h"

#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace tapestry {

bool saveScenePicture(QGraphicsScene& scene, const QString& file)
{
    const QRectF source = scene.itemsBoundingRect().adjusted(-10, -10, 10, 10);
    if (file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator generator;
        generator.setFileName(file);
        generator.setSize(source.size().toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
        QPainter painter;
        if (!painter.begin(&generator))
            return false;
        scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        return painter.end();
    }
    // Twice the scene's size: boxes stay legible; capped so a huge graph fits in memory.
    const double scale = std::min(2.0, 16000.0 / std::max(source.width(), source.height()));
    QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        scene.render(&painter, QRectF(QPointF(0, 0), image.size()), source);
    }
    return image.save(file);
}

}  // namespace tapestry
