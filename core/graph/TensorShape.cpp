#include "graph/TensorShape.h"

namespace tapestry {

TensorShape TensorShape::ofExtents(const std::vector<std::int64_t>& extents)
{
    std::vector<Dimension> dims;
    dims.reserve(extents.size());
    for (const std::int64_t extent : extents)
        dims.push_back(Dimension::known(extent));
    return TensorShape(std::move(dims));
}

bool TensorShape::isStatic() const
{
    if (!rankKnown_)
        return false;
    for (const Dimension& d : dims_) {
        if (!d.isKnown())
            return false;
    }
    return true;
}

std::optional<std::int64_t> TensorShape::elementCount() const
{
    if (!isStatic())
        return std::nullopt;
    std::int64_t count = 1;
    for (const Dimension& d : dims_)
        count *= d.value;
    return count;
}

std::string TensorShape::toString() const
{
    if (!rankKnown_)
        return "?";
    std::string text = "[";
    for (std::size_t i = 0; i < dims_.size(); ++i) {
        if (i > 0)
            text += ", ";
        const Dimension& d = dims_[i];
        text += d.isKnown() ? std::to_string(d.value) : d.isSymbolic() ? d.symbol : std::string("?");
    }
    text += ']';
    return text;
}

}  // namespace tapestry
