#include "onnx/ModelAnalysis.hpp"

#include "onnx/OnnxConvert.hpp"
#include "ops/OpLowering.hpp"

#include <onnx/shape_inference/implementation.h>
#include <popart/error.hpp>

namespace popart {

namespace {

bool isGraphcore(const std::string& domain) {
    return domain == "ai.graphcore";
}

// Removes the declarations of `id` from the graph's value_info.
void eraseValueInfo(onnx::GraphProto& g, const std::string& id) {
    auto* infos = g.mutable_value_info();
    for (int i = infos->size() - 1; i >= 0; --i)
        if (infos->Get(i).name() == id)
            infos->DeleteSubrange(i, 1);
}

// Reads every info the (re-)inferred model declares.
void collectInfos(const onnx::GraphProto& g, ModelAnalysis& a) {
    auto take = [&](const onnx::ValueInfoProto& v) {
        bool complete = false;
        TensorInfo info = fromValueInfo(v, complete);
        if (complete)
            a.infos[v.name()] = info;
    };
    for (const auto& v : g.input())
        take(v);
    for (const auto& v : g.value_info())
        take(v);
    for (const auto& v : g.output())
        take(v);
    for (const auto& t : g.initializer())
        a.infos[t.name()] =
            TensorInfo(fromOnnxType(t.data_type()), Shape(t.dims().begin(), t.dims().end()));
}

// The value of a Constant node (value, value_float(s), value_int(s)).
HostTensor constantValue(const NodeView& n) {
    const auto& at = n.attrs();
    if (at.has("value"))
        return at.getTensor("value");
    HostTensor h;
    if (at.has("value_float")) {
        h.info = TensorInfo(DataType::FLOAT, Shape{});
        h.values = {at.getFloat("value_float", 0)};
    } else if (at.has("value_int")) {
        h.info = TensorInfo(DataType::INT64, Shape{});
        h.values = {double(at.getInt("value_int", 0))};
    } else if (at.has("value_floats")) {
        auto v = at.getFloats("value_floats");
        h.info = TensorInfo(DataType::FLOAT, Shape{int64_t(v.size())});
        h.values.assign(v.begin(), v.end());
    } else if (at.has("value_ints")) {
        auto v = at.getInts("value_ints");
        h.info = TensorInfo(DataType::INT64, Shape{int64_t(v.size())});
        for (auto x : v)
            h.values.push_back(double(x));
    } else {
        n.unsupported("a Constant without value, value_float(s) or value_int(s)");
    }
    return h;
}

} // namespace

int nodeOpset(const ModelAnalysis& analysis, const std::string& domain) {
    return isGraphcore(domain) ? (analysis.graphcoreOpset ? analysis.graphcoreOpset : 1)
                               : analysis.onnxOpset;
}

ModelAnalysis analyseModel(const onnx::ModelProto& original, const InputShapeInfo& inputShapes,
                           AnalysisMode mode) {
    ModelAnalysis a;
    a.onnxOpset = opsetVersion(original, "");
    a.graphcoreOpset = opsetVersion(original, "ai.graphcore");
    onnx::ModelProto model = original;
    auto* g = model.mutable_graph();

    for (const auto& t : original.graph().initializer()) {
        HostTensor h = fromTensorProto(t);
        const DataType type = h.info.dataType();
        if (type == DataType::FLOAT || type == DataType::FLOAT16 || type == DataType::DOUBLE)
            a.weights.insert(t.name());
        a.constants[t.name()] = std::move(h);
    }
    // Inputs with shapes given by the user replace the model's declaration.
    for (auto& in : *g->mutable_input()) {
        if (in.has_type() && !in.type().has_tensor_type() && mode == AnalysisMode::Session)
            throw error("input '" + in.name() +
                        "' is not a tensor (sequence, map and optional inputs are not supported)");
        if (inputShapes.has(in.name()))
            setValueInfo(in, in.name(), inputShapes.get(in.name()));
        bool complete = false;
        const TensorInfo info = fromValueInfo(in, complete);
        if (!complete && !a.constants.count(in.name()) && mode == AnalysisMode::Session)
            throw error("input '" + in.name() + "' has a shape given at run time (" + info.str() +
                        "); give its static shape with InputShapeInfo");
    }

    const auto& registry = OpLoweringRegistry::instance();
    std::set<int> doneNodes; // node indices already folded (of the original graph)
    const onnx::ShapeInferenceOptions options(false, 0, true);
    for (int round = 0; round < original.graph().node_size() + 2; ++round) {
        try {
            onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception& e) {
            if (mode == AnalysisMode::Session)
                throw error(std::string("ONNX shape inference failed: ") + e.what());
        }
        collectInfos(*g, a);
        bool changed = false;
        for (int ni = 0; ni < original.graph().node_size(); ++ni) {
            if (doneNodes.count(ni))
                continue;
            const onnx::NodeProto& node = original.graph().node(ni);
            const int opset = nodeOpset(a, node.domain());
            std::vector<const TensorInfo*> ins;
            std::vector<const HostTensor*> consts;
            bool allConstant = true, allKnown = true;
            for (const auto& id : node.input()) {
                auto it = a.infos.find(id);
                ins.push_back(id.empty() || it == a.infos.end() ? nullptr : &it->second);
                auto c = a.constants.find(id);
                const bool isConst = c != a.constants.end() && !a.weights.count(id);
                consts.push_back(isConst ? &c->second : nullptr);
                allConstant = allConstant && (id.empty() || isConst);
                allKnown = allKnown && (id.empty() || it != a.infos.end());
            }
            ShapeContext ctx(node, opset, ins, consts);
            std::vector<HostTensor> values;
            const OpLowering* op = registry.find(node.domain(), node.op_type(), opset);
            if (node.op_type() == "Constant" && node.domain().empty()) {
                values.push_back(constantValue(ctx));
            } else if (node.op_type() == "Shape" && node.domain().empty() && ins[0]) {
                // Shapes are static, so Shape always folds (start/end from opset 15).
                const auto& shape = ins[0]->shape();
                int64_t rank = int64_t(shape.size());
                int64_t start = ctx.attrs().getInt("start", 0),
                        end = ctx.attrs().getInt("end", rank);
                start = std::min(std::max(start < 0 ? start + rank : start, int64_t(0)), rank);
                end = std::min(std::max(end < 0 ? end + rank : end, int64_t(0)), rank);
                HostTensor h;
                for (int64_t i = start; i < end; ++i)
                    h.values.push_back(double(shape[std::size_t(i)]));
                h.info = TensorInfo(DataType::INT64, Shape{int64_t(h.values.size())});
                values.push_back(h);
            } else if (allConstant && allKnown && op && op->fold) {
                values = op->fold(ctx);
            }
            if (!values.empty()) {
                for (std::size_t i = 0; i < values.size() && i < std::size_t(node.output_size());
                     ++i) {
                    const auto& id = node.output(int(i));
                    a.constants[id] = values[i];
                    a.infos[id] = values[i].info;
                    a.folded.insert(id);
                    // An earlier round may have declared the output without a shape (its inputs
                    // were not known yet): ONNX would read that rather than the initializer.
                    eraseValueInfo(*g, id);
                    onnx::TensorProto* t = g->add_initializer();
                    toTensorProto(values[i], *t);
                    t->set_name(id);
                }
                doneNodes.insert(ni);
                changed = true;
                continue;
            }
            bool missing = false;
            for (const auto& id : node.output())
                missing = missing || (!id.empty() && !a.infos.count(id));
            if (missing && allKnown && op && op->inferShape) {
                op->inferShape(ctx);
                for (std::size_t i = 0; i < ctx.outputInfos().size(); ++i) {
                    const auto& id = node.output(int(i));
                    if (id.empty() || !ctx.outputInfos()[i].isSet() || a.infos.count(id))
                        continue;
                    a.infos[id] = ctx.outputInfos()[i];
                    eraseValueInfo(*g, id);
                    setValueInfo(*g->add_value_info(), id, ctx.outputInfos()[i]);
                    changed = true;
                }
            }
        }
        if (!changed)
            break;
        // Folded nodes leave the graph so ONNX reads their outputs as initializers.
        onnx::GraphProto rest;
        for (int ni = 0; ni < original.graph().node_size(); ++ni)
            if (!doneNodes.count(ni))
                *rest.add_node() = original.graph().node(ni);
        g->mutable_node()->Swap(rest.mutable_node());
    }
    if (mode == AnalysisMode::Session) {
        for (const auto& node : original.graph().node())
            for (const auto& id : node.output())
                if (!id.empty() && !a.infos.count(id)) {
                    NodeView v(node, nodeOpset(a, node.domain()));
                    v.invalid("the shape of output '" + id + "' could not be inferred");
                }
    }
    return a;
}

} // namespace popart
