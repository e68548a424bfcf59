#include "layout/GraphvizLayout.h"

#include "base/Error.h"

#include <gvc.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tapestry {

namespace {

// Graphviz keeps global state (error buffers, the parser, plugin tables): one mutex
// guards every call into it, and one context serves the whole process.
std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

// Call with graphvizMutex() held.
GVC_t* graphvizContext()
{
    static GVC_t* const context = [] {
        agseterr(AGERR);  // warnings (e.g. a label wider than its fixed size) are not ours to print
        return gvContext();
    }();
    return context;
}

struct GraphCloser {
    void operator()(Agraph_t* graph) const { agclose(graph); }
};

// Frees the layout's records before the graph closes, also when reading them throws.
class LayoutFreer {
public:
    LayoutFreer(GVC_t* context, Agraph_t* graph) : context_(context), graph_(graph) {}
    ~LayoutFreer() { gvFreeLayout(context_, graph_); }
    LayoutFreer(const LayoutFreer&) = delete;
    LayoutFreer& operator=(const LayoutFreer&) = delete;

private:
    GVC_t* context_;
    Agraph_t* graph_;
};

// "n12" -> 12 (toDot's node names); "cluster_3" -> 3.
std::size_t indexAfter(const char* name, std::size_t prefixLength)
{
    return static_cast<std::size_t>(std::stoul(std::string(name).substr(prefixLength)));
}

// The one place where Graphviz coordinates become layout coordinates: points with y
// up and the origin at the bounding box's lower left, to y down from the top left.
class CoordinateMap {
public:
    explicit CoordinateMap(boxf bounds) : bounds_(bounds) {}

    [[nodiscard]] LayoutPoint point(pointf p) const { return {p.x - bounds_.LL.x, bounds_.UR.y - p.y}; }
    [[nodiscard]] LayoutBox box(boxf b) const
    {
        return {b.LL.x - bounds_.LL.x, bounds_.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
    }
    [[nodiscard]] static double inchesToPoints(double inches) { return inches * 72.0; }

private:
    boxf bounds_;
};

LayoutResult readLayout(Agraph_t* g, const LayoutGraph& graph)
{
    const CoordinateMap map(GD_bb(g));
    LayoutResult result;
    result.bounds = map.box(GD_bb(g));
    result.nodes.resize(graph.nodes.size());
    result.edges.resize(graph.edges.size());
    result.clusters.resize(graph.clusters.size());

    // toDot writes edges by (from, to) only; parallel edges are matched in order.
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> edgesByEnds;
    for (std::size_t i = graph.edges.size(); i-- > 0;)
        edgesByEnds[{graph.edges[i].from, graph.edges[i].to}].push_back(i);

    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        const std::size_t index = indexAfter(agnameof(n), 1);
        result.nodes.at(index) = {map.point(ND_coord(n)), CoordinateMap::inchesToPoints(ND_width(n)),
                                  CoordinateMap::inchesToPoints(ND_height(n))};
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            auto found = edgesByEnds.find({index, indexAfter(agnameof(aghead(e)), 1)});
            if (found == edgesByEnds.end() || found->second.empty() || !ED_spl(e) || ED_spl(e)->size == 0)
                continue;
            EdgeRoute& route = result.edges[found->second.back()];
            found->second.pop_back();
            const bezier& first = ED_spl(e)->list[0];
            const bezier& last = ED_spl(e)->list[ED_spl(e)->size - 1];
            for (int i = 0; i < first.size; ++i)
                route.points.push_back(map.point(first.list[i]));
            route.hasArrow = last.eflag != 0;
            route.arrowTip = map.point(last.ep);
        }
    }
    for (int c = 1; c <= GD_n_cluster(g); ++c) {  // Graphviz numbers clusters from 1
        Agraph_t* cluster = GD_clust(g)[c];
        result.clusters.at(indexAfter(agnameof(cluster), 8)) = map.box(GD_bb(cluster));
    }
    return result;
}

// Reads `graph` into Graphviz and runs `dot` on it; the caller holds the mutex and
// frees the layout (LayoutFreer) before the graph closes.
std::unique_ptr<Agraph_t, GraphCloser> laidOut(GVC_t* context, const LayoutGraph& graph)
{
    if (!context)
        throw Error(ErrorCode::InvalidArgument, {}, "Graphviz could not be initialized");
    std::unique_ptr<Agraph_t, GraphCloser> g(agmemread(toDot(graph).c_str()));
    if (!g)
        throw Error(ErrorCode::InvalidArgument, {}, "Graphviz could not read the graph '" + graph.name + "'");
    if (gvLayout(context, g.get(), "dot") != 0)
        throw Error(ErrorCode::InvalidArgument, {}, "Graphviz could not lay out the graph '" + graph.name + "'");
    return g;
}

}  // namespace

LayoutResult layOut(const LayoutGraph& graph)
{
    if (graph.nodes.empty())
        return {};
    const std::lock_guard lock(graphvizMutex());
    GVC_t* context = graphvizContext();
    const std::unique_ptr<Agraph_t, GraphCloser> g = laidOut(context, graph);
    const LayoutFreer freer(context, g.get());
    return readLayout(g.get(), graph);
}

std::string renderGraph(const LayoutGraph& graph, const char* format)
{
    const std::lock_guard lock(graphvizMutex());
    GVC_t* context = graphvizContext();
    const std::unique_ptr<Agraph_t, GraphCloser> g = laidOut(context, graph);
    const LayoutFreer freer(context, g.get());
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(context, g.get(), format, &data, &length) != 0) {
        gvFreeRenderData(data);
        throw Error(ErrorCode::InvalidArgument, {}, std::string("Graphviz could not render the graph as ") + format);
    }
    std::string bytes(data, length);
    gvFreeRenderData(data);
    return bytes;
}

}  // namespace tapestry
