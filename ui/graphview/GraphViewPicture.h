#pragma once

#include <QString>

class QGraphicsScene;

namespace tapestry {

// A graph view's drawing as it is on screen (plan colours, highlights, badges), saved
// as SVG (QSvgGenerator) or PNG (the scene rendered at twice its size). The format
// follows the file's suffix. Returns false when the file cannot be written.
bool saveScenePicture(QGraphicsScene& scene, const QString& file);

}  // namespace tapestry
