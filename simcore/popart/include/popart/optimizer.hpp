#pragma once
// Optimizers of a TrainingSession: SGD (momentum, dampening, weight decay, velocity scaling),
// ConstSGD, and Adam/AdamW/Lamb-style Adam, each with a loss scaling.

#include <map>
#include <memory>
#include <popart/names.hpp>
#include <popart/optimizervalue.hpp>
#include <popart/tensorinfo.hpp>
#include <string>
#include <utility>

namespace popart {

enum class OptimizerType { SGD = 0, Adam, Adaptive, NTYPES };

/// Whether Adam's weight decay is added to the gradient (L2Regularization) or applied to the
/// weight directly (Decay, AdamW).
enum class WeightDecayMode { Decay = 0, L2Regularization };

/// Adam's variants. Adam and AdamNoBias are supported; the Lamb variants are refused.
enum class AdamMode { Adam = 0, AdamNoBias, AdaMax, Lamb, LambNoBias };

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
    const std::map<std::string, OptimizerValue>& defaults() const { return defaults_; }

protected:
    Optimizer(const std::map<std::string, OptimizerValue>& defaults, OptimizerValue lossScaling);
    /// Reads "defaultX" keys of `params` into defaults_ (keys outside `known` raise
    /// popart::error naming them).
    void readDefaults(const std::map<std::string, std::pair<float, bool>>& params,
                      const char* const* known, std::size_t nKnown);

    std::map<std::string, OptimizerValue> defaults_;
    std::map<TensorId, std::map<std::string, OptimizerValue>> specific_;
    OptimizerValue lossScaling_;
};

/// Stochastic gradient descent with PopART's hyperparameters: learningRate, weightDecay,
/// momentum, dampening, velocityScaling, nesterov (0/1) and lossScaling. With momentum 0 the
/// update is w -= lr * (g / ls + wd * w); with momentum the velocity
/// v = mm * v + (1 - dp) * (g / ls + wd * w) is kept on the device and w -= lr * v.
class SGD : public Optimizer {
public:
    SGD(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay = 0.0f,
        OptimizerValue defaultMomentum = 0.0f, OptimizerValue defaultDampening = 0.0f,
        OptimizerValue defaultVelocityScaling = 1.0f, OptimizerValue lossScaling = 1.0f);
    /// Keys: "defaultLearningRate", "defaultWeightDecay", "defaultMomentum", "defaultDampening",
    /// "defaultVelocityScaling", "defaultNesterov", "lossScaling"; values (value, isConst).
    explicit SGD(const std::map<std::string, std::pair<float, bool>>& params);
    static SGD fromDefaultMap(const std::map<std::string, std::pair<float, bool>>& params) {
        return SGD(params);
    }

    OptimizerType type() const override { return OptimizerType::SGD; }
    std::string type_s() const override { return "SGD"; }
    std::unique_ptr<Optimizer> clone() const override;

    /// Whether any weight uses momentum (the session then keeps a velocity per weight).
    bool requiresAccl(const TensorId& weight) const;
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
/// L2Regularization mode), w -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
/// (+ lr * wd * w in Decay mode); AdamNoBias omits the bias corrections. Hyperparameters:
/// learningRate, weightDecay, beta1, beta2, eps, lossScaling.
class Adam : public Optimizer {
public:
    Adam(OptimizerValue defaultLearningRate, OptimizerValue defaultWeightDecay,
         OptimizerValue defaultBeta1, OptimizerValue defaultBeta2, OptimizerValue defaultEps,
         OptimizerValue lossScaling, AdamMode adamMode = AdamMode::Adam,
         WeightDecayMode decayMode = WeightDecayMode::Decay, DataType accumType = DataType::FLOAT,
         DataType accl1Type = DataType::FLOAT, DataType accl2Type = DataType::FLOAT);
    /// Keys: "defaultLearningRate", "defaultWeightDecay", "defaultBeta1", "defaultBeta2",
    /// "defaultEps", "lossScaling", "maxWeightNorm" (recorded); values (value, isConst).
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

} // namespace popart
