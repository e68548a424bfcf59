#include "graph/ModelFingerprint.h"

#include "graph/Graph.h"

#include <cstdio>
#include <vector>

namespace tapestry {

namespace {

class Fnv1a {
public:
    void add(std::string_view text)
    {
        for (const char c : text) {
            hash_ ^= static_cast<unsigned char>(c);
            hash_ *= 1099511628211ull;
        }
        hash_ ^= 0xff;  // separator
        hash_ *= 1099511628211ull;
    }
    void add(std::int64_t value) { add(std::to_string(value)); }
    [[nodiscard]] std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 14695981039346656037ull;
};

void addShape(Fnv1a& h, const TensorShape& shape)
{
    if (!shape.isRankKnown()) {
        h.add("?");
        return;
    }
    for (const Dimension& d : shape.dims())
        d.isKnown() ? h.add(d.value) : h.add(d.symbol);
}

}  // namespace

std::string modelFingerprint(const Graph& graph)
{
    Fnv1a h;
    std::vector<std::int64_t> position(graph.opCount(), -1);
    std::int64_t next = 0;
    for (const OpId id : graph.topologicalOrder())
        position[id.index()] = next++;
    for (const OpId id : graph.topologicalOrder()) {
        const Op& op = graph.op(id);
        h.add(op.domain);
        h.add(op.type);
        for (const Attribute& attribute : op.attributes) {
            h.add(attribute.name);
            if (const auto* i = std::get_if<std::int64_t>(&attribute.value))
                h.add(*i);
            else if (const auto* ints = std::get_if<std::vector<std::int64_t>>(&attribute.value))
                for (const std::int64_t v : *ints)
                    h.add(v);
        }
        for (const TensorId input : op.inputs) {
            if (!input.isValid()) {
                h.add("-");
                continue;
            }
            const Tensor& tensor = graph.tensor(input);
            if (tensor.producer.isValid()) {
                h.add(position[tensor.producer.index()]);
            } else {
                h.add(tensor.role == TensorRole::Initializer ? "w" : "in");
                addShape(h, tensor.shape);
            }
        }
        for (const TensorId output : op.outputs) {
            if (output.isValid())
                addShape(h, graph.tensor(output).shape);
        }
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h.value()));
    return text;
}

}  // namespace tapestry
