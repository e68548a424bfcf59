#pragma once

namespace tapestry {

// Which physical links a collective stage runs over: NVLink/NVSwitch or PCIe inside a
// node, or the per-GPU NICs between nodes.
enum class LinkClass { Intra, Inter };

[[nodiscard]] constexpr const char* linkClassName(LinkClass link)
{
    return link == LinkClass::Intra ? "intra" : "inter";
}

}  // namespace tapestry
