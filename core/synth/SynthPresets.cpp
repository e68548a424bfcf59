#include "synth/SynthPresets.h"

#include <vector>

namespace tapestry {

namespace {

ModelSpec gpt(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t maxPositions)
{
    ModelSpec s;
    s.family = ModelFamily::Gpt;
    s.layers = layers;
    s.hidden = hidden;
    s.heads = s.kvHeads = heads;
    s.ffn = 4 * hidden;
    s.vocab = 50257;
    s.maxPositions = maxPositions;
    return s;
}

ModelSpec llama(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kvHeads, std::int64_t ffn)
{
    ModelSpec s;
    s.family = ModelFamily::Llama;
    s.layers = layers;
    s.hidden = hidden;
    s.heads = heads;
    s.kvHeads = kvHeads;
    s.ffn = ffn;
    s.vocab = 32000;
    s.maxPositions = 4096;
    return s;
}

ModelSpec bert(std::int64_t layers, std::int64_t hidden, std::int64_t heads)
{
    ModelSpec s;
    s.family = ModelFamily::Bert;
    s.layers = layers;
    s.hidden = hidden;
    s.heads = s.kvHeads = heads;
    s.ffn = 4 * hidden;
    s.vocab = 30522;
    s.maxPositions = 512;
    return s;
}

ModelSpec vit(std::int64_t layers, std::int64_t hidden, std::int64_t heads)
{
    ModelSpec s;
    s.family = ModelFamily::Vit;
    s.layers = layers;
    s.hidden = hidden;
    s.heads = s.kvHeads = heads;
    s.ffn = 4 * hidden;
    s.imageSize = 224;
    s.patchSize = 16;
    s.classes = 1000;
    return s;
}

ModelSpec t5(std::int64_t layers, std::int64_t hidden, std::int64_t heads)
{
    ModelSpec s;
    s.family = ModelFamily::T5;
    s.layers = s.decoderLayers = layers;
    s.hidden = hidden;
    s.heads = s.kvHeads = heads;
    s.ffn = 4 * hidden;
    s.vocab = 32128;
    s.maxPositions = 512;
    return s;
}

// Llama 3: grouped-query attention with 8 key-value heads, a 128,256-token vocabulary
// and 8,192 positions (Meta's model cards).
ModelSpec llama3(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t ffn)
{
    ModelSpec s = llama(layers, hidden, heads, 8, ffn);
    s.vocab = 128256;
    s.maxPositions = 8192;
    return s;
}

ModelSpec mixtral()
{
    ModelSpec s = llama(32, 4096, 32, 8, 14336);
    s.family = ModelFamily::Moe;
    s.maxPositions = 32768;
    s.experts = 8;
    s.topK = 2;
    return s;
}

// Kimi K2's mixture of experts (huggingface.co/moonshotai/Kimi-K2-Instruct, config.json):
// 61 layers of width 7,168, 384 experts with FFN 2,048 of which each token takes 8, 64
// heads, a 163,840-token vocabulary, 4,096 positions in pretraining. Its multi-head
// latent attention is written as plain attention of 64 heads, and its one shared expert
// and first dense layer are left out: the routed experts hold almost all of its
// 1.04 T parameters.
ModelSpec kimiK2()
{
    ModelSpec s = llama(61, 7168, 64, 64, 2048);
    s.family = ModelFamily::Moe;
    s.vocab = 163840;
    s.experts = 384;
    s.topK = 8;
    return s;
}

ModelSpec resnet(std::vector<std::int64_t> stageBlocks)
{
    ModelSpec s;
    s.family = ModelFamily::ResNet;
    s.layers = 0;
    for (const std::int64_t blocks : stageBlocks)
        s.layers += blocks;
    s.hidden = 64;
    s.stageBlocks = std::move(stageBlocks);
    s.imageSize = 224;
    s.classes = 1000;
    return s;
}

const std::vector<SynthPreset>& presetTable()
{
    static const std::vector<SynthPreset> presets = {
        {"gpt2-small", "GPT-2 124M", gpt(12, 768, 12, 1024)},
        {"gpt2-medium", "GPT-2 355M", gpt(24, 1024, 16, 1024)},
        {"gpt2-large", "GPT-2 774M", gpt(36, 1280, 20, 1024)},
        {"gpt2-xl", "GPT-2 1.5B", gpt(48, 1600, 25, 1024)},
        {"gpt3-175b", "GPT-3 175B (96 layers, h = 12288)", gpt(96, 12288, 96, 2048)},
        {"llama2-7b", "Llama-2 7B", llama(32, 4096, 32, 32, 11008)},
        {"llama2-13b", "Llama-2 13B", llama(40, 5120, 40, 40, 13824)},
        {"llama2-70b", "Llama-2 70B (GQA, 8 KV heads)", llama(80, 8192, 64, 8, 28672)},
        {"llama3-8b", "Llama-3 8B (GQA, 8 KV heads, 128k vocabulary)", llama3(32, 4096, 32, 14336)},
        {"llama3-70b", "Llama-3 70B (GQA, 8 KV heads, 128k vocabulary)", llama3(80, 8192, 64, 28672)},
        {"bert-base", "BERT base, uncased", bert(12, 768, 12)},
        {"bert-large", "BERT large, uncased", bert(24, 1024, 16)},
        {"vit-base", "ViT-Base/16, 224 px", vit(12, 768, 12)},
        {"vit-large", "ViT-Large/16, 224 px", vit(24, 1024, 16)},
        {"t5-small", "T5 small (v1.0)", t5(6, 512, 8)},
        {"t5-base", "T5 base (v1.0)", t5(12, 768, 12)},
        {"t5-large", "T5 large (v1.0)", t5(24, 1024, 16)},
        {"mixtral-8x7b", "Mixtral 8x7B (8 experts, top-2)", mixtral()},
        {"kimi-k2", "Kimi K2 1T (384 experts, top-8; plain attention for MLA)", kimiK2()},
        {"resnet50", "ResNet-50 (torchvision)", resnet({3, 4, 6, 3})},
        {"resnet101", "ResNet-101 (torchvision)", resnet({3, 4, 23, 3})},
        {"resnet152", "ResNet-152 (torchvision)", resnet({3, 8, 36, 3})},
    };
    return presets;
}

}  // namespace

std::span<const SynthPreset> synthPresets()
{
    return presetTable();
}

const SynthPreset* findSynthPreset(std::string_view name)
{
    for (const SynthPreset& preset : presetTable()) {
        if (preset.name == name)
            return &preset;
    }
    return nullptr;
}

}  // namespace tapestry
