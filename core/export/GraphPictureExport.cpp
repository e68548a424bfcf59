#include "export/GraphPictureExport.h"

#include "layout/FoldViews.h"
#include "layout/GraphvizLayout.h"

namespace tapestry {

std::string exportGraphPicture(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                               PictureView view, PictureFormat format)
{
    const LayoutGraph layout = view == PictureView::Coarse
                                   ? coarseLayoutGraph(graph, coarse)
                                   : foldedLayoutGraph(graph, coarse, families, buildFoldedGraph(coarse, families));
    switch (format) {
    case PictureFormat::Dot: return toDot(layout);
    case PictureFormat::Svg: return renderGraph(layout, "svg");
    case PictureFormat::Png: return renderGraph(layout, "png");
    }
    return toDot(layout);
}

}  // namespace tapestry
