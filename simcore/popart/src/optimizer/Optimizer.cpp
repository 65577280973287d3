#include <cstring>
#include <popart/error.hpp>
#include <popart/optimizer.hpp>

namespace popart {

namespace {

// "defaultLearningRate" -> "learningRate".
std::string shortName(const std::string& key) {
    if (key.compare(0, 7, "default") == 0 && key.size() > 7) {
        std::string s = key.substr(7);
        s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
        return s;
    }
    return key;
}

const char* const kSgdKeys[] = {"defaultLearningRate", "defaultWeightDecay",     "defaultMomentum",
                                "defaultDampening",    "defaultVelocityScaling", "defaultNesterov",
                                "lossScaling"};
const char* const kAdamKeys[] = {"defaultLearningRate", "defaultWeightDecay", "defaultBeta1",
                                 "defaultBeta2",        "defaultEps",         "lossScaling",
                                 "maxWeightNorm"};

} // namespace

Optimizer::Optimizer(const std::map<std::string, OptimizerValue>& defaults,
                     OptimizerValue lossScaling)
    : defaults_(defaults), lossScaling_(lossScaling) {}

void Optimizer::readDefaults(const std::map<std::string, std::pair<float, bool>>& params,
                             const char* const* known, std::size_t nKnown) {
    for (const auto& p : params) {
        bool ok = false;
        for (std::size_t i = 0; i < nKnown; ++i)
            ok = ok || p.first == known[i];
        if (!ok)
            throw error(type_s() + ": unknown hyperparameter '" + p.first + "'");
        if (p.first == "lossScaling")
            lossScaling_ = OptimizerValue(p.second);
        else
            defaults_[shortName(p.first)] = OptimizerValue(p.second);
    }
}

OptimizerValue Optimizer::get(const std::string& name, const TensorId& weight) const {
    auto s = specific_.find(weight);
    if (s != specific_.end()) {
        auto v = s->second.find(name);
        if (v != s->second.end())
            return v->second;
    }
    auto d = defaults_.find(name);
    if (d == defaults_.end())
        throw internal_error(type_s() + " has no hyperparameter '" + name + "'");
    return d->second;
}

void Optimizer::insertSpecific(const TensorId& weight,
                               const std::map<std::string, std::pair<float, bool>>& params) {
    for (const auto& p : params) {
        const std::string name = shortName(p.first);
        if (!defaults_.count(name))
            throw error(type_s() + ": unknown hyperparameter '" + p.first + "' for weight '" +
                        weight + "'");
        specific_[weight][name] = OptimizerValue(p.second);
    }
}

SGD::SGD(OptimizerValue lr, OptimizerValue wd, OptimizerValue mm, OptimizerValue dp,
         OptimizerValue vs, OptimizerValue ls)
    : Optimizer({{"learningRate", lr},
                 {"weightDecay", wd},
                 {"momentum", mm},
                 {"dampening", dp},
                 {"velocityScaling", vs},
                 {"nesterov", OptimizerValue(0.0f)}},
                ls) {}

SGD::SGD(const std::map<std::string, std::pair<float, bool>>& params)
    : SGD(OptimizerValue(0.1f), 0.0f, 0.0f, 0.0f, 1.0f, 1.0f) {
    readDefaults(params, kSgdKeys, sizeof(kSgdKeys) / sizeof(kSgdKeys[0]));
    if (!params.count("defaultLearningRate"))
        throw error("SGD: defaultLearningRate is required");
}

std::unique_ptr<Optimizer> SGD::clone() const {
    return std::unique_ptr<Optimizer>(new SGD(*this));
}

bool SGD::requiresAccl(const TensorId& weight) const {
    const OptimizerValue mm = get("momentum", weight);
    return !mm.isConst() || mm.val() != 0.0f;
}

std::unique_ptr<Optimizer> ConstSGD::clone() const {
    return std::unique_ptr<Optimizer>(new ConstSGD(*this));
}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1, OptimizerValue b2,
           OptimizerValue eps, OptimizerValue ls, AdamMode adamMode, WeightDecayMode decayMode,
           DataType, DataType, DataType)
    : Optimizer({{"learningRate", lr},
                 {"weightDecay", wd},
                 {"beta1", b1},
                 {"beta2", b2},
                 {"eps", eps},
                 {"maxWeightNorm", OptimizerValue(0.0f)}},
                ls),
      mode_(adamMode), decayMode_(decayMode) {
    if (adamMode != AdamMode::Adam && adamMode != AdamMode::AdamNoBias)
        throw error("Adam: only AdamMode::Adam and AdamMode::AdamNoBias are supported");
}

Adam::Adam(const std::map<std::string, std::pair<float, bool>>& params, AdamMode adamMode,
           WeightDecayMode decayMode, DataType accumType, DataType accl1Type, DataType accl2Type)
    : Adam(OptimizerValue(1e-3f), 0.0f, 0.9f, 0.999f, 1e-6f, 1.0f, adamMode, decayMode, accumType,
           accl1Type, accl2Type) {
    readDefaults(params, kAdamKeys, sizeof(kAdamKeys) / sizeof(kAdamKeys[0]));
}

std::unique_ptr<Optimizer> Adam::clone() const {
    return std::unique_ptr<Optimizer>(new Adam(*this));
}

} // namespace popart
