#pragma once
// OptimizerValue: an optimizer hyperparameter and whether it is constant for the session.

#include <utility>

namespace popart {

/// A hyperparameter's value and whether it is compiled in (const) or can be changed between
/// runs with TrainingSession::updateOptimizerFromHost (non-const: held in a device tensor).
class OptimizerValue {
public:
    OptimizerValue() : val_(0.0f), isConst_(true) {}
    OptimizerValue(float v) : val_(v), isConst_(true) {}
    OptimizerValue(float v, bool c) : val_(v), isConst_(c) {}
    OptimizerValue(std::pair<float, bool> p) : val_(p.first), isConst_(p.second) {}

    float val() const { return val_; }
    bool isConst() const { return isConst_; }
    bool operator==(const OptimizerValue& o) const {
        return val_ == o.val_ && isConst_ == o.isConst_;
    }

private:
    float val_;
    bool isConst_;
};

} // namespace popart
