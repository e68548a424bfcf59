#include "cost/PricingClasses.h"

#include "plan/PipelineLayout.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tapestry {

namespace {

// Numbers a key is made of: node ids as their index.
double keyOf(CoarseNodeId id)
{
    return id.isValid() ? static_cast<double>(id.index()) : -1.0;
}

}  // namespace

bool PricingClasses::uniform(const Plan& plan) const
{
    for (std::size_t n = 0; n < representative.size(); ++n) {
        const std::size_t r = representative[n].index();
        if (r != n && plan.strategies[n] != plan.strategies[r])
            return false;
    }
    return true;
}

PricingClasses buildPricingClasses(const CoarseGraph& coarse, const FamilyTable& families,
                                   const std::function<void(CoarseNodeId, std::vector<double>&)>& nodeFacts,
                                   const std::function<bool(CoarseNodeId, CoarseNodeId)>& sameFacts,
                                   const std::function<void(CoarseNodeId, std::vector<CoarseNodeId>&)>& savedMakers,
                                   const CrossingEnds& tensors)
{
    PricingClasses classes;
    const std::size_t nodeCount = coarse.nodes.size();
    const std::size_t tensorCount = tensors.size();
    for (const CoarseNode& node : coarse.nodes)
        classes.representative.push_back(node.id);
    // Per node of an instance like its representative: the node at its position in the
    // instance before (when that one is alike too), whose class it most likely shares.
    std::vector<CoarseNodeId> before(nodeCount);
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;
        const std::vector<CoarseNodeId>& first = family.representative().nodes;
        const BlockInstance* previous = nullptr;
        for (const BlockInstance& instance : family.instances) {
            const bool alike = instance.nodes.size() == first.size() &&
                               std::equal(first.begin(), first.end(), instance.nodes.begin(), [&](auto a, auto b) {
                                   return coarse.node(a).kind == coarse.node(b).kind;
                               });
            if (!alike) {
                previous = nullptr;
                continue;
            }
            for (std::size_t k = 0; k < first.size(); ++k) {
                classes.representative[instance.nodes[k].index()] = first[k];
                if (previous)
                    before[instance.nodes[k].index()] = previous->nodes[k];
            }
            previous = &instance;
        }
    }
    const auto rep = [&](CoarseNodeId id) { return id.isValid() ? classes.representative[id.index()] : id; };

    // Per node, the tensors it makes, in order: made[madeStart[n]] up to made[madeStart[n + 1]].
    // Their consumers in that order are the node's readers (NodeClass::readers). Per
    // tensor, its place among its producer's (madeAt).
    std::vector<std::size_t> madeStart(nodeCount + 1, 0);
    for (std::size_t t = 0; t < tensorCount; ++t)
        ++madeStart[tensors.producers[t].index() + 1];
    for (std::size_t n = 0; n < nodeCount; ++n)
        madeStart[n + 1] += madeStart[n];
    std::vector<std::size_t> made(tensorCount);
    std::vector<std::size_t> madeAt(tensorCount);
    {
        std::vector<std::size_t> next(madeStart.begin(), madeStart.end() - 1);
        for (std::size_t t = 0; t < tensorCount; ++t) {
            const std::size_t p = tensors.producers[t].index();
            madeAt[t] = next[p] - madeStart[p];
            made[next[p]++] = t;
        }
    }

    // Nodes: same position, same facts, same neighbours' positions. A node with a node
    // before is compared first with that one's class: its facts where sameFacts can
    // tell, else its whole key (built in one buffer); nodeKeys holds each class's key once.
    std::vector<std::size_t> classOf(nodeCount);
    std::map<std::vector<double>, std::size_t> nodeKeys;
    struct KnownKey {
        const std::vector<double>* key = nullptr;
        std::size_t neighbours = 0;  // where the neighbours' positions start in it
    };
    std::vector<KnownKey> nodeClassKey;
    std::vector<double> key;
    std::vector<double> neighbours;  // the readers' positions, then the makers'
    std::vector<CoarseNodeId> makers;
    for (const CoarseNode& node : coarse.nodes) {
        const std::size_t n = node.id.index();
        neighbours.clear();
        for (std::size_t m = madeStart[n]; m < madeStart[n + 1]; ++m)
            for (const CoarseNodeId reader : tensors.consumersOf(made[m]))
                neighbours.push_back(keyOf(rep(reader)));
        std::sort(neighbours.begin(), neighbours.end());
        neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
        neighbours.insert(neighbours.begin(), static_cast<double>(neighbours.size()));
        makers.clear();
        savedMakers(node.id, makers);
        neighbours.push_back(static_cast<double>(makers.size()));
        for (const CoarseNodeId maker : makers)
            neighbours.push_back(keyOf(rep(maker)));
        const CoarseNodeId previous = before[node.id.index()];
        const KnownKey* known =
            previous.isValid() && previous < node.id ? &nodeClassKey[classOf[previous.index()]] : nullptr;
        std::size_t found = 0;
        if (known && sameFacts(node.id, previous) &&
            std::equal(known->key->begin() + static_cast<std::ptrdiff_t>(known->neighbours), known->key->end(),
                       neighbours.begin(), neighbours.end())) {
            found = classOf[previous.index()];
        } else {
            key.assign(1, keyOf(rep(node.id)));
            nodeFacts(node.id, key);
            const std::size_t factsEnd = key.size();
            key.insert(key.end(), neighbours.begin(), neighbours.end());
            if (known && *known->key == key) {
                found = classOf[previous.index()];
            } else {
                const auto [at, fresh] = nodeKeys.try_emplace(key, classes.nodes.size());
                found = at->second;
                if (fresh) {
                    nodeClassKey.push_back({&at->first, factsEnd});
                    std::vector<CoarseNodeId> firstReaders;
                    std::vector<CoarseNodeId> positions;
                    for (std::size_t m = madeStart[n]; m < madeStart[n + 1]; ++m)
                        for (const CoarseNodeId reader : tensors.consumersOf(made[m])) {
                            if (std::find(positions.begin(), positions.end(), rep(reader)) != positions.end())
                                continue;
                            positions.push_back(rep(reader));
                            firstReaders.push_back(reader);
                        }
                    classes.nodes.push_back({node.id, 0, std::move(firstReaders), makers});
                    classes.members.push_back(node.id);
                }
            }
        }
        classes.nodes[found].count += 1;
        classOf[node.id.index()] = found;
    }

    // Tensors: same facts, producer and consumers' positions. A tensor made by a node
    // with a node before is compared first with the one that node made in its place
    // (when classed already; the comparison is of whole keys, so a tensor joins the one
    // class it would find among all).
    const auto madeBefore = [&](std::size_t t) -> std::optional<std::size_t> {
        const std::size_t p = tensors.producers[t].index();
        const CoarseNodeId previous = before[p];
        if (!previous.isValid() || !(previous < tensors.producers[t]))
            return std::nullopt;
        const std::size_t q = previous.index();
        if (madeStart[q + 1] - madeStart[q] != madeStart[p + 1] - madeStart[p])
            return std::nullopt;
        const std::size_t there = made[madeStart[q] + madeAt[t]];
        return there < t ? std::optional<std::size_t>(there) : std::nullopt;
    };
    std::vector<std::size_t> tensorClassOf(tensorCount);
    std::map<std::vector<double>, std::size_t> tensorKeys;
    std::vector<const std::vector<double>*> tensorClassKey;
    for (std::size_t t = 0; t < tensorCount; ++t) {
        const std::span<const CoarseNodeId> consumers = tensors.consumersOf(t);
        key.assign({keyOf(rep(tensors.producers[t])), static_cast<double>(consumers.size())});
        for (const CoarseNodeId consumer : consumers)
            key.push_back(keyOf(rep(consumer)));
        key.insert(key.end(), tensors.facts[t].begin(), tensors.facts[t].end());
        const std::optional<std::size_t> previous = madeBefore(t);
        if (previous && *tensorClassKey[tensorClassOf[*previous]] == key) {
            tensorClassOf[t] = tensorClassOf[*previous];
            continue;
        }
        const auto [found, fresh] = tensorKeys.try_emplace(key, classes.tensors.size());
        if (fresh) {
            tensorClassKey.push_back(&found->first);
            PricingClasses::TensorClass tensorClass{t, {}};
            std::vector<CoarseNodeId> positions;
            for (std::size_t c = 0; c < consumers.size(); ++c) {
                const CoarseNodeId position = rep(consumers[c]);
                if (std::find(positions.begin(), positions.end(), position) != positions.end())
                    continue;
                positions.push_back(position);
                tensorClass.converting.push_back(c);
            }
            classes.tensors.push_back(std::move(tensorClass));
        }
        tensorClassOf[t] = found->second;
    }

    // Places: each block, and the nodes outside blocks before and after them.
    const std::vector<const BlockInstance*> blocks = modelBlocks(families);
    constexpr std::size_t kBefore = PricingClasses::kBefore;
    constexpr std::size_t kAfter = PricingClasses::kAfter;
    std::vector<std::size_t> placeOf(nodeCount, kAfter);
    if (!blocks.empty()) {
        const std::size_t firstBlockNode = blocks.front()->nodes.front().index();
        std::fill(placeOf.begin(), placeOf.begin() + static_cast<std::ptrdiff_t>(std::min(firstBlockNode, nodeCount)),
                  kBefore);
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (const CoarseNodeId id : blocks[b]->nodes)
            placeOf[id.index()] = b;
    }
    std::vector<PricingClasses::Place> blockPlaces(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b)
        blockPlaces[b].nodeClasses.reserve(blocks[b]->nodes.size());
    const auto placeAt = [&](CoarseNodeId id) -> PricingClasses::Place& {
        const std::size_t place = placeOf[id.index()];
        return place == kBefore ? classes.before : place == kAfter ? classes.after : blockPlaces[place];
    };
    for (const CoarseNode& node : coarse.nodes)
        placeAt(node.id).nodeClasses.push_back(classOf[node.id.index()]);
    std::vector<std::size_t> readBlocks;
    for (std::size_t t = 0; t < tensorCount; ++t) {
        const std::span<const CoarseNodeId> consumers = tensors.consumersOf(t);
        readBlocks.clear();
        for (const CoarseNodeId consumer : consumers) {
            const std::size_t place = placeOf[consumer.index()];
            if (place != kBefore && place != kAfter &&
                std::find(readBlocks.begin(), readBlocks.end(), place) == readBlocks.end())
                readBlocks.push_back(place);
        }
        const bool spread = readBlocks.size() > 1;
        const auto charge = [&](CoarseNodeId at, int consumer) {
            const PricingClasses::Charge c{tensorClassOf[t], consumer};
            if (spread)
                classes.spreadCharges.emplace_back(c, placeOf[at.index()]);
            else
                placeAt(at).charges.push_back(c);
        };
        // Only the consumers that may convert it pay (TensorClass::converting): the
        // others' charges stay empty, and a tensor every layer reads would add one per
        // layer to every pricing.
        charge(tensors.producers[t], -1);
        for (const std::size_t c : classes.tensors[tensorClassOf[t]].converting)
            charge(consumers[c], static_cast<int>(c));
    }
    std::map<std::vector<double>, std::size_t> kindKeys;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        PricingClasses::Place& place = blockPlaces[b];
        place.first = blocks[b]->nodes.front();
        std::sort(place.nodeClasses.begin(), place.nodeClasses.end());
        std::sort(place.charges.begin(), place.charges.end());
        key.assign(1, static_cast<double>(classOf[place.first.index()]));
        for (const std::size_t c : place.nodeClasses)
            key.push_back(static_cast<double>(c));
        key.push_back(-1);
        for (const PricingClasses::Charge& charge : place.charges) {
            key.push_back(static_cast<double>(charge.tensorClass));
            key.push_back(charge.consumer);
        }
        const auto [found, fresh] = kindKeys.try_emplace(key, classes.blockKinds.size());
        if (fresh) {
            classes.blockKinds.push_back(std::move(place));
            classes.kindCount.push_back(0);
        }
        classes.kindCount[found->second] += 1;
        classes.kindOfBlock.push_back(found->second);
    }
    classes.classOf = std::move(classOf);
    return classes;
}

}  // namespace tapestry
