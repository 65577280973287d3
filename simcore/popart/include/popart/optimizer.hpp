#pragma once
// Optimizers of a TrainingSession: SGD (momentum, dampening, weight decay, velocity scaling,
// Nesterov), ConstSGD, Adam (Adam, AdamW, AdaMax, Lamb) and Adaptive (AdaGrad, RMSProp,
// CenteredRMSProp, AdaDelta), each with a loss scaling and per-weight values.

#include <map>
#include <memory>
#include <popart/names.hpp>
#include <popart/optimizervalue.hpp>
#include <popart/tensorinfo.hpp>
#include <string>
#include <utility>
#include <vector>

namespace popart {

enum class OptimizerType { SGD = 0, Adam, Adaptive, NTYPES };

/// Whether Adam's weight decay is added to the gradient (L2Regularization) or applied to the
/// weight directly (Decay, AdamW).
enum class WeightDecayMode { Decay = 0, L2Regularization };

/// Adam's variants: Adam (with bias correction), AdamNoBias, AdaMax (infinity norm), Lamb (a
/// layer-wise trust ratio, You et al. 2020) and LambNoBias.
enum class AdamMode { Adam = 0, AdamNoBias, AdaMax, Lamb, LambNoBias };

/// The Adaptive optimizer's variants.
enum class AdaptiveMode { AdaGrad = 0, RMSProp, CenteredRMSProp, AdaDelta };

/// An optimizer: default hyperparameters by name ("defaultLearningRate", ...), optional
/// per-weight values (insertSpecific), and a loss scaling the gradients are computed with.
class Optimizer {
public:
    virtual ~Optimizer() = default;
    virtual OptimizerType type() const = 0;
    virtual std::string type_s() const = 0;
    virtual std::unique_ptr<Optimizer> clone() const = 0;

    const OptimizerValue& lossScaling() const { return lossScaling_; }
    float getLossScalingVal() const { return lossScaling_.val(); }
    /// The value of hyperparameter `name` ("learningRate", "momentum", ...: the default names
    /// without the "default" prefix) for weight `weight`: its specific value, else the default.
    OptimizerValue get(const std::string& name, const TensorId& weight) const;
    /// Sets hyperparameters of one weight (keys as the constructor's, without "default").
    void insertSpecific(const TensorId& weight,
                        const std::map<std::string, std::pair<float, bool>>& params);
    bool hasSpecific(const TensorId& weight) const { return specific_.count(weight) != 0; }
    bool hasSpecific() const { return !specific_.empty(); }
    const std::map<std::string, OptimizerValue>& defaults() const { return defaults_; }
    /// The type of the optimizer state (accumulators) of FLOAT16 weights: FLOAT or FLOAT16
    /// (Adam's and Adaptive's accl types, FLOAT by default as in PopART), or UNDEFINED for the
    /// weight's own type (SGD's velocity). FLOAT weights always keep FLOAT state.
    DataType stateTypeOfHalfWeights() const { return stateType_; }

protected:
    Optimizer(const std::map<std::string, OptimizerValue>& defaults, OptimizerValue lossScaling);
    /// Reads "defaultX" keys of `params` into defaults_ (keys outside `known` raise
    /// popart::error naming them).
    void readDefaults(const std::map<std::string, std::pair<float, bool>>& params,
                      const char* const* known, std::size_t nKnown);
    /// Refuses values the optimizer cannot apply (after construction and insertSpecific).
    virtual void checkValues() const {}
    /// "" (the defaults) and every weight with specific values.
    std::vector<TensorId> specificWeightsAndDefault() const;

    std::map<std::string, OptimizerValue> defaults_;
    DataType stateType_ = DataType::UNDEFINED;
    std::map<TensorId, std::map<std::string, OptimizerValue>> specific_;
    OptimizerValue lossScaling_;
};

/// Stochastic gradient descent with PopART's hyperparameters: learningRate, weightDecay,
/// momentum, dampening, velocityScaling, nesterov (0/1) and lossScaling. With momentum 0 the
/// update is w -= lr * (g / ls + wd * w); with momentum the velocity
/// v = mm * v + (1 - dp) * (g / ls + wd * w) is kept on the device (scaled by velocityScaling,
/// which leaves the result unchanged) and w -= lr * v, or with nesterov
/// w -= lr * (g / ls + wd * w + mm * v).
class SGD : public Optimizer {
public:
    SGD(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay = 0.0f,
        OptimizerValue defaultMomentum = 0.0f, OptimizerValue defaultDampening = 0.0f,
        OptimizerValue defaultVelocityScaling = 1.0f, OptimizerValue lossScaling = 1.0f,
        OptimizerValue nesterov = 0.0f);
    /// Keys: "defaultLearningRate", "defaultWeightDecay", "defaultMomentum", "defaultDampening",
    /// "defaultVelocityScaling", "nesterov" (also read as "defaultNesterov"), "lossScaling";
    /// values (value, isConst). Missing keys take PopART's defaults (learning rate 0.1).
    explicit SGD(const std::map<std::string, std::pair<float, bool>>& params);
    static SGD fromDefaultMap(const std::map<std::string, std::pair<float, bool>>& params) {
        return SGD(params);
    }

    OptimizerType type() const override { return OptimizerType::SGD; }
    std::string type_s() const override { return "SGD"; }
    std::unique_ptr<Optimizer> clone() const override;

    /// Whether `weight` uses momentum (the session then keeps its velocity).
    bool requiresAccl(const TensorId& weight) const;
    /// Whether `weight` uses Nesterov momentum.
    bool nesterov(const TensorId& weight) const;

protected:
    void checkValues() const override;
};

/// SGD whose learning rate, weight decay and loss scaling are constants of the compiled graph.
class ConstSGD : public SGD {
public:
    ConstSGD(float learningRate, float weightDecay = 0.0f, float lossScaling = 1.0f)
        : SGD(OptimizerValue(learningRate, true), OptimizerValue(weightDecay, true),
              OptimizerValue(0.0f, true), OptimizerValue(0.0f, true), OptimizerValue(1.0f, true),
              OptimizerValue(lossScaling, true)) {}
    std::unique_ptr<Optimizer> clone() const override;
};

/// Adam: m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2 (g = grad / lossScaling, plus wd * w in
/// L2Regularization mode), x = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps) (+ wd * w in
/// Decay mode), w -= lr * x. AdamNoBias and LambNoBias omit the bias corrections; AdaMax keeps
/// v = max(b2 v, |g|) and x = (m / (1 - b1^t)) / (v + eps); Lamb and LambNoBias scale the step
/// by the trust ratio min(|w|, maxWeightNorm) / |x| (1 when either norm is 0). Hyperparameters:
/// learningRate, weightDecay, beta1, beta2, eps, maxWeightNorm, lossScaling.
class Adam : public Optimizer {
public:
    Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
         OptimizerValue defaultBeta1, OptimizerValue defaultBeta2, OptimizerValue defaultEps,
         OptimizerValue lossScaling, AdamMode adamMode = AdamMode::Adam,
         WeightDecayMode decayMode = WeightDecayMode::Decay, DataType accumType = DataType::FLOAT,
         DataType accl1Type = DataType::FLOAT, DataType accl2Type = DataType::FLOAT);
    Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
         OptimizerValue defaultBeta1, OptimizerValue defaultBeta2, OptimizerValue defaultEps,
         OptimizerValue lossScaling, OptimizerValue maxWeightNorm, AdamMode adamMode,
         WeightDecayMode decayMode = WeightDecayMode::Decay, DataType accumType = DataType::FLOAT,
         DataType accl1Type = DataType::FLOAT, DataType accl2Type = DataType::FLOAT);
    /// Keys: "defaultLearningRate", "defaultWeightDecay", "defaultBeta1", "defaultBeta2",
    /// "defaultEps", "defaultMaxWeightNorm" (also read as "maxWeightNorm"), "lossScaling";
    /// values (value, isConst). Missing keys take PopART's defaults (learning rate 0.1, beta1
    /// 0.9, beta2 0.999, eps 1e-6, maxWeightNorm 10).
    explicit Adam(const std::map<std::string, std::pair<float, bool>>& params,
                  AdamMode adamMode = AdamMode::Adam,
                  WeightDecayMode decayMode = WeightDecayMode::Decay,
                  DataType accumType = DataType::FLOAT, DataType accl1Type = DataType::FLOAT,
                  DataType accl2Type = DataType::FLOAT);

    OptimizerType type() const override { return OptimizerType::Adam; }
    std::string type_s() const override { return "Adam"; }
    std::unique_ptr<Optimizer> clone() const override;
    AdamMode getMode() const { return mode_; }
    WeightDecayMode getWeightDecayMode() const { return decayMode_; }

private:
    AdamMode mode_;
    WeightDecayMode decayMode_;
};

/// AdaGrad, RMSProp, CenteredRMSProp and AdaDelta as PopART's Adaptive: with
/// g = grad / lossScaling (+ wd * w in L2Regularization mode), v1 = a v1 + (1 - a) g^2 (AdaGrad:
/// v1 + g^2); the step x = g / (sqrt(v1) + eps) (CenteredRMSProp: v2 = a v2 + (1 - a) g and
/// x = g / (sqrt(v1 - v2^2) + eps); AdaDelta: x = g sqrt(v2 + eps) / sqrt(v1 + eps), then
/// v2 = a v2 + (1 - a) x^2); v3 = m v3 + x; w -= lr * (v3 + wd * w) in Decay mode, else
/// w -= lr * v3. Hyperparameters: learningRate, weightDecay, alpha, momentum, eps, lossScaling.
class Adaptive : public Optimizer {
public:
    Adaptive(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
             OptimizerValue defaultAlpha, OptimizerValue defaultMomentum, OptimizerValue defaultEps,
             OptimizerValue lossScaling, AdaptiveMode adaptiveMode,
             WeightDecayMode decayMode = WeightDecayMode::Decay,
             DataType accumType = DataType::FLOAT, DataType accl1Type = DataType::FLOAT,
             DataType accl2Type = DataType::FLOAT, DataType accl3Type = DataType::FLOAT,
             bool rmspropTFVariant = false);
    /// Keys: "defaultLearningRate", "defaultWeightDecay", "defaultAlpha", "defaultMomentum",
    /// "defaultEps", "lossScaling"; values (value, isConst). Missing keys take PopART's defaults
    /// (learning rate 0.01, alpha 0.99, momentum 0, eps 1e-6). The TensorFlow variant of
    /// RMSProp is refused.
    explicit Adaptive(const std::map<std::string, std::pair<float, bool>>& params,
                      AdaptiveMode adaptiveMode = AdaptiveMode::RMSProp,
                      WeightDecayMode decayMode = WeightDecayMode::Decay,
                      DataType accumType = DataType::FLOAT, DataType accl1Type = DataType::FLOAT,
                      DataType accl2Type = DataType::FLOAT, DataType accl3Type = DataType::FLOAT,
                      bool rmspropTFVariant = false);

    OptimizerType type() const override { return OptimizerType::Adaptive; }
    std::string type_s() const override { return "Adaptive"; }
    std::unique_ptr<Optimizer> clone() const override;
    AdaptiveMode getMode() const { return mode_; }
    WeightDecayMode getWeightDecayMode() const { return decayMode_; }

private:
    AdaptiveMode mode_;
    WeightDecayMode decayMode_;
};

} // namespace popart
