#include "synth/ModelSynthesizer.h"

#include "base/Error.h"
#include "synth/BertBuilder.h"
#include "synth/GptBuilder.h"
#include "synth/LlamaBuilder.h"
#include "synth/MoeBuilder.h"
#include "synth/ResNetBuilder.h"
#include "synth/T5Builder.h"
#include "synth/VitBuilder.h"

namespace tapestry {

Graph synthesizeModel(const ModelSpec& spec, const std::string& graphName)
{
    validateModelSpec(spec);
    switch (spec.family) {
    case ModelFamily::Gpt: return buildGpt(spec, graphName);
    case ModelFamily::Llama: return buildLlama(spec, graphName);
    case ModelFamily::Bert: return buildBert(spec, graphName);
    case ModelFamily::Vit: return buildVit(spec, graphName);
    case ModelFamily::T5: return buildT5(spec, graphName);
    case ModelFamily::Moe: return buildMoe(spec, graphName);
    case ModelFamily::ResNet: return buildResNet(spec, graphName);
    }
    throw Error(ErrorCode::InvalidArgument, {}, "unknown model family");
}

}  // namespace tapestry
