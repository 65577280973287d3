// Graph::serialize and the Graphviz views of a graph (outputVertexGraph, outputComputeGraph).

#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "tilescope/sim/GraphModel.hpp"
#include "tilescope/sim/GraphModelSerializer.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

namespace poplar {

namespace sim = tilescope::sim;
using Json = nlohmann::ordered_json;

namespace {

std::vector<sim::ProgramNodePtr> nodesOf(ArrayRef<program::Program> progs) {
    std::vector<sim::ProgramNodePtr> nodes;
    for (const auto& p : progs)
        nodes.push_back(p.node());
    return nodes;
}

std::string typeName(sim::ElementType t) {
    return std::string(sim::elementTypeName(t));
}

/// Runs of elements on one tile: [[tile, begin, end], ...] in element order (-1: unmapped).
Json tileRuns(const sim::VariableInfo& v) {
    Json runs = Json::array();
    std::size_t begin = 0;
    for (std::size_t i = 1; i <= v.tileOf.size(); ++i)
        if (i == v.tileOf.size() || v.tileOf[i] != v.tileOf[begin]) {
            runs.push_back({v.tileOf[begin], begin, i});
            begin = i;
        }
    return runs;
}

Json viewJson(const sim::TensorView& t, const sim::GraphModel& m) {
    Json ranges = Json::array();
    for (const auto& r : t.ranges)
        ranges.push_back({{"variable", m.variables[r.variable].name},
                          {"variableId", r.variable},
                          {"begin", r.begin},
                          {"end", r.end}});
    return {{"type", typeName(t.type)}, {"shape", t.shape}, {"elements", ranges}};
}

const char* directionName(tilescope::sim::abi::Direction d) {
    using D = tilescope::sim::abi::Direction;
    switch (d) {
    case D::Input:
        return "Input";
    case D::Output:
        return "Output";
    case D::InOut:
        return "InOut";
    case D::State:
        return "State";
    }
    return "?";
}

const char* vertexKind(const sim::VertexType& type) {
    return type.info.isSupervisor    ? "SupervisorVertex"
           : type.info.isMultiVertex ? "MultiVertex"
                                     : "Vertex";
}

std::string remoteBufferLabel(const sim::RemoteBufferInfo& b) {
    return "remote buffer " + b.handle + "\n" + typeName(b.type) + " " + std::to_string(b.repeats) +
           " x " + std::to_string(b.numElements);
}

Json programJson(const sim::ProgramNode& n, const sim::GraphModel& m, int depth) {
    Json j = {{"kind", std::string(tilescope::capture::programKindName(n.kind))}};
    if (!n.name.empty())
        j["name"] = n.name;
    if (n.kind == tilescope::capture::ProgramKind::Execute && n.computeSet < m.computeSets.size())
        j["computeSet"] = m.computeSets[n.computeSet].name;
    if (n.kind == tilescope::capture::ProgramKind::Repeat)
        j["count"] = n.repeatCount;
    if (n.kind == tilescope::capture::ProgramKind::StreamCopy) {
        const bool toDevice = n.destination.has_value();
        if (n.remote && n.stream < m.remoteBuffers.size()) {
            j["remoteBuffer"] = m.remoteBuffers[n.stream].handle;
            j["direction"] = toDevice ? "fromRemoteBuffer" : "toRemoteBuffer";
            if (n.offset)
                j["offset"] = viewJson(*n.offset, m);
        } else if (!n.remote && n.stream < m.streams.size()) {
            j["stream"] = m.streams[n.stream].handle;
        }
    }
    if (n.cycleCounter) {
        j[n.cycleStamp ? "cycleStamp" : "cycleCount"] = viewJson(*n.cycleCounter, m);
    }
    if (depth > 64) // guards against pathological nesting, not needed by real programs
        return j;
    if (!n.children.empty()) {
        Json children = Json::array();
        for (const auto& c : n.children)
            children.push_back(programJson(*c, m, depth + 1));
        j["children"] = children;
    }
    return j;
}

Json graphJson(const sim::GraphModel& m, const std::vector<sim::ProgramNodePtr>& programs) {
    Json j;
    j["format"] = "tilescope-graph";
    j["version"] = 2;
    j["target"] = {{"type", m.target.deviceType},
                   {"architecture", m.target.architecture},
                   {"numIPUs", m.target.numIpus},
                   {"tilesPerIPU", m.target.tilesPerIpu},
                   {"bytesPerTile", m.target.bytesPerTile}};
    Json vars = Json::array();
    for (std::size_t i = 0; i < m.variables.size(); ++i) {
        const auto& v = m.variables[i];
        vars.push_back({{"id", i},
                        {"name", v.name},
                        {"type", typeName(v.type)},
                        {"shape", v.shape},
                        {"constant", v.isConstant},
                        {"hasInitialValue", !v.initialValue.empty()},
                        {"tileMapping", tileRuns(v)}});
    }
    j["variables"] = vars;
    Json types = Json::array();
    for (std::uint32_t t = 0; t < m.vertexTypes.size(); ++t) {
        const auto& type = m.vertexTypes.at(t);
        types.push_back({{"name", type.name}, {"kind", vertexKind(type)}});
    }
    j["vertexTypes"] = types;
    Json vertices = Json::array();
    for (std::size_t i = 0; i < m.vertices.size(); ++i) {
        const auto& v = m.vertices[i];
        const auto& type = m.vertexTypes.at(v.type);
        Json fields = Json::array();
        for (std::size_t f = 0; f < v.fields.size(); ++f) {
            Json items = Json::array();
            for (const auto& item : v.fields[f].items)
                items.push_back(item ? viewJson(*item, m) : Json());
            Json field = {{"name", type.fields[f].name},
                          {"direction", directionName(type.fields[f].direction)},
                          {"connections", items}};
            if (!v.fields[f].stateValue.empty())
                field["stateBytes"] = v.fields[f].stateValue.size();
            fields.push_back(field);
        }
        vertices.push_back({{"id", i},
                            {"type", type.name},
                            {"kind", vertexKind(type)},
                            {"computeSet", m.computeSets[v.computeSet].name},
                            {"tile", v.tile},
                            {"fields", fields}});
    }
    j["vertices"] = vertices;
    Json sets = Json::array();
    for (std::size_t i = 0; i < m.computeSets.size(); ++i)
        sets.push_back(
            {{"id", i}, {"name", m.computeSets[i].name}, {"vertices", m.computeSets[i].vertices}});
    j["computeSets"] = sets;
    Json streams = Json::array();
    for (const auto& s : m.streams)
        streams.push_back({{"handle", s.handle},
                           {"type", typeName(s.type)},
                           {"numElements", s.numElements},
                           {"direction", s.hostToDevice ? "hostToDevice" : "deviceToHost"}});
    j["streams"] = streams;
    Json remote = Json::array();
    for (const auto& b : m.remoteBuffers)
        remote.push_back({{"handle", b.handle},
                          {"type", typeName(b.type)},
                          {"numElements", b.numElements},
                          {"repeats", b.repeats}});
    j["remoteBuffers"] = remote;
    Json handles = Json::array();
    for (const auto& h : m.hostHandles)
        handles.push_back({{"handle", h.handle},
                           {"direction", h.hostToDevice ? "hostWrite" : "hostRead"},
                           {"tensor", viewJson(h.tensor, m)}});
    j["hostHandles"] = handles;
    Json progs = Json::array();
    for (const auto& p : programs)
        progs.push_back(programJson(*p, m, 0));
    j["programs"] = progs;
    return j;
}

/// A DOT double-quoted string.
std::string dotString(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c == '\n' ? std::string("\\n") : std::string(1, c);
    }
    return out + "\"";
}

std::string varLabel(const sim::VariableInfo& v) {
    std::string shape;
    for (auto d : v.shape)
        shape += (shape.empty() ? "" : ",") + std::to_string(d);
    return v.name + "\n" + typeName(v.type) + " {" + shape + "}";
}

/// For each vertex, the variables each of its fields reads and writes.
template <typename F> void forEachEdge(const sim::GraphModel& m, std::uint32_t vertex, F&& f) {
    const auto& v = m.vertices[vertex];
    const auto& type = m.vertexTypes.at(v.type);
    for (std::size_t i = 0; i < v.fields.size(); ++i) {
        std::set<std::uint32_t> vars;
        for (const auto& item : v.fields[i].items)
            if (item)
                for (const auto& r : item->ranges)
                    vars.insert(r.variable);
        for (auto var : vars)
            f(var, type.fields[i]);
    }
}

void controlFlowDot(std::ostream& out, const std::vector<sim::ProgramNodePtr>& programs,
                    const sim::GraphModel& m) {
    if (programs.empty())
        return;
    std::map<const sim::ProgramNode*, std::size_t> ids;
    std::vector<const sim::ProgramNode*> stack;
    for (const auto& p : programs)
        stack.push_back(p.get());
    out << "  subgraph cluster_programs {\n    label=\"programs\";\n";
    std::vector<std::pair<std::size_t, std::size_t>> edges;
    std::vector<std::pair<std::size_t, std::uint32_t>> executes;
    std::vector<std::pair<std::size_t, const sim::ProgramNode*>> remoteCopies;
    auto idOf = [&](const sim::ProgramNode* n) {
        auto [it, inserted] = ids.emplace(n, ids.size());
        if (inserted)
            stack.push_back(n);
        return it->second;
    };
    for (const auto& p : programs)
        idOf(p.get());
    stack.erase(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(programs.size()));
    for (const auto& p : programs)
        stack.push_back(p.get());
    std::set<const sim::ProgramNode*> done;
    while (!stack.empty()) {
        const auto* n = stack.back();
        stack.pop_back();
        if (!done.insert(n).second)
            continue;
        const auto id = ids.at(n);
        std::string label(tilescope::capture::programKindName(n->kind));
        if (!n->name.empty())
            label += "\n" + n->name;
        out << "    p" << id << " [shape=box, style=rounded, label=" << dotString(label) << "];\n";
        for (const auto& c : n->children)
            edges.emplace_back(id, idOf(c.get()));
        if (n->kind == tilescope::capture::ProgramKind::Execute &&
            n->computeSet < m.computeSets.size())
            executes.emplace_back(id, n->computeSet);
        if (n->kind == tilescope::capture::ProgramKind::StreamCopy && n->remote &&
            n->stream < m.remoteBuffers.size())
            remoteCopies.emplace_back(id, n);
    }
    out << "  }\n";
    for (const auto& [a, b] : edges)
        out << "  p" << a << " -> p" << b << ";\n";
    for (const auto& [p, cs] : executes)
        out << "  p" << p << " -> cs" << cs << " [style=dashed];\n";
    for (const auto& [p, n] : remoteCopies) {
        if (n->destination) // from the buffer to the device
            out << "  rb" << n->stream << " -> p" << p << " [style=dashed];\n";
        else
            out << "  p" << p << " -> rb" << n->stream << " [style=dashed];\n";
    }
}

} // namespace

void Graph::serialize(std::ostream& out, SerializationFormat format) const {
    serialize(out, ArrayRef<program::Program>(), format);
}

void Graph::serialize(std::ostream& out, ArrayRef<program::Program> progs,
                      SerializationFormat format) const {
    const auto programs = nodesOf(progs);
    if (format == SerializationFormat::Binary)
        sim::writeSerializedGraph(out, *model_, programs, {});
    else
        out << graphJson(*model_, programs).dump(1) << "\n";
    if (!out)
        throw poplar_error("Graph::serialize: writing to the output stream failed");
}

void Graph::outputVertexGraph(std::ostream& out, ArrayRef<program::Program> progs) const {
    const auto& m = *model_;
    out << "digraph vertexGraph {\n  rankdir=LR;\n  node [fontsize=10];\n";
    std::set<std::uint32_t> used;
    for (std::uint32_t v = 0; v < m.vertices.size(); ++v)
        forEachEdge(m, v,
                    [&](std::uint32_t var, const sim::FieldDescriptor&) { used.insert(var); });
    for (auto var : used)
        out << "  v" << var << " [shape=ellipse, label=" << dotString(varLabel(m.variables[var]))
            << "];\n";
    for (std::size_t cs = 0; cs < m.computeSets.size(); ++cs) {
        out << "  subgraph cluster_cs" << cs
            << " {\n    label=" << dotString(m.computeSets[cs].name) << ";\n";
        for (auto vid : m.computeSets[cs].vertices) {
            const auto& v = m.vertices[vid];
            out << "    x" << vid << " [shape=box, label="
                << dotString(m.vertexTypes.at(v.type).name + "\ntile " + std::to_string(v.tile))
                << "];\n";
        }
        out << "  }\n";
    }
    for (std::uint32_t vid = 0; vid < m.vertices.size(); ++vid)
        forEachEdge(m, vid, [&](std::uint32_t var, const sim::FieldDescriptor& f) {
            if (f.reads())
                out << "  v" << var << " -> x" << vid << " [label=" << dotString(f.name) << "];\n";
            if (f.writes())
                out << "  x" << vid << " -> v" << var << " [label=" << dotString(f.name) << "];\n";
        });
    (void)progs; // the vertex graph is the same whatever programs run it
    out << "}\n";
}

void Graph::outputComputeGraph(std::ostream& out, ArrayRef<program::Program> progs) const {
    const auto& m = *model_;
    out << "digraph computeGraph {\n  node [fontsize=10];\n";
    std::set<std::uint32_t> used;
    std::set<std::pair<std::uint32_t, std::uint32_t>> reads, writes; // (variable, compute set)
    for (std::uint32_t cs = 0; cs < m.computeSets.size(); ++cs)
        for (auto vid : m.computeSets[cs].vertices)
            forEachEdge(m, vid, [&](std::uint32_t var, const sim::FieldDescriptor& f) {
                used.insert(var);
                if (f.reads())
                    reads.emplace(var, cs);
                if (f.writes())
                    writes.emplace(var, cs);
            });
    for (std::uint32_t cs = 0; cs < m.computeSets.size(); ++cs)
        out << "  cs" << cs << " [shape=box, style=filled, fillcolor=lightblue, label="
            << dotString(m.computeSets[cs].name + "\n" +
                         std::to_string(m.computeSets[cs].vertices.size()) + " vertices")
            << "];\n";
    for (auto var : used)
        out << "  v" << var << " [shape=ellipse, label=" << dotString(varLabel(m.variables[var]))
            << "];\n";
    for (std::size_t b = 0; b < m.remoteBuffers.size(); ++b)
        out << "  rb" << b
            << " [shape=cylinder, label=" << dotString(remoteBufferLabel(m.remoteBuffers[b]))
            << "];\n";
    for (const auto& [var, cs] : reads)
        out << "  v" << var << " -> cs" << cs << ";\n";
    for (const auto& [var, cs] : writes)
        out << "  cs" << cs << " -> v" << var << ";\n";
    controlFlowDot(out, nodesOf(progs), m);
    out << "}\n";
}

} // namespace poplar
