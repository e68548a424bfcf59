#include "cost/AxisSeconds.h"

#include <algorithm>

namespace tapestry {

void AxisSeconds::resize(std::size_t count, double value)
{
    if (count > kInline) {
        if (size_ <= kInline)
            spilled_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(size_));
        spilled_.resize(count, value);
    } else {
        if (size_ > kInline)
            std::copy(spilled_.begin(), spilled_.begin() + static_cast<std::ptrdiff_t>(count), inline_.begin());
        for (std::size_t axis = size_; axis < count; ++axis)
            inline_[axis] = value;
        spilled_.clear();
    }
    size_ = count;
}

void AxisSeconds::assign(std::size_t count, double value)
{
    size_ = 0;
    spilled_.clear();
    resize(count, value);
}

}  // namespace tapestry
