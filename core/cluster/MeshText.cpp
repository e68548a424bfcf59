#include "cluster/MeshText.h"

#include "base/Error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace tapestry {

namespace {

// As plan files: at most 2^20 GPUs.
constexpr int kMaxAxisSize = 1 << 20;

std::vector<std::string_view> splitOn(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

int axisSize(std::string_view part, std::string_view text)
{
    int size = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), size);
    if (part.empty() || error != std::errc() || end != part.data() + part.size() || size < 1 || size > kMaxAxisSize)
        throw Error(ErrorCode::InvalidMesh, {},
                    "mesh '" + std::string(text) + "': axis size '" + std::string(part) +
                        "' is not a whole number from 1 to " + std::to_string(kMaxAxisSize));
    return size;
}

}  // namespace

std::vector<MeshAxis> namedMeshAxes(const std::vector<int>& shape)
{
    std::vector<MeshAxis> axes;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        std::string name;
        if (shape.size() == 1)
            name = "d";
        else if (shape.size() == 2)
            name = i == 0 ? "dp" : "tp";
        else
            name = "a" + std::to_string(i);
        axes.push_back({std::move(name), shape[i]});
    }
    return axes;
}

std::vector<MeshAxis> parseMeshText(std::string_view text)
{
    if (text.find('=') == std::string_view::npos) {
        std::vector<int> shape;
        for (const std::string_view part : splitOn(text, 'x'))
            shape.push_back(axisSize(part, text));
        return namedMeshAxes(shape);
    }
    std::vector<MeshAxis> axes;
    for (const std::string_view part : splitOn(text, ',')) {
        const std::size_t equals = part.find('=');
        if (equals == std::string_view::npos || equals == 0)
            throw Error(ErrorCode::InvalidMesh, {},
                        "mesh '" + std::string(text) + "': '" + std::string(part) + "' is not NAME=SIZE");
        std::string name(part.substr(0, equals));
        // The roles Tapestry reads from names are lower case; "PP" is meant as "pp".
        std::string lower = name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower == "pp" || lower == "dp" || lower == "tp" || lower == "cp" || lower == "ep")
            name = lower;
        if (std::any_of(axes.begin(), axes.end(), [&](const MeshAxis& axis) { return axis.name == name; }))
            throw Error(ErrorCode::InvalidMesh, {}, "mesh '" + std::string(text) + "' names axis '" + name + "' twice");
        axes.push_back({name, axisSize(part.substr(equals + 1), text)});
    }
    return axes;
}

std::string meshText(const std::vector<MeshAxis>& axes)
{
    std::string text;
    for (const MeshAxis& axis : axes)
        text += (text.empty() ? "" : ",") + axis.name + "=" + std::to_string(axis.size);
    return text;
}

}  // namespace tapestry
