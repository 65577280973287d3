#include <cctype>
#include <cstring>
#include <initializer_list>
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

const char* const kSgdKeys[] = {
    "defaultLearningRate",    "defaultWeightDecay", "defaultMomentum", "defaultDampening",
    "defaultVelocityScaling", "nesterov",           "defaultNesterov", "lossScaling"};
const char* const kAdamKeys[] = {"defaultLearningRate",  "defaultWeightDecay", "defaultBeta1",
                                 "defaultBeta2",         "defaultEps",         "lossScaling",
                                 "defaultMaxWeightNorm", "maxWeightNorm"};
const char* const kAdaptiveKeys[] = {"defaultLearningRate", "defaultWeightDecay", "defaultAlpha",
                                     "defaultMomentum",     "defaultEps",         "lossScaling"};

// PopART's defaults for hyperparameters a map leaves out (Adam::getUnset*, Adaptive::getUnset*,
// SGD::getUnset* in PopART's optimizer headers).
const float kSgdDefaultLearningRate = 0.1f;
const float kAdamDefaultLearningRate = 0.1f;
const float kAdamDefaultBeta1 = 0.9f;
const float kAdamDefaultBeta2 = 0.999f;
const float kAdamDefaultEps = 1e-6f;
const float kAdamDefaultMaxWeightNorm = 10.0f;
const float kAdaptiveDefaultLearningRate = 0.01f;
const float kAdaptiveDefaultAlpha = 0.99f;
const float kAdaptiveDefaultEps = 1e-6f;

// The one state type of `types` (accumType and the accl types), FLOAT or FLOAT16: the device
// keeps all of an optimizer's state in one type.
DataType stateType(const std::string& name, std::initializer_list<DataType> types) {
    const DataType first = *types.begin();
    for (DataType t : types) {
        if (t != DataType::FLOAT && t != DataType::FLOAT16)
            throw error(name + ": accumulator type " + getDataTypeString(t) +
                        " is not supported (FLOAT or FLOAT16)");
        if (t != first)
            throw error(name + ": accumulators of different types (" + getDataTypeString(first) +
                        " and " + getDataTypeString(t) + ") are not supported; give them one type");
    }
    return first;
}

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
        else if (p.first == "nesterov" || p.first == "maxWeightNorm") // PopART's key names
            defaults_[p.first] = OptimizerValue(p.second);
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
        const std::string name =
            p.first.compare(0, 7, "default") == 0 ? shortName(p.first) : p.first;
        if (!defaults_.count(name))
            throw error(type_s() + ": unknown hyperparameter '" + p.first + "' for weight '" +
                        weight + "'");
        specific_[weight][name] = OptimizerValue(p.second);
    }
    checkValues();
}

std::vector<TensorId> Optimizer::specificWeightsAndDefault() const {
    std::vector<TensorId> out{TensorId()};
    for (const auto& s : specific_)
        out.push_back(s.first);
    return out;
}

SGD::SGD(OptimizerValue lr, OptimizerValue wd, OptimizerValue mm, OptimizerValue dp,
         OptimizerValue vs, OptimizerValue ls, OptimizerValue nesterov)
    : Optimizer({{"learningRate", lr},
                 {"weightDecay", wd},
                 {"momentum", mm},
                 {"dampening", dp},
                 {"velocityScaling", vs},
                 {"nesterov", nesterov}},
                ls) {
    checkValues();
}

SGD::SGD(const std::map<std::string, std::pair<float, bool>>& params)
    : SGD(OptimizerValue(kSgdDefaultLearningRate), 0.0f, 0.0f, 0.0f, 1.0f, 1.0f) {
    readDefaults(params, kSgdKeys, sizeof(kSgdKeys) / sizeof(kSgdKeys[0]));
    checkValues();
}

void SGD::checkValues() const {
    // The velocity is stored scaled by velocityScaling and divided by it again: 0 cannot be.
    for (const auto& w : specificWeightsAndDefault()) {
        const OptimizerValue vs = get("velocityScaling", w);
        if (vs.isConst() && vs.val() == 0.0f)
            throw error("SGD: velocityScaling must not be 0" +
                        (w.empty() ? std::string() : " (weight '" + w + "')"));
        const OptimizerValue nt = get("nesterov", w);
        if (!nt.isConst())
            throw error("SGD: nesterov must be const (it changes the compiled update)");
        if (nt.val() != 0.0f && get("momentum", w).isConst() && get("momentum", w).val() == 0.0f)
            throw error("SGD: nesterov needs a momentum" +
                        (w.empty() ? std::string() : " (weight '" + w + "')"));
    }
}

std::unique_ptr<Optimizer> SGD::clone() const {
    return std::unique_ptr<Optimizer>(new SGD(*this));
}

bool SGD::requiresAccl(const TensorId& weight) const {
    const OptimizerValue mm = get("momentum", weight);
    return !mm.isConst() || mm.val() != 0.0f;
}

bool SGD::nesterov(const TensorId& weight) const {
    return get("nesterov", weight).val() != 0.0f;
}

std::unique_ptr<Optimizer> ConstSGD::clone() const {
    return std::unique_ptr<Optimizer>(new ConstSGD(*this));
}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1, OptimizerValue b2,
           OptimizerValue eps, OptimizerValue ls, AdamMode adamMode, WeightDecayMode decayMode,
           DataType accumType, DataType accl1Type, DataType accl2Type)
    : Adam(lr, wd, b1, b2, eps, ls, OptimizerValue(kAdamDefaultMaxWeightNorm), adamMode, decayMode,
           accumType, accl1Type, accl2Type) {}

Adam::Adam(OptimizerValue lr, OptimizerValue wd, OptimizerValue b1, OptimizerValue b2,
           OptimizerValue eps, OptimizerValue ls, OptimizerValue mwn, AdamMode adamMode,
           WeightDecayMode decayMode, DataType accumType, DataType accl1Type, DataType accl2Type)
    : Optimizer({{"learningRate", lr},
                 {"weightDecay", wd},
                 {"beta1", b1},
                 {"beta2", b2},
                 {"eps", eps},
                 {"maxWeightNorm", mwn}},
                ls),
      mode_(adamMode), decayMode_(decayMode) {
    if (int(adamMode) < 0 || int(adamMode) > int(AdamMode::LambNoBias))
        throw error("Adam: unknown AdamMode " + std::to_string(int(adamMode)));
    stateType_ = stateType("Adam", {accumType, accl1Type, accl2Type});
}

Adam::Adam(const std::map<std::string, std::pair<float, bool>>& params, AdamMode adamMode,
           WeightDecayMode decayMode, DataType accumType, DataType accl1Type, DataType accl2Type)
    : Adam(OptimizerValue(kAdamDefaultLearningRate), 0.0f, kAdamDefaultBeta1, kAdamDefaultBeta2,
           kAdamDefaultEps, 1.0f, kAdamDefaultMaxWeightNorm, adamMode, decayMode, accumType,
           accl1Type, accl2Type) {
    readDefaults(params, kAdamKeys, sizeof(kAdamKeys) / sizeof(kAdamKeys[0]));
}

std::unique_ptr<Optimizer> Adam::clone() const {
    return std::unique_ptr<Optimizer>(new Adam(*this));
}

Adaptive::Adaptive(OptimizerValue lr, OptimizerValue wd, OptimizerValue alpha, OptimizerValue mm,
                   OptimizerValue eps, OptimizerValue ls, AdaptiveMode adaptiveMode,
                   WeightDecayMode decayMode, DataType accumType, DataType accl1Type,
                   DataType accl2Type, DataType accl3Type, bool rmspropTFVariant)
    : Optimizer({{"learningRate", lr},
                 {"weightDecay", wd},
                 {"alpha", alpha},
                 {"momentum", mm},
                 {"eps", eps}},
                ls),
      mode_(adaptiveMode), decayMode_(decayMode) {
    if (int(adaptiveMode) < 0 || int(adaptiveMode) > int(AdaptiveMode::AdaDelta))
        throw error("Adaptive: unknown AdaptiveMode " + std::to_string(int(adaptiveMode)));
    if (rmspropTFVariant)
        throw error("Adaptive: the TensorFlow variant of RMSProp (rmspropTFVariant) is not "
                    "supported by the PopART face");
    stateType_ = stateType("Adaptive", {accumType, accl1Type, accl2Type, accl3Type});
}

Adaptive::Adaptive(const std::map<std::string, std::pair<float, bool>>& params,
                   AdaptiveMode adaptiveMode, WeightDecayMode decayMode, DataType accumType,
                   DataType accl1Type, DataType accl2Type, DataType accl3Type,
                   bool rmspropTFVariant)
    : Adaptive(OptimizerValue(kAdaptiveDefaultLearningRate), 0.0f, kAdaptiveDefaultAlpha, 0.0f,
               kAdaptiveDefaultEps, 1.0f, adaptiveMode, decayMode, accumType, accl1Type, accl2Type,
               accl3Type, rmspropTFVariant) {
    readDefaults(params, kAdaptiveKeys, sizeof(kAdaptiveKeys) / sizeof(kAdaptiveKeys[0]));
}

std::unique_ptr<Optimizer> Adaptive::clone() const {
    return std::unique_ptr<Optimizer>(new Adaptive(*this));
}

} // namespace popart
